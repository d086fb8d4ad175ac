/**
 * One client connection to the app-server: one table of handlers (one row per client request of the protocol table)
 * behind the shared session gate (`initialize`, `initialized`, opt-outs, per-thread holds), and server requests. The
 * shared AppServer engine does the work.
 */
import {
  Connection,
  ErrorCode,
  PROTOCOL_VERSION,
  RpcError,
  serverInbound,
  serverNotifications,
  serverRequests,
  type ClientRequestParams,
  type ClientRequestResult,
  type ClientTool,
  type MessageTransport,
  type ServerNotificationMethod,
  type ServerNotificationParams,
  type ServerRequestMethod,
  type ServerRequestParams,
  type ServerRequestResult,
} from '@tether/protocol';
import { capabilitiesOf } from '../session/capabilities';
import { type Handlers, SessionGate } from '../session/gate';
import { TETHER_VERSION } from '../version';
import type { AppServer } from './app-server';
import { ClientWaits, type EngineClients } from './client-wait';
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

type Outbound = { requests: typeof serverRequests; notifications: typeof serverNotifications };

let nextSessionId = 1;

/** Serves one connection against a shared engine. */
export class Session implements Peer, AppServerSession {
  readonly id = nextSessionId++;
  readonly closed: Promise<void>;
  private readonly connection: Connection<typeof serverInbound, Outbound>;
  private readonly gate: SessionGate;
  private readonly handlers: Required<Handlers>;
  private tools: readonly ClientTool[] = [];
  readonly group: string | undefined;
  private readonly clients: EngineClients;

  constructor(
    private readonly server: AppServer,
    private readonly transport: MessageTransport,
    private readonly log: (line: string) => void,
    options: { jsonrpc?: boolean; group?: string; clients?: EngineClients } = {},
  ) {
    this.group = options.group;
    this.clients = options.clients ?? { open: [this], waits: new ClientWaits(), waitMs: 0 };
    this.connection = new Connection<typeof serverInbound, Outbound>(transport, {
      inbound: serverInbound,
      outbound: { requests: serverRequests, notifications: serverNotifications },
      jsonrpc: options.jsonrpc ?? false,
      log: (line) => log(`client ${this.id}: ${line}`),
    });
    this.gate = new SessionGate({
      send: (method, params) => {
        if (!this.connection.isClosed) this.connection.notify(method, params);
      },
      // Every client request has a handler here; a -32013 would be a bug in this table.
      unsupported: (method) => RpcError.unsupported(method, SERVER_NAME),
      log: (line) => log(`client ${this.id}: ${line}`),
    });
    this.handlers = this.table();
    this.gate.serve(this.connection, this.handlers);
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
    this.gate.notify(method, params, threadId);
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
    return this.gate.hold(threadId);
  }

  waitForClient(find: (clients: Iterable<Peer>) => Peer | undefined, signal: AbortSignal): Promise<Peer | undefined> {
    const { open, waits, waitMs } = this.clients;
    return waits.wait(() => find(open), waitMs, signal);
  }

  private table(): Required<Handlers> {
    const s = this.server;
    return {
      initialize: (p, ctx) => {
        const result = this.initialize(p);
        // A browser that came back: a page-tool call waiting for one can go to it.
        ctx.afterAnswer(() => this.clients.waits.changed());
        return result;
      },
      'thread/start': (p, ctx) => s.startThread(this, p, ctx.afterAnswer),
      'thread/read': (p) => s.readThread(p),
      'thread/resume': (p, ctx) => {
        const result = s.resumeThread(this, p, ctx.afterAnswer);
        ctx.afterAnswer(() => this.clients.waits.changed());
        return result;
      },
      'thread/history/read': (p) => s.readHistory(p),
      'thread/list': (p) => s.listThreads(p),
      'thread/archive': (p, ctx) => s.archiveThread(p, ctx.afterAnswer),
      'thread/unarchive': (p, ctx) => s.unarchiveThread(p, ctx.afterAnswer),
      'thread/fork': (p, ctx) => s.forkThread(this, p, ctx.afterAnswer),
      'thread/unsubscribe': (p) => s.unsubscribe(this, p),
      'turn/start': (p, ctx) => s.startTurn(this, p, ctx.afterAnswer),
      'turn/interrupt': (p, ctx) => s.interruptTurn(p, ctx.afterAnswer),
      'turn/steer': (p) => s.steerTurn(p),
      'approval/resolve': (p) => s.resolveApproval(p),
      'schema/export': () => exportProtocolSchema(),
      'model/list': async () => ({ models: await s.models.list() }),
    };
  }

  private initialize(params: ClientRequestParams<'initialize'>): ClientRequestResult<'initialize'> {
    const tools = params.capabilities?.clientTools ?? [];
    const names = new Set<string>();
    for (const tool of tools) {
      if (builtinTool(tool.name)) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for initialize: client tool "${tool.name}" has the name of a built-in tool; rename it`,
          {
            tool: tool.name,
          },
        );
      }
      if (names.has(tool.name)) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for initialize: client tool "${tool.name}" is declared twice`,
          {
            tool: tool.name,
          },
        );
      }
      names.add(tool.name);
    }
    this.tools = tools;
    this.log(
      `client ${this.id}: ${params.clientInfo.name} ${params.clientInfo.version} initialized with ${this.tools.length} client tool(s)`,
    );
    return {
      serverInfo: { name: SERVER_NAME, version: TETHER_VERSION },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
      capabilities: capabilitiesOf(Object.keys(this.handlers), { approvalRequests: true, clientTools: true }),
    };
  }
}
