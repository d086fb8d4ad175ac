/**
 * One client connection to the app-server: the `initialize` gate, one table of handlers (one row per client request
 * of the protocol table), notification filtering (`initialized`, `optOutNotificationMethods`, per-thread holds) and
 * server requests. The shared AppServer engine does the work.
 */
import {
  Connection,
  ErrorCode,
  PROTOCOL_VERSION,
  RpcError,
  serverInbound,
  serverNotifications,
  serverRequests,
  CLIENT_REQUEST_METHODS,
  type ClientRequestMethod,
  type ClientRequestParams,
  type ClientRequestResult,
  type ClientTool,
  type MessageTransport,
  type RequestContext,
  type ServerNotificationMethod,
  type ServerNotificationParams,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
} from '@tether/protocol';
import { TETHER_VERSION } from '../version';
import type { AppServer } from './app-server';
import type { Peer } from './peer';
import { exportProtocolSchema } from './schema-export';
import { builtinTool } from './tools/builtin';

/** A client connection served by the app-server. */
export interface AppServerSession {
  /** Settles when the connection has closed. */
  readonly closed: Promise<void>;
  /** Closes the connection (running turns go on; their threads can be resumed). */
  close(): Promise<void>;
}

/** Server identity sent in the initialize answer. */
export const SERVER_NAME = 'tether-app-server';

/** Notifications kept before `initialized` arrives; past this, they are dropped (and logged once). */
const MAX_EARLY_NOTIFICATIONS = 1000;

type Handlers = {
  [M in ClientRequestMethod]: (
    params: ClientRequestParams<M>,
    ctx: RequestContext,
  ) => ClientRequestResult<M> | Promise<ClientRequestResult<M>>;
};

type Outbound = { requests: typeof serverRequests; notifications: typeof serverNotifications };

let nextSessionId = 1;

/** Serves one connection against a shared engine. */
export class Session implements Peer, AppServerSession {
  readonly id = nextSessionId++;
  readonly closed: Promise<void>;
  private readonly connection: Connection<typeof serverInbound, Outbound>;
  private initializedRequest = false;
  private ready = false;
  private optOut = new Set<string>();
  private tools: readonly ClientTool[] = [];
  private early: [string, unknown][] = [];
  private droppedEarly = 0;
  private readonly holds = new Map<string, { depth: number; queue: [string, unknown][] }>();

  constructor(
    private readonly server: AppServer,
    private readonly transport: MessageTransport,
    private readonly log: (line: string) => void,
    options: { jsonrpc?: boolean } = {},
  ) {
    this.connection = new Connection<typeof serverInbound, Outbound>(transport, {
      inbound: serverInbound,
      outbound: { requests: serverRequests, notifications: serverNotifications },
      jsonrpc: options.jsonrpc ?? false,
      log: (line) => log(`client ${this.id}: ${line}`),
    });
    const handlers = this.handlers();
    for (const method of CLIENT_REQUEST_METHODS) {
      const handler = handlers[method] as (params: unknown, ctx: RequestContext) => unknown;
      this.connection.onRequest(method as string, (params: unknown, ctx: RequestContext) => {
        this.gate(method);
        return handler(params, ctx);
      });
    }
    this.connection.setFallbackRequestHandler((method) => {
      if (!this.initializedRequest) throw RpcError.notInitialized();
      throw RpcError.methodNotFound(method);
    });
    this.connection.onNotification('initialized', () => this.markReady());
    server.addPeer(this);
    this.closed = this.connection.closed.then(() => {
      this.server.removePeer(this);
    });
  }

  get clientTools(): readonly ClientTool[] {
    return this.tools;
  }

  get isOpen(): boolean {
    return !this.connection.isClosed;
  }

  async close(): Promise<void> {
    this.connection.close();
    await this.closed;
  }

