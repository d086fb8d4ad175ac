/**
 * The hand-over desk: `page_ask_user` puts the agent's request in the side panel of the conversation's tab (and of the
 * task's other tabs), brings the tab the agent is on to the front, and waits for "Done" or "I can't" (with the user's short answer). Its tool call stays
 * pending meanwhile, so the turn waits. The call's signal is the approval broker's (`begin`): when its caller stops
 * waiting (Stop, a cancelled call, a stopped backend) the request leaves the panel and the call gets no answer. A reply
 * is taken only through `answer`, which the worker calls for its own pages: page content has no way in.
 */
import type { ServerRequestParams, ToolCallResult } from '@tether/protocol';
import type { Handover, HandoverOutcome } from '../../shared/handover';
import type { Notice } from '../../shared/records';
import { stopReasonOf, stopReasonText, whoWaited } from '../approvals/approval-broker';

/** What the desk needs from the worker (injected so it is testable without a browser). */
export interface HandoverDeps {
  /** The tab whose panel shows the thread; a request goes nowhere else. */
  tabForThread(threadId: string): number | undefined;
  /** The tab the agent is on (the page the user must act on), when it is another tab of the thread's task. */
  pageTabForThread?(threadId: string): number | undefined;
  /** Makes the tab the active one of its window and focuses the window; rejects when the browser refuses. */
  focusTab(tabId: number): Promise<void>;
  /** The tab's open requests changed (update its pages and badge). */
  onChange(tabId: number): void;
  /** Tell the tab's pages something for the transcript. */
  onNotice(tabId: number, notice: Notice): void;
  now(): number;
  log(line: string): void;
}

/** `page_ask_user`'s arguments, as its schema parses them. */
export interface AskUserArgs {
  readonly message: string;
  /** What the user should type (a label); absent: the answer field is there but optional. */
  readonly answer?: string | undefined;
}

/** Thrown when a reply cannot be taken: nothing waits under that key, or it came from another tab. */
export class HandoverAnswerError extends Error {
  override readonly name = 'HandoverAnswerError';
}

/** How a request ended: the user's reply, or the tab closed under it. */
type Ending = { outcome: HandoverOutcome; answer?: string | undefined } | { outcome: 'tab-closed' };

interface OpenRequest {
  readonly handover: Handover;
  end(ending: Ending): void;
}

/** The tool result for a call that could not ask anyone. */
function fail(text: string): ToolCallResult {
  return { success: false, content: [{ type: 'text', text }] };
}

/** The caller as the panel names it: its claimed name and version, never its connection. */
function callerOf(caller: { name: string; version?: string | undefined }): NonNullable<Handover['caller']> {
  return { name: caller.name, ...(caller.version === undefined ? {} : { version: caller.version }) };
}

/** What the model is told: the button the user chose and what they typed, quoted so it reads as their words. */
export function replyText(ending: Ending, answerLabel?: string): string {
  if (ending.outcome === 'tab-closed') return 'The user closed the tab before answering, so nothing was done there.';
  const said = ending.answer?.trim();
  const answer = said
    ? ` Their answer: ${JSON.stringify(said)}`
    : answerLabel
      ? ` They did not type ${answerLabel}.`
      : '';
  return ending.outcome === 'done'
    ? `The user clicked "Done": they say they did what you asked.${answer}`
    : `The user clicked "I can't": they could not or would not do it.${answer}`;
}

/** Open hand-over requests, by key, from the call that asked to the user's reply. */
export class HandoverDesk {
  private readonly open = new Map<string, OpenRequest>();

  constructor(private readonly deps: HandoverDeps) {}

  /**
   * Asks the user in the tab of `params.threadId` and waits; resolves with the tool result, or with undefined when
   * the caller stopped waiting (`signal` aborted), so that no answer reaches anyone.
   */
  async ask(
    params: ServerRequestParams<'item/tool/call'>,
    args: AskUserArgs,
    signal: AbortSignal,
  ): Promise<ToolCallResult | undefined> {
    if (signal.aborted) return undefined;
    const tabId = this.deps.tabForThread(params.threadId);
    if (tabId === undefined) return fail('No browser tab shows this conversation any more, so nobody can be asked.');
    const key = `handover:${params.threadId}:${params.callId}`;
    if (this.open.has(key)) return fail(`A request with call id ${params.callId} is already waiting for the user.`);
    const handover: Handover = {
      key,
      threadId: params.threadId,
      tabId,
      message: args.message,
      ...(args.answer === undefined ? {} : { answerLabel: args.answer }),
      ...(params.caller ? { caller: callerOf(params.caller) } : {}),
      createdAtMs: this.deps.now(),
    };
    const ending = await new Promise<Ending | undefined>((resolve) => {
      const stopped = (): void => resolve(undefined);
      signal.addEventListener('abort', stopped, { once: true });
      this.open.set(key, {
        handover,
        end: (e) => {
          signal.removeEventListener('abort', stopped);
          resolve(e);
        },
      });
      this.deps.onChange(tabId);
      // The user may be on another tab or window: the page they must act on comes to them. That is the tab the agent
      // is on, which may be one it opened for the task; the request shows in that tab's panel too (task-pending.ts).
      const front = this.deps.pageTabForThread?.(params.threadId) ?? tabId;
      this.deps
        .focusTab(front)
        .catch((error: unknown) => this.deps.log(`could not bring tab ${front} forward: ${error}`));
    });
    this.open.delete(key);
    this.deps.onChange(tabId);
    const toolName = params.tool;
    if (ending === undefined) {
      const why = stopReasonText(stopReasonOf(signal));
      const summary = `${whoWaited(params.caller)} stopped waiting for your answer (${why}): its request was withdrawn.`;
      this.deps.onNotice(tabId, { kind: 'call-withdrawn', toolName, threadId: params.threadId, summary });
      return undefined;
    }
    const text = replyText(ending, args.answer);
    // An external client's call belongs to no turn of this conversation: the transcript still says what was asked.
    if (params.caller) {
      const summary = `${params.caller.name} (its own name for itself) asked you: ${JSON.stringify(args.message)}. ${text}`;
      this.deps.onNotice(tabId, { kind: 'tool-ran', toolName, threadId: params.threadId, summary });
    }
    return ending.outcome === 'tab-closed' ? fail(text) : { success: true, content: [{ type: 'text', text }] };
  }

  /** Takes the user's reply made in a page of tab `fromTabId` (null: a page of no tab); throws when it cannot. */
  answer(
    reply: { key: string; outcome: HandoverOutcome; answer?: string | undefined },
    fromTabId: number | null,
  ): void {
    const request = this.open.get(reply.key);
    if (!request)
      throw new HandoverAnswerError(
        'This request is no longer waiting: it was answered, or the agent stopped waiting.',
      );
    if (fromTabId !== request.handover.tabId)
      throw new HandoverAnswerError('A request can only be answered from the tab it was asked in.');
    request.end({ outcome: reply.outcome, answer: reply.answer });
  }

  /** The tab closed: nobody can act on its page any more, and the callers are told so. */
  tabClosed(tabId: number): void {
    for (const request of [...this.open.values()])
      if (request.handover.tabId === tabId) request.end({ outcome: 'tab-closed' });
  }

  /** Open requests of one tab, oldest first. */
  pendingForTab(tabId: number): Handover[] {
    return [...this.open.values()]
      .map((r) => r.handover)
      .filter((h) => h.tabId === tabId)
      .sort((a, b) => a.createdAtMs - b.createdAtMs);
  }
}
