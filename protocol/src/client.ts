/**
 * AppServerClient: a typed client of the app-server protocol (and of the native host's bridge methods) on top of a
 * Connection. Results are parsed with their schemas here, because whatever answers may be any process.
 */
import type { z } from 'zod';
import { Connection, hostClientInbound, type hostServerInbound, parseResult } from './connection';
import type {
  ConnectionOptions,
  RequestHandlers,
  NotificationHandlers,
  RequestOptions,
  Side,
} from './connection-types';
import { hostRequests, type HostRequests } from './methods';
import type { MessageTransport } from './transport';

/** What a client receives: server requests, server notifications and the bridge's notifications. */
export type ClientInbound = typeof hostClientInbound;
/** What a client sends: client requests, bridge requests and client notifications. */
export type ClientOutbound = typeof hostServerInbound;

type Method = keyof HostRequests;
type Params<M extends Method> = z.input<HostRequests[M]['params']>;
type Result<M extends Method> = z.output<HostRequests[M]['result']>;
type InboundRequest = keyof ClientInbound['requests'] & string;
type InboundNotification = keyof ClientInbound['notifications'] & string;

/** Options of initialize beyond the request's own. */
export interface InitializeOptions extends RequestOptions {
  /** Send the `initialized` notification after the answer (default true). */
  sendInitialized?: boolean;
}

/** Options when the client builds its own Connection. */
export type AppServerClientOptions = Omit<ConnectionOptions<ClientInbound, Side>, 'inbound' | 'outbound'>;

/** A typed app-server client; construct it from a transport, or from a Connection you configured yourself. */
export class AppServerClient {
  /** The underlying connection (for untyped or future methods). */
  readonly connection: Connection<ClientInbound, ClientOutbound>;

  /**
   * From a transport (the client builds a Connection validating with hostClientInbound), or from a Connection you
   * configured (give it `inbound: hostClientInbound` or `clientInbound` so handlers receive validated params).
   */
  constructor(transport: MessageTransport | Connection<Side, Side>, options: AppServerClientOptions = {}) {
    this.connection = (
      transport instanceof Connection
        ? transport
        : new Connection(transport, { ...options, inbound: hostClientInbound })
    ) as Connection<ClientInbound, ClientOutbound>;
  }

  /** Settles when the connection closes (with the transport's error, if any). */
  get closed(): Promise<Error | undefined> {
    return this.connection.closed;
  }

  /** True once the connection is closed. */
  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  /** `initialize`, then the `initialized` notification unless `sendInitialized` is false. */
  async initialize(params: Params<'initialize'>, opts: InitializeOptions = {}): Promise<Result<'initialize'>> {
    const { sendInitialized = true, ...requestOpts } = opts;
    const result = await this.call('initialize', params, requestOpts);
    if (sendInitialized) this.connection.notify('initialized');
    return result;
  }

