/**
 * The app-server engine: threads, turns, approvals and persistence, shared by every connected client. Sessions
 * (one per connection) call these methods from their request handlers; what must follow an answer (its
 * notifications, the turn it starts) is given to the request's `afterAnswer`, which runs right after the answer is
 * written.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  ErrorCode,
  RpcError,
  type ClientRequestParams as P,
  type ClientRequestResult as R,
  type Item,
  type ServerNotificationMethod,
  type ServerNotificationParams,
  type Thread,
  type ThreadStatus,
} from '@tether/protocol';
import { Approvals } from '../session/approvals';
import { createIdFactory } from './ids';
import { resolveOpenAiConfig } from './models/openai-config';
import { ModelRegistry } from './models/registry';
import { SCRIPTED_MODEL_ID } from './models/scripted';
import type { AppServerOptions, IdKind } from './options';
import type { Peer } from './peer';
import { DEFAULT_PAGE_BUDGET } from '../store/history-page';
import { openThreadStore, SERVER_STOPPED, type ThreadStore } from '../store/thread-store';
import { DEFAULT_TITLE, listThreads, previewLine, titleFrom } from './thread-list';
import { ThreadHistory, unfinishedOf } from './thread-history';
import { ThreadTable } from './thread-table';
import { TurnRun, type TurnEnv } from './turn-run';

/** Runs `fn` right after the current request's answer is written (the connection's RequestContext.afterAnswer). */
export type AfterAnswer = (fn: () => void) => void;

/** The shared engine behind every session. */
export class AppServer {
  private readonly store: ThreadStore | undefined;
  private readonly threads: ThreadTable;
  private readonly peers = new Set<Peer>();
  private readonly approvals: Approvals;
  readonly models: ModelRegistry;
  private readonly env: TurnEnv;
  private readonly now: () => number;
  private readonly newId: (kind: IdKind) => string;
  private readonly log: (line: string) => void;
  private readonly cwd: string;
  private readonly maxRunningTurns: number;
  private readonly history: ThreadHistory;
  private running = 0;
  private closed = false;

  constructor(options: AppServerOptions) {
    const config = options.config ?? {};
    this.log = options.log ?? (() => undefined);
    this.now = config.now ?? Date.now;
    this.newId = config.newId ?? createIdFactory();
    this.cwd = config.cwd ?? safeCwd();
    this.maxRunningTurns = config.maxRunningTurns ?? 256;
    this.store = options.dataDir === null ? undefined : openThreadStore(options.dataDir, this.log, this.now);
    this.threads = new ThreadTable(this.store);
    this.history = new ThreadHistory(this.store, config.historyPage ?? DEFAULT_PAGE_BUDGET);
    const openai = resolveOpenAiConfig(config.openai, config.env ?? process.env);
    this.models = new ModelRegistry(options.model ?? SCRIPTED_MODEL_ID, openai, this.log);
    this.approvals = new Approvals((params, decision) => {
      const { threadId, turnId, requestId } = params;
      this.threads.hotState(threadId)?.emit('approval/resolved', { threadId, turnId, requestId, decision });
    }, this.log);
    this.env = {
      now: this.now,
      newId: this.newId,
      log: this.log,
      approvals: this.approvals,
      store: this.store,
      bashTimeoutMs: config.bashTimeoutMs ?? 120_000,
      setThreadStatus: (threadId, status) => this.setThreadStatus(threadId, status),
      turnEnded: (run) => this.turnEnded(run),
    };
  }

  /** Turns running now. */
  get runningTurns(): number {
    return this.running;
  }

  /** Running turns that `peer` does not follow alone: another connection follows their thread, or none does. */
  runningTurnsBeyond(peer: Peer): number {
    return this.threads.runningTurnsBeyond(peer);
  }

  /** Registers a connected client. */
  addPeer(peer: Peer): void {
    this.peers.add(peer);
  }

  /** Forgets a client that disconnected: its subscriptions end; its turns keep running. */
  removePeer(peer: Peer): void {
    this.peers.delete(peer);
    this.approvals.dropPeer(peer);
    for (const state of [...this.threads.hotStates()]) {
      state.subscribers.delete(peer);
      this.threads.cool(state);
    }
  }

  /** `thread/start`: creates the thread (journal unless ephemeral), subscribes `peer`; `thread/started` follows. */
  startThread(peer: Peer, params: P<'thread/start'>, afterAnswer: AfterAnswer): R<'thread/start'> {
    const now = this.now();
    const ephemeral = params.ephemeral ?? false;
    const thread: Thread = {
      id: this.newId('thread'),
      title: params.title ?? DEFAULT_TITLE,
      model: params.model ?? this.models.defaultModel,
      status: 'idle',
      archived: false,
      ephemeral,
      createdAtMs: now,
      updatedAtMs: now,
      cwd: params.cwd === undefined ? this.cwd : resolve(this.cwd, params.cwd),
    };
    this.threads.create(thread, []).subscribers.add(peer);
    afterAnswer(() => this.broadcast('thread/started', { thread }, thread.id));
    return { thread };
  }

