/**
 * One running turn: implements the TurnContext a model drives (items, deltas, tool calls, approvals, steering) and
 * finishes exactly once, as `completed`, `failed` or `interrupted`. An interrupt does not wait for the model: the turn
 * is finished by the engine and whatever the model does afterwards is ignored.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type {
  ApprovalRequestParams,
  ApprovalSessionScope,
  ClientTool,
  Item,
  ThreadStatus,
  Turn,
  TurnError,
  TurnStatus,
} from '@tether/protocol';
import type { Approvals } from '../session/approvals';
import {
  ModelError,
  type Model,
  type StreamWriter,
  type ToolOutcome,
  type ToolSpec,
  type TurnContext,
} from './models/model';
import { browserClosedToolText } from './client-wait';
import type { IdKind } from './options';
import type { Peer } from './peer';
import { completedItem, startedItem } from '../store/items';
import type { ThreadStore } from '../store/thread-store';
import type { ThreadState } from './thread-state';
import { builtinTool, builtinTools, runBuiltinTool, type BuiltinToolEnv } from './tools/builtin';
import { errorMessage } from '@tether/protocol/errors';

/** What a turn needs from the engine. */
export interface TurnEnv extends BuiltinToolEnv {
  readonly now: () => number;
  readonly newId: (kind: IdKind) => string;
  readonly log: (line: string) => void;
  readonly approvals: Approvals;
  /** The store, or undefined for memory-only threads. */
  readonly store: ThreadStore | undefined;
  /** Sets and announces the thread's status. */
  setThreadStatus(threadId: string, status: ThreadStatus): void;
  /** Called once, after the turn's final notifications. */
  turnEnded(run: TurnRun): void;
}

type StreamType = 'agentMessage' | 'reasoning';

/** A turn in progress. */
export class TurnRun {
  private readonly controller = new AbortController();
  private readonly open = new Map<string, Item>();
  private readonly steerQueue: string[] = [];
  private finished = false;
  /** Set by an interrupt request: the model is aborted and muted until the turn finishes right after the answer. */
  private stopping = false;
  private stoppedAtMs: number | undefined;
  private readonly clientTools: readonly ClientTool[];
  /** Where streamed text is journaled as it is sent, so a crash keeps it (persistent threads only; see OpenStreams). */
  private readonly streams: ThreadStore | undefined;

  constructor(
    private readonly env: TurnEnv,
    private readonly state: ThreadState,
    readonly turn: Turn,
    private readonly modelId: string,
    private readonly model: Model | ModelError,
    private readonly owner: Peer,
    private readonly cwd: string,
  ) {
    this.clientTools = owner.clientTools;
    this.streams = state.persistent ? env.store : undefined;
  }

  /** The turn as it stands, as a copy safe to send. */
  snapshot(): Turn {
    return structuredClone(this.turn);
  }

  /** Copies of the items in progress, in start order. */
  openItems(): Item[] {
    return [...this.open.values()].map((item) => structuredClone(item));
  }

  /** True once the turn reached its final status. */
  get isFinished(): boolean {
    return this.finished;
  }

  /** Queues steering input for the model's next step. */
  steer(text: string): void {
    this.steerQueue.push(text);
  }

  /** Announces the turn and runs the model (call after the turn/start answer went out). */
  start(): void {
    if (this.finished) return;
    this.state.emit('turn/started', { turn: this.snapshot() });
    // Interrupted before it began: turn/completed follows right away, so clients still see started, then completed.
    if (!this.live) return;
    this.env.setThreadStatus(this.state.id, 'running');
    void this.drive();
  }

  /**
   * Stops the turn at once (aborts the model and its tool, mutes it) and returns the turn as it will complete;
   * `finishInterrupted` then sends the final notifications, after the turn/interrupt answer.
   */
  requestInterrupt(): Turn {
    if (!this.finished && !this.stopping) {
      this.stopping = true;
      this.stoppedAtMs = this.env.now();
      this.controller.abort(new Error(`turn ${this.turn.id} interrupted`));
    }
    return this.finished
      ? this.snapshot()
      : { ...this.snapshot(), status: 'interrupted', completedAtMs: this.stoppedAtMs };
  }

  /**
   * Ends the turn as `interrupted` (`why`: what stopped it, when not the user): withdraws its approvals
   * (approval/resolved `cancelled`), completes its open items, journals the end, sends turn/completed.
   */
  finishInterrupted(why?: TurnError): void {
    this.finish('interrupted', why);
  }

  /** False once the turn finished or is being interrupted: the model's calls are then ignored. */
  private get live(): boolean {
    return !this.finished && !this.stopping;
  }