  /** `thread/start`: a new thread (`thread/started` follows). */
  threadStart(params: Params<'thread/start'> = {}, opts?: RequestOptions): Promise<Result<'thread/start'>> {
    return this.call('thread/start', params, opts);
  }
  /** `thread/read`: a thread and the latest page of its items (or those after `afterItemId`). */
  threadRead(params: Params<'thread/read'>, opts?: RequestOptions): Promise<Result<'thread/read'>> {
    return this.call('thread/read', params, opts);
  }
  /** `thread/resume`: a thread, its latest page of items and its running turn; subscribes to its notifications by default. */
  threadResume(params: Params<'thread/resume'>, opts?: RequestOptions): Promise<Result<'thread/resume'>> {
    return this.call('thread/resume', params, opts);
  }
  /** `thread/history/read`: the page of a thread's items before a cursor from `thread/read` or `thread/resume`. */
  threadHistoryRead(
    params: Params<'thread/history/read'>,
    opts?: RequestOptions,
  ): Promise<Result<'thread/history/read'>> {
    return this.call('thread/history/read', params, opts);
  }
  /** `thread/list`: threads, newest first, one page at a time. */
  threadList(params: Params<'thread/list'> = {}, opts?: RequestOptions): Promise<Result<'thread/list'>> {
    return this.call('thread/list', params, opts);
  }
  /** `thread/archive`. */
  threadArchive(params: Params<'thread/archive'>, opts?: RequestOptions): Promise<Result<'thread/archive'>> {
    return this.call('thread/archive', params, opts);
  }
  /** `thread/unarchive`. */
  threadUnarchive(params: Params<'thread/unarchive'>, opts?: RequestOptions): Promise<Result<'thread/unarchive'>> {
    return this.call('thread/unarchive', params, opts);
  }
  /** `thread/fork`: a new thread with the history up to an item. */
  threadFork(params: Params<'thread/fork'>, opts?: RequestOptions): Promise<Result<'thread/fork'>> {
    return this.call('thread/fork', params, opts);
  }
  /** `thread/unsubscribe`: stop this connection's notifications about a thread. */
  threadUnsubscribe(
    params: Params<'thread/unsubscribe'>,
    opts?: RequestOptions,
  ): Promise<Result<'thread/unsubscribe'>> {
    return this.call('thread/unsubscribe', params, opts);
  }
  /** `turn/start`: the turn as it starts running; items follow as notifications. */
  turnStart(params: Params<'turn/start'>, opts?: RequestOptions): Promise<Result<'turn/start'>> {
    return this.call('turn/start', params, opts);
  }
  /** `turn/interrupt`. */
  turnInterrupt(params: Params<'turn/interrupt'>, opts?: RequestOptions): Promise<Result<'turn/interrupt'>> {
    return this.call('turn/interrupt', params, opts);
  }
  /** `turn/steer`: add input to the running turn. */
  turnSteer(params: Params<'turn/steer'>, opts?: RequestOptions): Promise<Result<'turn/steer'>> {
    return this.call('turn/steer', params, opts);
  }
  /** `approval/resolve`: answer an approval by its request id. */
  approvalResolve(params: Params<'approval/resolve'>, opts?: RequestOptions): Promise<Result<'approval/resolve'>> {
    return this.call('approval/resolve', params, opts);
  }
  /** `schema/export`: the server's JSON Schema and TypeScript bundles. */
  schemaExport(params: Params<'schema/export'> = {}, opts?: RequestOptions): Promise<Result<'schema/export'>> {
    return this.call('schema/export', params, opts);
  }
  /** `model/list`. */
  modelList(params: Params<'model/list'> = {}, opts?: RequestOptions): Promise<Result<'model/list'>> {
    return this.call('model/list', params, opts);
  }
  /** `bridge/hello` (native host only): pick the backend; learn the host version, backends and limits. */
  bridgeHello(params: Params<'bridge/hello'> = {}, opts?: RequestOptions): Promise<Result<'bridge/hello'>> {
    return this.call('bridge/hello', params, opts);
  }
  /** `bridge/backend/restart` (native host only). */
  bridgeBackendRestart(
    params: Params<'bridge/backend/restart'> = {},
    opts?: RequestOptions,
  ): Promise<Result<'bridge/backend/restart'>> {
    return this.call('bridge/backend/restart', params, opts);
  }

  /** `bridge/mcp/share` (native host only): share a conversation's tab with external MCP clients, or stop. */
  bridgeMcpShare(params: Params<'bridge/mcp/share'>, opts?: RequestOptions): Promise<Result<'bridge/mcp/share'>> {
    return this.call('bridge/mcp/share', params, opts);
  }

  /** `bridge/files/read` (native host only): files on this computer by absolute path, with their bytes if asked. */
  bridgeFilesRead(params: Params<'bridge/files/read'>, opts?: RequestOptions): Promise<Result<'bridge/files/read'>> {
    return this.call('bridge/files/read', params, opts);
  }

  /** `bridge/config/read` (native host only): the host's model settings, never a key. */
  bridgeConfigRead(
    params: Params<'bridge/config/read'> = {},
    opts?: RequestOptions,
  ): Promise<Result<'bridge/config/read'>> {
    return this.call('bridge/config/read', params, opts);
  }
  /** `bridge/config/write` (native host only): save an endpoint or enable an agent preset. */
  bridgeConfigWrite(
    params: Params<'bridge/config/write'>,
    opts?: RequestOptions,
  ): Promise<Result<'bridge/config/write'>> {
    return this.call('bridge/config/write', params, opts);
  }
  /** `bridge/config/test` (native host only): the models an endpoint lists with these settings. */
  bridgeConfigTest(params: Params<'bridge/config/test'>, opts?: RequestOptions): Promise<Result<'bridge/config/test'>> {
    return this.call('bridge/config/test', params, opts);
  }

  /** Subscribes to a notification ('*' = all); returns the unsubscribe function. */
  on(method: '*', handler: (params: unknown, method: string) => void): () => void;
  on<M extends InboundNotification>(method: M, handler: NotificationHandlers<ClientInbound>[M]): () => void;
  on(method: string, handler: (params: never, method: never) => void): () => void {
    return this.connection.onNotification(method, handler as (params: unknown, method: string) => void);
  }

  /** Answers a server request (`approval/request`, `item/tool/call`); returns the unregister function. */
  handle<M extends InboundRequest>(method: M, handler: RequestHandlers<ClientInbound>[M]): () => void {
    return this.connection.onRequest(method, handler);
  }

  /** Closes the connection; pending requests reject with TransportClosedError. */
  close(): void {
    this.connection.close();
  }

  private async call<M extends Method>(method: M, params: unknown, opts?: RequestOptions): Promise<Result<M>> {
    const raw = await this.connection.request(method as string, params, opts);
    return parseResult(method, hostRequests[method].result, raw) as Result<M>;
  }
}