  /**
   * `thread/read`: metadata and the latest page of items (the running turn's items in progress last), or every item
   * after `afterItemId` (-32602 when the thread has no such item).
   */
  readThread(params: P<'thread/read'>): R<'thread/read'> {
    const thread = this.threads.meta(params.threadId);
    return this.history.read(thread, this.threads.hotState(thread.id), params.afterItemId);
  }

  /** `thread/history/read`: the page of completed items before the cursor (-32602 for a cursor not of this thread). */
  readHistory(params: P<'thread/history/read'>): R<'thread/history/read'> {
    this.threads.meta(params.threadId);
    const page = this.history.page(params.threadId, this.threads.hotState(params.threadId), params.cursor);
    return { items: page.items, olderCursor: page.olderCursor, ...unfinishedOf(page.unfinishedTurns) };
  }

  /**
   * `thread/resume`: a snapshot (or, with `afterItemId`, what came after that item) plus the active turn; subscribes
   * `peer` and re-sends pending approvals after the answer.
   */
  resumeThread(peer: Peer, params: P<'thread/resume'>, afterAnswer: AfterAnswer): R<'thread/resume'> {
    const read = this.readThread({
      threadId: params.threadId,
      ...(params.afterItemId === undefined ? {} : { afterItemId: params.afterItemId }),
    });
    const { thread, items, olderCursor, unfinishedTurns } = read;
    const id = thread.id;
    const run = this.threads.hotState(id)?.turn;
    const activeTurn = run && !run.isFinished ? run.snapshot() : undefined;
    if (params.subscribe !== false) {
      const state = this.threads.ensureHot(id);
      // Notifications produced after the snapshot wait until the answer is out: nothing lost, nothing repeated.
      const release = peer.hold(id);
      state.subscribers.add(peer);
      afterAnswer(() => {
        release();
        for (const approval of this.approvals.forThread(id)) {
          if (approval.asked.has(peer)) continue;
          peer.notify('approval/requested', approval.params, id);
          this.approvals.ask(approval.params.requestId, peer);
        }
      });
    }
    return {
      thread,
      items,
      ...(activeTurn ? { activeTurn } : {}),
      ...(olderCursor ? { olderCursor } : {}),
      ...unfinishedOf(unfinishedTurns),
    };
  }

  /** `thread/list`: one page, newest first, from the index only. */
  listThreads(params: P<'thread/list'>): R<'thread/list'> {
    return listThreads(this.threads.all(), params);
  }

  /** `thread/archive`: interrupts a running turn, archives; `thread/archived` follows. */
  archiveThread(params: P<'thread/archive'>, afterAnswer: AfterAnswer): R<'thread/archive'> {
    return this.setArchived(params.threadId, true, afterAnswer);
  }

  /** `thread/unarchive`; `thread/unarchived` follows. */
  unarchiveThread(params: P<'thread/unarchive'>, afterAnswer: AfterAnswer): R<'thread/unarchive'> {
    return this.setArchived(params.threadId, false, afterAnswer);
  }

  /** `thread/fork`: a new thread with the completed items up to `afterItemId` (all when absent). */
  forkThread(peer: Peer, params: P<'thread/fork'>, afterAnswer: AfterAnswer): R<'thread/fork'> {
    const source = this.threads.meta(params.threadId);
    let items = this.history.all(source.id, this.threads.hotState(source.id));
    if (params.afterItemId !== undefined) items = items.slice(0, indexOfItem(items, params.afterItemId, source.id) + 1);
    const now = this.now();
    const thread: Thread = {
      ...source,
      id: this.newId('thread'),
      title: params.title ?? `${source.title} (fork)`,
      status: 'idle',
      archived: false,
      createdAtMs: now,
      updatedAtMs: now,
    };
    this.threads.create(thread, items).subscribers.add(peer);
    afterAnswer(() => this.broadcast('thread/started', { thread }, thread.id));
    return { thread };
  }

  /** `thread/unsubscribe`: `peer` stops receiving the thread's notifications. */
  unsubscribe(peer: Peer, params: P<'thread/unsubscribe'>): R<'thread/unsubscribe'> {
    this.threads.meta(params.threadId);
    const state = this.threads.hotState(params.threadId);
    if (state) {
      state.subscribers.delete(peer);
      this.threads.cool(state);
    }
    return {};
  }

