/**
 * In the daemon, one command backend (Codex, an ACP agent, a `tether`-dialect app-server) per agent, shared by every
 * browser connection, so a turn goes on when the browser that started it goes away. Each connection gets a Backend of
 * its own (SharedCommandClient) over the one process: its requests go out under ids of the backend's, `initialize`
 * reaches the agent once (later connections get the same answer), and a turn's notifications go only to the
 * connections that follow its thread (they started, resumed, forked it, or started or steered a turn on it). What the backend
 * asks of the browser is held for them (HeldRequests). The process stops once no connection is left and no turn runs,
 * or when a browser restarts the backend: every connection then sees it end as it would a crash, and its turns
 * interrupted, and the next start makes a new process. A restart is refused (RestartRefused), with nothing stopped,
 * while a turn runs that the restarting browser does not follow alone (another connection follows its thread, or none
 * does since its browser closed), as the embedded backend's is (daemon/shared-engines.ts).
 */
import { parseJsonPayload } from '@tether/protocol/codec';
import { errorMessage } from '@tether/protocol/errors';
import type { BackendConfig } from '../config/schema';
import type { McpHub } from '../mcp/hub';
import { clientToolsOf } from '../mcp/tools';
import { asRecord, str } from './dialect-core';
import { ReportLimit } from '../report-limit';
import { GARBAGE_REPORT_BURST, garbageLineReport } from './garbage-line';
import { HeldRequests } from './held-requests';
import { RestartRefused } from './restart-refused';
import { SharedCommandClient } from './shared-command-client';
import type { Backend, BackendContext, BackendExit, BackendSink, SharedCommands } from './types';

/** Requests whose answer names the thread the asking connection follows from then on. */
const THREAD_RESULTS = new Set(['thread/start', 'thread/resume', 'thread/fork']);
/** What every connection is told, as the built-in app-server tells them: each History list shows every thread. */
const TOLD_TO_ALL = new Set(['thread/started', 'thread/status/changed', 'thread/archived', 'thread/unarchived']);
/** Requests whose `threadId` the asking connection follows from then on. */
const THREAD_PARAMS = new Set(['turn/start', 'turn/steer', 'turn/interrupt']);

/** Options of SharedCommandBackends. */
export interface SharedCommandOptions {
  readonly log: (line: string) => void;
  /** How long a page-tool call waits for a browser (the daemon's pageToolWaitMs). */
  readonly pageToolWaitMs: number;
  /** The MCP hub agents reach page tools through; it outlives every browser connection. */
  readonly hub: McpHub;
  /** Creates the backend's process itself (backends/factory.ts, with no sharing). */
  readonly create: (id: string, config: BackendConfig, context: BackendContext) => Backend;
  /** The clock garbage-line reports are limited by (default Date.now). */
  readonly now?: () => number;
}

/** The daemon's shared command backends, one per configured agent (id and config). */
export class SharedCommandBackends implements SharedCommands {
  private readonly running = new Map<string, SharedCommand>();

  constructor(private readonly options: SharedCommandOptions) {}

  /** Turns the shared backends run now. */
  get runningTurns(): number {
    return [...this.running.values()].reduce((n, s) => n + s.runningTurns, 0);
  }

  connect(id: string, config: BackendConfig, context: BackendContext): Backend {
    const key = `${id}\n${JSON.stringify(config)}`;
    let shared = this.running.get(key);
    if (!shared || shared.retired) {
      // The process itself: not shared again, logging to the daemon, reaching page tools through the daemon's hub.
      const { sharedCommands: _shared, ...own } = context;
      const backend = this.options.create(id, config, { ...own, mcp: this.options.hub, log: this.options.log });
      const created = new SharedCommand(backend, this.options);
      shared = created;
      this.running.set(key, created);
      void created.gone.then(() => {
        if (this.running.get(key) === created) this.running.delete(key);
      });
    }
    return new SharedCommandClient(shared, context.log);
  }