  notify<M extends ServerNotificationMethod>(method: M, params: ServerNotificationParams<M>, threadId?: string): void {
    if (this.optOut.has(method)) return;
    const hold = threadId === undefined ? undefined : this.holds.get(threadId);
    if (hold) hold.queue.push([method, params]);
    else this.send(method, params);
  }

  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerRequestParams<M>,
    signal: AbortSignal,
  ): Promise<ServerRequestResult<M>> {
    return this.connection.request(method, params as never, { signal }) as Promise<ServerRequestResult<M>>;
  }

  flushed(): Promise<void> {
    // Stream transports (stdio) can say when their queue has drained; in-memory ones deliver without a queue.
    const t = this.transport as MessageTransport & { flushed?: () => Promise<void> };
    return typeof t.flushed === 'function' && !this.connection.isClosed ? t.flushed() : Promise.resolve();
  }

  hold(threadId: string): () => void {
    const hold = this.holds.get(threadId) ?? { depth: 0, queue: [] };
    hold.depth++;
    this.holds.set(threadId, hold);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--hold.depth > 0) return;
      this.holds.delete(threadId);
      for (const [method, params] of hold.queue) this.send(method, params);
    };
  }

  private send(method: string, params: unknown): void {
    if (!this.ready) {
      if (this.early.length < MAX_EARLY_NOTIFICATIONS) this.early.push([method, params]);
      else if (this.droppedEarly++ === 0) this.log(`client ${this.id}: no "initialized" yet; dropping notifications`);
      return;
    }
    if (this.connection.isClosed) return;
    this.connection.notify(method as never, params as never);
  }

  private markReady(): void {
    if (this.ready || !this.initializedRequest) return;
    this.ready = true;
    const early = this.early;
    this.early = [];
    for (const [method, params] of early) this.send(method, params);
  }

  /** -32010 before initialize, -32011 for a second initialize. */
  private gate(method: ClientRequestMethod): void {
    if (method === 'initialize') {
      if (this.initializedRequest) throw RpcError.alreadyInitialized();
    } else if (!this.initializedRequest) {
      throw RpcError.notInitialized();
    }
  }

  private handlers(): Handlers {
    const s = this.server;
    return {
      initialize: (p) => this.initialize(p),
      'thread/start': (p) => s.startThread(this, p),
      'thread/read': (p) => s.readThread(p),
      'thread/resume': (p) => s.resumeThread(this, p),
      'thread/history/read': (p) => s.readHistory(p),
      'thread/list': (p) => s.listThreads(p),
      'thread/archive': (p) => s.archiveThread(p),
      'thread/unarchive': (p) => s.unarchiveThread(p),
      'thread/fork': (p) => s.forkThread(this, p),
      'thread/unsubscribe': (p) => s.unsubscribe(this, p),
      'turn/start': (p) => s.startTurn(this, p),
      'turn/interrupt': (p) => s.interruptTurn(p),
      'turn/steer': (p) => s.steerTurn(p),
      'approval/resolve': (p) => s.resolveApproval(p),
      'schema/export': () => exportProtocolSchema(),
      'model/list': async () => ({ models: await s.models.list() }),
    };
  }

  private initialize(params: ClientRequestParams<'initialize'>): ClientRequestResult<'initialize'> {
    this.initializedRequest = true;
    this.optOut = new Set(params.capabilities?.optOutNotificationMethods ?? []);
    this.tools = params.capabilities?.clientTools ?? [];
    const names = new Set<string>();
    for (const tool of this.tools) {
      if (builtinTool(tool.name)) {
        this.initializedRequest = false;
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params for initialize: client tool "${tool.name}" has the name of a built-in tool; rename it`, {
          tool: tool.name,
        });
      }
      if (names.has(tool.name)) {
        this.initializedRequest = false;
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params for initialize: client tool "${tool.name}" is declared twice`, {
          tool: tool.name,
        });
      }
      names.add(tool.name);
    }
    this.log(`client ${this.id}: ${params.clientInfo.name} ${params.clientInfo.version} initialized with ${this.tools.length} client tool(s)`);
    return {
      serverInfo: { name: SERVER_NAME, version: TETHER_VERSION },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
      capabilities: {
        thread: true,
        turn: true,
        itemStream: true,
        approvalRequests: true,
        eventReplay: true,
        schemaExport: true,
        steer: true,
        fork: true,
        archive: true,
        modelList: true,
        clientTools: true,
      },
    };
  }
}