  /** `turn/start`: answers with the running turn; the model starts after the answer (-32020/-32021/-32022/-32001). */
  startTurn(peer: Peer, params: P<'turn/start'>, afterAnswer: AfterAnswer): R<'turn/start'> {
    const thread = this.threads.meta(params.threadId);
    if (thread.archived) throw RpcError.threadArchived(thread.id);
    const state = this.threads.ensureHot(thread.id);
    if (state.turn) throw RpcError.threadBusy(thread.id, state.turn.turn.id);
    if (this.closed || this.running >= this.maxRunningTurns) {
      throw new RpcError(
        ErrorCode.Overloaded,
        `Overloaded: ${this.running} turns are running (limit ${this.maxRunningTurns}); retry when one ends`,
        { running: this.running, limit: this.maxRunningTurns },
      );
    }
    const history = this.history.loadTail(state);
    const modelName = params.model ?? thread.model;
    const resolved = this.models.resolve(modelName);
    const text = params.input.map((i) => i.text).join('\n');
    const title = thread.title === DEFAULT_TITLE && history.length === 0 ? titleFrom(text) : thread.title;
    const turn = {
      id: this.newId('turn'),
      threadId: thread.id,
      status: 'running' as const,
      input: params.input,
      startedAtMs: this.now(),
    };
    const preview = previewLine(text) ?? thread.preview;
    this.threads.save({
      ...thread,
      title,
      model: modelName,
      updatedAtMs: turn.startedAtMs,
      ...(preview ? { preview } : {}),
    });
    if (state.persistent) this.store!.appendTurn(thread.id, turn);
    state.subscribers.add(peer);
    const run =
      resolved instanceof Error
        ? new TurnRun(this.env, state, turn, modelName, resolved, peer, thread.cwd ?? this.cwd)
        : new TurnRun(this.env, state, turn, resolved.id, resolved.model, peer, thread.cwd ?? this.cwd);
    state.turn = run;
    this.running++;
    afterAnswer(() => run.start());
    return { turn: run.snapshot() };
  }

  /** `turn/interrupt`: stops the turn now and answers it as `interrupted`; its final notifications follow the answer. */
  interruptTurn(params: P<'turn/interrupt'>, afterAnswer: AfterAnswer): R<'turn/interrupt'> {
    const run = this.activeRun(params.threadId, params.turnId);
    const turn = run.requestInterrupt();
    afterAnswer(() => run.finishInterrupted());
    return { turn };
  }

  /** `turn/steer`: queues input for the running turn's next model step (-32030/-32031). */
  steerTurn(params: P<'turn/steer'>): R<'turn/steer'> {
    const run = this.activeRun(params.threadId, params.expectedTurnId);
    run.steer(params.input.map((i) => i.text).join('\n'));
    return { threadId: params.threadId, turnId: run.turn.id, queued: true };
  }

  /** `approval/resolve`: decides a pending approval (-32040 when unknown or already decided). */
  resolveApproval(params: P<'approval/resolve'>): R<'approval/resolve'> {
    this.threads.meta(params.threadId);
    this.approvals.resolve(params, params.decision);
    return {};
  }

  /** Interrupts every running turn (journaling their end) and closes the store. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const state of this.threads.hotStates()) {
      if (!state.turn) continue;
      state.turn.requestInterrupt();
      // Journaled with the turn: whoever reopens the thread learns why its answer stops short.
      state.turn.finishInterrupted({ message: SERVER_STOPPED });
    }
    this.store?.close();
  }

  private activeRun(threadId: string, turnId: string): TurnRun {
    this.threads.meta(threadId);
    const run = this.threads.hotState(threadId)?.turn;
    if (!run || run.isFinished) throw RpcError.noActiveTurn(threadId);
    if (run.turn.id !== turnId) throw RpcError.turnMismatch(threadId, turnId, run.turn.id);
    return run;
  }

  private setArchived(threadId: string, archived: boolean, afterAnswer: AfterAnswer): R<'thread/archive'> {
    const current = this.threads.meta(threadId);
    if (current.archived === archived) return { thread: current };
    const run = this.threads.hotState(threadId)?.turn;
    if (archived && run) {
      run.requestInterrupt();
      run.finishInterrupted();
    }
    const thread = { ...this.threads.meta(threadId), archived, updatedAtMs: this.now() };
    this.threads.save(thread);
    afterAnswer(() => this.broadcast(archived ? 'thread/archived' : 'thread/unarchived', { threadId }, threadId));
    return { thread };
  }

  private setThreadStatus(threadId: string, status: ThreadStatus): void {
    const thread = this.threads.meta(threadId);
    if (thread.status === status) return;
    this.threads.save({ ...thread, status, updatedAtMs: this.now() });
    this.broadcast('thread/status/changed', { threadId, status }, threadId);
  }

  private turnEnded(run: TurnRun): void {
    this.running--;
    const state = this.threads.hotState(run.turn.threadId);
    if (!state || state.turn !== run) return;
    state.turn = undefined;
    this.threads.savePreview(state, run.turn.id);
    if (state.persistent) {
      this.history.trimTail(state);
      this.store?.release(state.id);
    }
    this.threads.cool(state);
  }

  private broadcast<M extends ServerNotificationMethod>(
    method: M,
    params: ServerNotificationParams<M>,
    threadId: string,
  ): void {
    for (const peer of this.peers) peer.notify(method, params, threadId);
  }
}

function indexOfItem(items: readonly Item[], itemId: string, threadId: string): number {
  const index = items.findIndex((i) => i.id === itemId);
  if (index < 0) {
    throw RpcError.itemNotFound(threadId, itemId);
  }
  return index;
}

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return homedir();
  }
}