  /** Stops every shared backend (their running turns end with them). */
  async close(): Promise<void> {
    await Promise.all([...this.running.values()].map((s) => s.stop('the daemon is stopping')));
    await this.options.hub.close();
  }
}

interface PendingUp {
  readonly client: SharedCommandClient;
  readonly id: unknown;
  readonly method: string;
  readonly jsonrpc: unknown;
  /** The request's `threadId` (a turn/start's answer may not name its thread). */
  readonly threadId: string | undefined;
}

/** One backend process and the connections it serves. */
export class SharedCommand {
  readonly held: HeldRequests;
  private readonly garbage: ReportLimit;
  private readonly clients = new Set<SharedCommandClient>();
  private readonly paused = new Set<SharedCommandClient>();
  /** The running turns, each with its thread when known: whom a restart would cut off is who follows it. */
  private readonly turns = new Map<string, string | undefined>();
  private readonly pending = new Map<number, PendingUp>();
  private nextUp = 1;
  private started = false;
  /** Why it was stopped, once it was: what the connections are told when it exits. */
  private stopReason: string | undefined;
  private initialized: unknown;
  private initializing = false;
  private readonly initQueue: Array<{ client: SharedCommandClient; message: Record<string, unknown> }> = [];
  private sentInitialized = false;
  private resolveGone!: () => void;
  /** Settles once the process is gone. */
  readonly gone = new Promise<void>((resolve) => (this.resolveGone = resolve));
  ended = false;

  constructor(
    readonly backend: Backend,
    private readonly options: SharedCommandOptions,
  ) {
    this.garbage = new ReportLimit(GARBAGE_REPORT_BURST, options.now ?? Date.now);
    this.held = new HeldRequests({
      clients: () => [...this.clients].filter((c) => c.ready),
      reply: (id, body) => this.toBackend({ id, ...body }),
      pageToolWaitMs: options.pageToolWaitMs,
      log: (line) => this.log(line),
    });
  }

  /** True once it stops or stopped: a new connection starts another process. */
  get retired(): boolean {
    return this.ended || this.stopReason !== undefined;
  }

  /** Turns running now. */
  get runningTurns(): number {
    return this.turns.size;
  }

  /** A connection starts using the backend (which starts with the first). */
  attach(client: SharedCommandClient): void {
    this.clients.add(client);
    if (this.started) return;
    this.started = true;
    this.backend.start(this.sink());
  }

  /** A connection is done with the backend; the process stops once no connection is left and no turn runs. */
  detach(client: SharedCommandClient): void {
    if (!this.clients.delete(client)) return;
    this.paused.delete(client);
    this.held.dropClient(client);
    const queued = this.initQueue.findIndex((q) => q.client === client);
    if (queued >= 0) this.initQueue.splice(queued, 1);
    this.pauseOutput(client, false);
    if (this.turns.size > 0 && this.clients.size === 0)
      this.log(`no browser is connected; ${this.turns.size} turn(s) go on`);
    this.stopIfUnused();
  }

  /** One connection is (or no longer is) behind: the backend's output waits while any is. */
  pauseOutput(client: SharedCommandClient, paused: boolean): void {
    if (paused) this.paused.add(client);
    else this.paused.delete(client);
    this.backend.pauseOutput(this.paused.size > 0);
  }

  /**
   * Running turns that `client` does not follow alone: another connection follows their thread, or none does (its
   * browser closed), or their thread is unknown.
   */
  runningTurnsBeyond(client: SharedCommandClient): number {
    let n = 0;
    for (const threadId of this.turns.values()) {
      const followers = threadId === undefined ? [] : this.followers(threadId);
      if (followers.length !== 1 || followers[0] !== client) n++;
    }
    return n;
  }

  /**
   * Stops the process for a restart `client` asked for; refused (RestartRefused), with nothing stopped, while turns run
   * that it does not follow alone.
   */
  async restart(client: SharedCommandClient, reason: string): Promise<void> {
    const beyond = this.runningTurnsBeyond(client);
    if (beyond > 0) throw new RestartRefused(this.backend.id, beyond);
    await this.stop(reason);
  }