  private async drive(): Promise<void> {
    this.state.items ??= [];
    const items = this.state.items;
    let mark = items.length;
    this.recordUserMessage(this.turn.input.map((i) => i.text).join('\n'));
    let input = this.turn.input.map((i) => i.text).join('\n');
    try {
      if (this.model instanceof ModelError) throw this.model;
      for (;;) {
        await this.model.run(this.context(input, items.slice(0, mark)));
        if (!this.live) return;
        // Steering that arrived after the model's last look becomes the input of one more step.
        mark = items.length;
        const more = this.takeSteer();
        if (more.length === 0) break;
        input = more.join('\n');
      }
      this.finish('completed');
    } catch (error) {
      if (!this.live) return;
      const message = errorMessage(error);
      const code = error instanceof ModelError ? error.code : undefined;
      if (!(error instanceof ModelError))
        this.env.log(`turn ${this.turn.id}: model crashed: ${(error as Error)?.stack ?? message}`);
      this.finish('failed', code === undefined ? { message } : { message, code });
    }
  }

  private context(input: string, history: Item[]): TurnContext {
    const tools: ToolSpec[] = [...builtinTools, ...this.clientTools];
    return {
      threadId: this.state.id,
      turnId: this.turn.id,
      signal: this.controller.signal,
      model: this.modelId,
      cwd: this.cwd,
      input,
      history,
      tools,
      clientTools: this.clientTools,
      startMessage: (type) => this.startStream(type),
      callTool: (name, args, callId) => this.callTool(name, args, callId),
      takeSteer: () => this.takeSteer(),
      pace: () => this.pace(),
      warn: (message) => {
        if (this.live) this.state.emit('warning', { message, threadId: this.state.id, turnId: this.turn.id });
      },
    };
  }

