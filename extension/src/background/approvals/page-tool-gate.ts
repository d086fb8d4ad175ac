/**
 * The gate in front of the page tools: an `item/tool/call` is parsed, the elements it names are looked up so the card
 * can describe them in the extension's words, the broker asks (or a rule or grant decides), and only then does the
 * page action run, on the tab and site the decision was made for, for a caller that still waits.
 */
import type { ApprovalDecision, ServerRequestParams, ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import { highRiskReasons, isSubmitKey, navigationRefusal, toolClassOf } from '../../shared/action-risk';
import type { ElementFacts } from '../../shared/agent-contract';
import type { WorkerToView } from '../../shared/messages';
import type { Notice } from '../../shared/records';
import { describeAction } from '../page-tools/action-cards';
import { callRefs } from '../page-tools/action-report';
import { isTabToolCall, type PageCall, type PageToolCall, parsePageToolCall } from '../page-tools/page-tool-specs';
import type { PageTools } from '../page-tools/page-tools';
import type { HandoverDesk } from '../handover/handover-desk';
import { requestedTab, type TabTools } from '../tabs/tab-tools';
import type { TaskGroups } from '../tabs/task-groups';
import type { PersistentState } from '../views/persistent-state';
import { type ApprovalBroker, stopReasonOf, stopReasonText, whoWaited } from './approval-broker';
import { ruleOrigin } from './site-rules';

/** What a withdrawn call answers: nothing, since its caller no longer waits (an answer could reach another caller). */
const NO_ANSWER: Promise<never> = new Promise(() => undefined);

/** The decision origin of a history step: not a web origin, so only "allow once" and "deny" are offered. */
const UNKNOWN_DESTINATION = 'about:history';

/**
 * The origin a call is decided for, when it is not the page's. Opening a page is decided for the site it opens, so a
 * rule for this site never opens another; back and forward lead to whatever the history holds, a site no card can
 * name, so no rule or grant covers them; an element in a frame from another site is decided for that site (a grant
 * on the page does not reach it), and calls spanning several sites get no remembered choice at all.
 */
function decisionOrigin(
  call: PageToolCall,
  elements: readonly ElementFacts[],
  pageOrigin: string | undefined,
): { origin?: string } {
  if (call.tool === 'page_navigate' || call.tool === 'tabs_open') return { origin: call.args.url };
  if (call.tool === 'page_back' || call.tool === 'page_forward') return { origin: UNKNOWN_DESTINATION };
  const others = new Set(elements.map((e) => e.origin).filter((o) => o !== pageOrigin));
  if (others.size === 0) return {};
  const [only] = others;
  return others.size === 1 && only !== undefined && ruleOrigin(only) === only
    ? { origin: only }
    : { origin: UNKNOWN_DESTINATION };
}

/** What the gate needs from the worker. */
export interface GateDeps {
  readonly state: Pick<PersistentState, 'tabsForThread'>;
  tab(tabId: number): Promise<{ url?: string; title?: string } | undefined>;
  readonly pages: Pick<PageTools, 'elementsOf' | 'highlight' | 'run'>;
  /** The thread's task group: which tabs a call may act on. */
  readonly groups: Pick<TaskGroups, 'resolve' | 'closeRefusal' | 'actingOn' | 'members'>;
  readonly tabTools: Pick<TabTools, 'run'>;
  readonly broker: Pick<ApprovalBroker, 'ask' | 'begin'>;
  readonly handovers: Pick<HandoverDesk, 'ask'>;
  sendToTab(tabId: number, message: WorkerToView): void;
}

/**
 * Serves an `item/tool/call`: tracked from arrival to answer, so a caller that stops waiting (item/tool/call/cancelled,
 * its turn ending, its backend stopping) stops the call wherever it is, and gets no answer.
 */
export async function serveToolCall(
  w: GateDeps,
  params: ServerRequestParams<'item/tool/call'>,
): Promise<ToolCallResult> {
  const call = w.broker.begin({
    threadId: params.threadId,
    turnId: params.turnId,
    requestId: params.callId,
    external: params.caller !== undefined,
  });
  try {
    return await runGatedCall(w, params, call.signal);
  } finally {
    call.end();
  }
}

/**
 * Runs a client tool call once it is allowed; resolves with nothing ever when its caller stopped waiting (`signal`),
 * so no answer can reach another caller.
 */
export async function runGatedCall(
  w: GateDeps,
  params: ServerRequestParams<'item/tool/call'>,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const fail = (text: string): ToolCallResult => ({ success: false, content: [{ type: 'text', text }] });
  const parsed = parsePageToolCall(params.tool, params.arguments);
  if (!parsed.ok) return fail(parsed.error);
  const { call } = parsed;
  // A hand-over acts on nothing: the user answers it in the panel, so there is no card, only their reply.
  if (call.tool === 'page_ask_user') return (await w.handovers.ask(params, call.args, signal)) ?? NO_ANSWER;
  const toolClass = toolClassOf(call.tool);
  // Any tab of the thread's task group, and no other: the one the call names, else the one the agent is on.
  const target = w.groups.resolve(params.threadId, requestedTab(call, parsed.tabId));
  if ('error' in target) return fail(target.error);
  const { tabId } = target;
  if (toolClass === undefined) return fail(`${call.tool} is not a page tool the extension can gate.`);
  const conversationTab = w.state.tabsForThread(params.threadId)[0] ?? tabId;
  const shown = await w.tab(tabId);
  const askedOrigin = ruleOrigin(shown?.url);
  const origin = askedOrigin ?? 'this page';
  if (call.tool === 'page_navigate' || call.tool === 'tabs_open') {
    const refused = navigationRefusal(call.args.url);
    if (refused) return fail(refused);
  }
  const closing = call.tool === 'tabs_close' ? w.groups.closeRefusal(params.threadId, tabId) : undefined;
  if (closing) return fail(closing);
  // The card names the tab when it is not the conversation's own one, so the user knows which page is meant.
  const otherTab =
    tabId === conversationTab ? {} : { tab: { id: tabId, title: shown?.title || shown?.url || `tab ${tabId}` } };
  // The card describes what the extension found on the page, so the elements are looked up before asking.
  let elements: ElementFacts[];
  try {
    elements = await w.pages.elementsOf(tabId, call);
  } catch (error) {
    return fail(errorMessage(error));
  }
  const { preview, value } = describeAction(call, elements, origin);
  const submits =
    (call.tool === 'page_type' && call.args.submit === true) ||
    (call.tool === 'page_press' && isSubmitKey(call.args.key));
  const key = call.tool === 'page_press' ? { key: call.args.key } : {};
  const highRisk = highRiskReasons({ tool: call.tool, elements, submits, ...key });
  const outlined = callRefs(call)[0];
  // Outlined only when a card is shown: a call a rule or grant decides makes no round trip to the page for it.
  let carded = false;
  let decision: ApprovalDecision;
  try {
    decision = await w.broker.ask({
      source: 'client-tool',
      threadId: params.threadId,
      turnId: params.turnId,
      requestId: params.callId,
      toolName: call.tool,
      preview,
      ...(params.caller ? { caller: params.caller } : {}),
      choices: ['allow', 'allow_session', 'deny'],
      page: { toolClass, highRisk, ...(value === undefined ? {} : { value }), ...otherTab },
      // Decided for the site of the tab acted on (or where the call leads), never for the conversation's tab's site.
      origin: decisionOrigin(call, elements, askedOrigin).origin ?? shown?.url ?? '',
      signal,
      onAsk: () => {
        carded = true;
        void w.pages.highlight(tabId, outlined, true);
      },
    });
  } finally {
    if (carded) void w.pages.highlight(tabId, outlined, false);
  }
  if (signal.aborted) return NO_ANSWER;
  if (decision === 'deny') return fail(`The user did not allow ${call.tool} on ${origin}.`);
  // The task can change while the user decides: use only the tab the call resolves to now, if it is the same one.
  const again = w.groups.resolve(params.threadId, requestedTab(call, parsed.tabId));
  if (!('tabId' in again) || again.tabId !== tabId) return fail('The tab of this conversation changed; ask again.');
  // The decision covers the site the tab showed when asked; a tab that navigated meanwhile shows another site.
  if (ruleOrigin((await w.tab(tabId))?.url) !== askedOrigin) {
    return fail(`The tab left ${origin} before ${call.tool} could run, so it did not run; ask again.`);
  }
  if (signal.aborted) return NO_ANSWER;
  const result = isTabToolCall(call)
    ? await w.tabTools.run(params.threadId, tabId, call)
    : await runOnPage(w, params.threadId, tabId, call, toolClass);
  if (signal.aborted) {
    // Too late to stop the page action, but no one receives its result: the transcript says so, not that it ran.
    const why = stopReasonText(stopReasonOf(signal));
    const summary = `${whoWaited(params.caller)} stopped waiting (${why}) while ${call.tool} ran on ${origin}: the action happened, but its result was not delivered.`;
    const notice: Notice = { kind: 'call-withdrawn', toolName: call.tool, threadId: params.threadId, summary };
    w.sendToTab(conversationTab, { type: 'notice', notice });
    return NO_ANSWER;
  }
  // An external client's call belongs to no turn of this conversation: the transcript still says what it did.
  if (params.caller) {
    const outcome = result.success ? 'ran' : 'failed';
    const notice: Notice = {
      kind: 'tool-ran',
      toolName: call.tool,
      threadId: params.threadId,
      summary: `${params.caller.name} (its own name for itself) ${outcome} ${call.tool} on ${origin}.`,
    };
    w.sendToTab(conversationTab, { type: 'notice', notice });
  }
  return result;
}

/**
 * Runs a call inside one page. While an action runs, a tab its page opens (a link with target=_blank, window.open)
 * joins the task (TaskGroups.actingOn), and the result names it, so the agent can go on there without the user.
 */
async function runOnPage(
  w: GateDeps,
  threadId: string,
  tabId: number,
  call: PageCall,
  toolClass: string,
): Promise<ToolCallResult> {
  if (toolClass === 'read') return w.pages.run(tabId, call);
  const before = new Set(w.groups.members(threadId).map((t) => t.tabId));
  const done = w.groups.actingOn(threadId, tabId);
  let result: ToolCallResult;
  try {
    result = await w.pages.run(tabId, call);
  } finally {
    done();
  }
  const opened = w.groups.members(threadId).filter((t) => !before.has(t.tabId) && t.role === 'agent');
  if (opened.length === 0) return result;
  const ids = opened.map((t) => t.tabId).join(', ');
  const note = `This action opened tab ${ids}, which joined this task: pass tabId (or tabs_select) to use it, tabs_close to close it.`;
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}