  /** Stops the process. */
  async stop(reason: string): Promise<void> {
    if (this.ended) return;
    this.stopReason ??= reason;
    this.log(`stopping: ${reason}`);
    await this.backend.stop();
  }

  /** One message from a connection. */
  fromClient(client: SharedCommandClient, payload: Buffer): void {
    let message: Record<string, unknown>;
    try {
      message = asRecord(parseJsonPayload(payload, 'Message'));
    } catch {
      this.backend.send([payload], payload.length); // the backend answers what it cannot read
      return;
    }
    const method = str(message.method);
    const id = message.id;
    if (method === undefined) {
      if (id !== undefined && id !== null)
        this.held.answer(client, id, 'error' in message ? { error: message.error } : { result: message.result });
      return;
    }
    if (id === undefined || id === null) {
      // Every connection says `initialized`; the agent hears it once.
      if (method === 'initialized' && this.sentInitialized) return;
      if (method === 'initialized') this.sentInitialized = true;
      this.backend.send([payload], payload.length);
      return;
    }
    if (method === 'initialize') {
      this.initialize(client, message);
      return;
    }
    const threadId = str(asRecord(message.params).threadId);
    if (THREAD_PARAMS.has(method) && threadId !== undefined) client.follow(threadId);
    if (method === 'thread/unsubscribe' && threadId !== undefined) client.unfollow(threadId);
    this.forward(client, method, message, threadId);
  }

  private initialize(client: SharedCommandClient, message: Record<string, unknown>): void {
    // The agent's MCP server offers the client tools the connections declare (the extension's, the same on each).
    const tools = clientToolsOf(message);
    if (tools.length > 0) this.options.hub.setClientTools(tools);
    if (this.initialized !== undefined) {
      client.deliver({ ...jsonrpcOf(message.jsonrpc), id: message.id, result: this.initialized });
      client.ready = true;
      this.held.changed();
      return;
    }
    if (this.initializing) {
      this.initQueue.push({ client, message });
      return;
    }
    this.initializing = true;
    this.forward(client, 'initialize', message);
  }

  private initializeAnswered(client: SharedCommandClient, result: unknown): void {
    this.initializing = false;
    if (result !== undefined) {
      this.initialized = result;
      client.ready = true;
    }
    const queued = this.initQueue.splice(0);
    for (const q of queued) this.initialize(q.client, q.message);
    this.held.changed();
  }

  private forward(
    client: SharedCommandClient,
    method: string,
    message: Record<string, unknown>,
    threadId?: string,
  ): void {
    const up = this.nextUp++;
    this.pending.set(up, { client, id: message.id, method, jsonrpc: message.jsonrpc, threadId });
    this.toBackend({ ...message, id: up });
  }

  private toBackend(message: Record<string, unknown>): void {
    const bytes = Buffer.from(JSON.stringify(message));
    this.backend.send([bytes], bytes.length);
  }

  private sink(): BackendSink {
    return {
      message: (chunk, start, end) => this.fromBackend(chunk.subarray(start, end)),
      messageParts: (parts, length) => this.fromBackend(Buffer.concat(parts, length)),
      problem: (message) => {
        for (const c of this.clients) c.sink?.problem(message);
      },
      inputPressure: (high) => {
        for (const c of this.clients) c.sink?.inputPressure(high);
      },
      exit: (info) => this.exited(info),
    };
  }

  private fromBackend(payload: Buffer): void {
    let parsed: unknown;
    try {
      parsed = parseJsonPayload(payload, 'Message');
    } catch {
      const held = this.garbage.admit();
      if (held === undefined) return;
      const report = garbageLineReport(this.backend.id, payload, held);
      for (const c of this.clients) c.sink?.problem(report);
      return;
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const one of messages) this.routeFromBackend(asRecord(one), messages.length === 1 ? payload : undefined);
  }