  private async pace(): Promise<void> {
    await yieldToEventLoop();
    if (!this.live) return;
    const signal = this.controller.signal;
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([Promise.all([...this.state.subscribers].map((p) => p.flushed())), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private takeSteer(): string[] {
    if (!this.live || this.steerQueue.length === 0) return [];
    const texts = this.steerQueue.splice(0);
    for (const text of texts) this.recordUserMessage(text);
    return texts;
  }

  private recordUserMessage(text: string): void {
    const item = this.startItem('userMessage', { text });
    this.completeItem(item, 'completed');
  }

  private startStream(type: StreamType): StreamWriter {
    if (!this.live) return { itemId: '', delta: () => undefined, complete: () => undefined };
    const item = this.startItem(type, { text: '' });
    this.streams?.appendStreamStart(this.state.id, item);
    const content = item.content as { text: string };
    const method = type === 'agentMessage' ? 'item/agentMessage/delta' : 'item/reasoning/delta';
    const threadId = this.state.id;
    const turnId = this.turn.id;
    const itemId = item.id;
    return {
      itemId,
      delta: (delta) => {
        if (item.status !== 'inProgress' || !this.live) return;
        content.text += delta;
        this.streams?.appendStreamText(threadId, itemId, delta);
        this.state.emit(method, { threadId, turnId, itemId, delta });
      },
      complete: () => {
        if (item.status === 'inProgress' && this.live) this.completeItem(item, 'completed');
      },
    };
  }

  private async callTool(name: string, args: unknown, callId?: string): Promise<ToolOutcome> {
    if (!this.live) return { status: 'failed', text: 'The turn has ended.' };
    const id = callId ?? this.env.newId('call');
    const item = this.startItem('toolCall', { toolName: name, arguments: args, status: 'running', callId: id });
    const content = item.content as Record<string, unknown>;
    const builtin = builtinTool(name);
    let outcome: ToolOutcome;
    const invalid = builtin?.invalid(args);
    if (invalid !== undefined) {
      outcome = { status: 'failed', text: invalid };
    } else if (builtin) {
      const grant = builtin.grantKey(args);
      if (builtin.needsApproval && !this.state.grants.has(grant)) {
        const preview = builtin.preview(args, this.cwd);
        const { outcome: decision, reason: serverReason } = await this.askApproval(
          name,
          args,
          preview,
          builtin.sessionScope,
        );
        if (!this.live) return { status: 'failed', text: 'The turn was interrupted.' };
        if (decision === 'allow_session') {
          this.state.grants.add(grant);
          if (this.state.persistent) this.env.store?.appendGrant(this.state.id, name, grant);
        } else if (decision !== 'allow') {
          const reason =
            serverReason ??
            (decision === 'deny' ? 'The user denied this tool call.' : `The approval ended: ${decision}.`);
          content.status = 'declined';
          content.error = reason;
          this.completeItem(item, 'declined');
          return { status: 'declined', text: `${reason} Do not retry it without asking the user.` };
        }
      }
      outcome = await runBuiltinTool(name, args, { cwd: this.cwd, signal: this.controller.signal }, this.env);
    } else {
      outcome = await this.callClientTool(name, args, id);
    }
    if (!this.live) return outcome;
    content.status = outcome.status === 'completed' ? 'success' : 'failed';
    if (outcome.status === 'completed') content.result = outcome.result ?? outcome.text;
    else content.error = outcome.text;
    this.completeItem(item, outcome.status === 'completed' ? 'completed' : 'failed');
    return outcome;
  }

  private async callClientTool(name: string, args: unknown, callId: string): Promise<ToolOutcome> {
    const declares = (p: Peer): boolean => p.isOpen && p.clientTools.some((t) => t.name === name);
    // The client that started the turn, one that follows the thread, or (once it is gone) the same browser back.
    const group = this.owner.group;
    const find = (clients: Iterable<Peer>): Peer | undefined =>
      declares(this.owner)
        ? this.owner
        : ([...this.state.subscribers].find(declares) ??
          (group === undefined ? undefined : [...clients].find((p) => p.group === group && declares(p))));
    const peer = await this.owner.waitForClient(find, this.controller.signal);
    if (!peer) {
      if (!this.owner.isOpen) return { status: 'failed', text: browserClosedToolText(name) };
      return { status: 'failed', text: `No connected client provides the tool "${name}".` };
    }
    try {
      const result = await peer.request(
        'item/tool/call',
        { threadId: this.state.id, turnId: this.turn.id, callId, tool: name, arguments: args },
        this.controller.signal,
      );
      const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type} ${c.mimeType}]`)).join('\n');
      return { status: result.success ? 'completed' : 'failed', text, result: result.content };
    } catch (error) {
      return { status: 'failed', text: `The client could not run ${name}: ${errorMessage(error)}` };
    }
  }

  private async askApproval(toolName: string, args: unknown, preview: string, sessionScope: ApprovalSessionScope) {
    const params: ApprovalRequestParams = {
      threadId: this.state.id,
      turnId: this.turn.id,
      requestId: this.env.newId('approval'),
      toolName,
      preview,
      arguments: args,
      choices: ['allow', 'allow_session', 'deny'],
      sessionScope,
    };
    this.env.setThreadStatus(this.state.id, 'waitingOnApproval');
    this.state.emit('approval/requested', params);
    const outcome = await this.env.approvals.request(params, this.state.subscribers);
    if (this.live) this.env.setThreadStatus(this.state.id, 'running');
    return outcome;
  }

  private startItem(type: Item['type'], content: Record<string, unknown>): Item {
    const item = startedItem(this.env.newId('item'), type, content, this.turn.id, this.env.now());
    this.open.set(item.id, item);
    this.state.emit('item/started', { threadId: this.state.id, turnId: this.turn.id, item: structuredClone(item) });
    return item;
  }

  private completeItem(open: Item, status: Item['status']): void {
    this.open.delete(open.id);
    const item = completedItem(open, status, this.env.now());
    open.status = status;
    this.state.items ??= [];
    this.state.items.push(item);
    // Journal first: an item the client saw completed must survive a crash.
    if (this.state.persistent && this.env.store)
      this.state.sizes.set(item, this.env.store.appendItem(this.state.id, item));
    this.state.emit('item/completed', { threadId: this.state.id, turnId: this.turn.id, item });
  }

  private finish(status: Exclude<TurnStatus, 'running'>, error?: TurnError): void {
    if (this.finished) return;
    this.finished = true;
    this.controller.abort(new Error(`turn ${this.turn.id} ${status}`));
    this.env.approvals.cancelTurn(this.turn.id);
    for (const item of [...this.open.values()]) {
      if (item.type === 'toolCall') {
        const why = status === 'interrupted' ? 'The turn was interrupted' : `The turn ended (${status})`;
        Object.assign(item.content, { status: 'failed', error: `${why} before the tool finished.` });
        this.completeItem(item, 'failed');
      } else {
        this.completeItem(item, 'completed');
      }
    }
    if (error && status === 'failed') {
      const item = this.startItem('error', error.code === undefined ? { message: error.message } : { ...error });
      this.completeItem(item, 'failed');
    }
    this.turn.status = status;
    this.turn.completedAtMs = this.stoppedAtMs ?? this.env.now();
    if (error) this.turn.error = error;
    if (this.state.persistent) this.env.store?.appendTurn(this.state.id, this.turn);
    this.env.setThreadStatus(this.state.id, 'idle');
    this.state.emit('turn/completed', { turn: this.snapshot() });
    this.env.turnEnded(this);
  }
}