  private routeFromBackend(message: Record<string, unknown>, bytes: Buffer | undefined): void {
    const method = str(message.method);
    const hasId = message.id !== undefined && message.id !== null;
    if (method === undefined) {
      if (hasId) this.answered(message);
      return;
    }
    if (hasId) this.held.add(message.id, method, message);
    else this.notified(method, message, bytes ?? Buffer.from(JSON.stringify(message)));
  }

  private answered(message: Record<string, unknown>): void {
    const up = typeof message.id === 'number' ? message.id : undefined;
    const pending = up === undefined ? undefined : this.pending.get(up);
    if (up === undefined || !pending) return;
    this.pending.delete(up);
    const { client } = pending;
    const result = 'result' in message ? message.result : undefined;
    if (pending.method === 'initialize') this.initializeAnswered(client, result);
    // A turn runs from its answer on (turn/started may come later): a browser leaving meanwhile must not stop it.
    const turn = asRecord(asRecord(result).turn);
    if (pending.method === 'turn/start' && turn.status === 'running' && typeof turn.id === 'string')
      this.turns.set(turn.id, str(turn.threadId) ?? pending.threadId);
    const threadId = str(asRecord(asRecord(result).thread).id);
    if (THREAD_RESULTS.has(pending.method) && threadId !== undefined) client.follow(threadId);
    if (this.clients.has(client)) client.deliver({ ...message, ...jsonrpcOf(pending.jsonrpc), id: pending.id });
    else this.stopIfUnused();
  }

  private notified(method: string, message: Record<string, unknown>, bytes: Buffer): void {
    const p = asRecord(message.params);
    const turn = asRecord(p.turn);
    const threadId = str(p.threadId) ?? str(asRecord(p.thread).id) ?? str(turn.threadId);
    const turnId = str(turn.id) ?? str(p.turnId);
    if (method === 'turn/started' && turnId !== undefined) this.turns.set(turnId, threadId ?? this.turns.get(turnId));
    else if (method === 'turn/completed' && turnId !== undefined) {
      this.turns.delete(turnId);
      this.held.withdraw((_m, params) => params.threadId === threadId && params.turnId === turnId);
    } else if (method === 'approval/resolved')
      this.held.withdraw((m, params) => m === 'approval/request' && params.requestId === p.requestId);
    else if (method === 'item/tool/call/cancelled')
      this.held.withdraw((m, params) => m === 'item/tool/call' && params.callId === p.callId);
    for (const client of this.audience(method, threadId)) client.sink?.message(bytes, 0, bytes.length);
    if (method === 'turn/completed') this.stopIfUnused();
  }

  /** Who gets a notification: everyone for what a History list shows, else the followers of its thread. */
  private audience(method: string, threadId: string | undefined): SharedCommandClient[] {
    if (threadId === undefined || TOLD_TO_ALL.has(method)) return [...this.clients];
    return this.followers(threadId);
  }

  /** The connections that follow the thread. */
  private followers(threadId: string): SharedCommandClient[] {
    return [...this.clients].filter((c) => c.follows(threadId));
  }

  private stopIfUnused(): void {
    if (this.clients.size > 0 || this.turns.size > 0 || this.held.size > 0 || this.pending.size > 0) return;
    if (this.retired) return;
    void this.stop('no browser is connected and no turn runs').catch((error: unknown) =>
      this.log(`stopping failed: ${errorMessage(error)}`),
    );
  }

  private exited(info: BackendExit): void {
    this.ended = true;
    this.turns.clear();
    this.held.clear();
    // The connections that did not stop it learn why it ended, as they would of a crash (their turns ended with it).
    const told =
      this.stopReason === undefined ? info : { ...info, message: `${info.message} (stopped: ${this.stopReason})` };
    for (const c of [...this.clients]) c.sink?.exit(told);
    this.clients.clear();
    this.resolveGone();
  }

  private log(line: string): void {
    this.options.log(`backend ${this.backend.id}: ${line}`);
  }
}

function jsonrpcOf(value: unknown): { jsonrpc?: unknown } {
  return value === undefined ? {} : { jsonrpc: value };
}
