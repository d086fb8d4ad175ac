/**
 * The lifecycle of one client connection, the same for the app-server and every dialect adapter: `initialize` first
 * and once (-32010 / -32011), one table of handlers (a method the backend does not implement answers -32013), and the
 * notifications to the client: dropped when opted out, held while a hold is open, kept until the client says
 * `initialized`.
 */
import {
  CLIENT_REQUEST_METHODS,
  type ClientRequestMethod,
  type ClientRequestParams,
  type ClientRequestResult,
  type Connection,
  type InitializeParams,
  type RequestContext,
  RpcError,
  type serverInbound,
  type Side,
} from '@tether/protocol';

/** Handles client request `M`: params validated by its row in, its result out (a wrong shape does not compile). */
export type Handler<M extends ClientRequestMethod> = (
  params: ClientRequestParams<M>,
  ctx: RequestContext,
) => ClientRequestResult<M> | Promise<ClientRequestResult<M>>;

/** One handler per client request the backend implements; `initialize` is required, the rest answer -32013. */
export type Handlers = { readonly initialize: Handler<'initialize'> } & {
  readonly [M in Exclude<ClientRequestMethod, 'initialize'>]?: Handler<M>;
};

/**
 * Notifications kept before `initialized` arrives; past this they are dropped (and logged once). The window is one
 * round trip (the initialize answer, then the client's `initialized`), in which a backend has little to say: the
 * app-server sends nothing before a thread is started, an adapter only what its agent says unasked. A client that never
 * says `initialized` must cost bounded memory; 1,000 covers any honest client with room to spare, where 10,000 could
 * pin 10,000 completed items (each up to the 1 MiB frame limit) for a client that is not listening.
 */
export const MAX_EARLY_NOTIFICATIONS = 1000;

type Phase = 'new' | 'initializing' | 'ready';
type Held = { readonly method: string; readonly params: unknown; readonly threadId: string | undefined };

/** What a gate needs from its owner. */
export interface GateOptions {
  /** Writes one notification to the client (not called once the connection is closed). */
  readonly send: (method: string, params: unknown) => void;
  /** The -32013 error for a client request the backend does not implement. */
  readonly unsupported: (method: string) => RpcError;
  readonly log: (line: string) => void;
}

/** The initialize gate and notification filter of one client connection. */
export class SessionGate {
  private phase: Phase = 'new';
  private clientReady = false;
  private optOut = new Set<string>();
  private early: Array<[string, unknown]> = [];
  private droppedEarly = 0;
  /** Open holds: per thread id, and '' for a hold of everything. */
  private readonly holds = new Map<string, number>();
  private held: Held[] = [];

  constructor(private readonly options: GateOptions) {}

  /** True once `initialize` was answered with success. */
  get isReady(): boolean {
    return this.phase === 'ready';
  }

  /**
   * Registers `handlers` on `connection` behind the gate: requests before `initialize` answer -32010, a second
   * `initialize` -32011, listed methods without a handler -32013, other methods -32601; `initialized` opens the flow
   * of notifications. The `initialize` handler runs after the gate has taken its opt-outs; if it fails, the client
   * may try again.
   */
  serve(connection: Connection<typeof serverInbound, Side>, handlers: Handlers): void {
    connection.onRequest('initialize', (params, ctx) =>
      this.initialize(params, () => handlers.initialize(params, ctx)),
    );
    for (const method of CLIENT_REQUEST_METHODS) {
      // The connection validated params with the same row the handler is typed from; the table cannot say so per key.
      const handler = handlers[method] as ((params: unknown, ctx: RequestContext) => unknown) | undefined;
      if (!handler || method === 'initialize') continue;
      connection.onRequest(method as string, (params: unknown, ctx: RequestContext) => {
        if (this.phase !== 'ready') throw RpcError.notInitialized();
        return handler(params, ctx);
      });
    }
    connection.setFallbackRequestHandler((method) => {
      if (this.phase !== 'ready') throw RpcError.notInitialized();
      if (!Object.hasOwn(handlers, method) && CLIENT_REQUEST_METHODS.includes(method as ClientRequestMethod)) {
        throw this.options.unsupported(method);
      }
      throw RpcError.methodNotFound(method);
    });
    connection.onNotification('initialized', () => this.markReady());
  }

  /**
   * Sends a notification to the client: dropped when opted out, held while `threadId` (or everything) is held, kept
   * until `initialized`.
   */
  notify(method: string, params: unknown, threadId?: string): void {
    if (this.optOut.has(method)) return;
    if (this.holds.has('') || (threadId !== undefined && this.holds.has(threadId)))
      this.held.push({ method, params, threadId });
    else this.deliver(method, params);
  }

  /**
   * Holds back the notifications of `threadId` (of every thread when absent) until the returned release is called, so
   * an answer goes out before what was produced after it was decided. Holds nest; release is idempotent.
   */
  hold(threadId?: string): () => void {
    const key = threadId ?? '';
    this.holds.set(key, (this.holds.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const depth = this.holds.get(key)! - 1;
      if (depth > 0) this.holds.set(key, depth);
      else this.holds.delete(key);
      this.flushHeld();
    };
  }

  private flushHeld(): void {
    if (this.held.length === 0 || this.holds.has('')) return;
    const still: Held[] = [];
    for (const h of this.held) {
      if (h.threadId !== undefined && this.holds.has(h.threadId)) still.push(h);
      else this.deliver(h.method, h.params);
    }
    this.held = still;
  }

  private deliver(method: string, params: unknown): void {
    if (this.clientReady) {
      this.options.send(method, params);
      return;
    }
    if (this.early.length < MAX_EARLY_NOTIFICATIONS) this.early.push([method, params]);
    else if (this.droppedEarly++ === 0)
      this.options.log(`no "initialized" yet; dropping notifications past ${MAX_EARLY_NOTIFICATIONS}`);
  }

  private markReady(): void {
    // `initialized` before an accepted `initialize` says nothing: the client has not learnt what this server is.
    if (this.clientReady || this.phase === 'new') return;
    this.clientReady = true;
    const early = this.early;
    this.early = [];
    for (const [method, params] of early) this.options.send(method, params);
  }

  private initialize<R>(params: InitializeParams, run: () => R | Promise<R>): R | Promise<R> {
    if (this.phase !== 'new') throw RpcError.alreadyInitialized();
    this.phase = 'initializing';
    this.optOut = new Set(params.capabilities?.optOutNotificationMethods ?? []);
    const failed = (error: unknown): never => {
      this.phase = 'new';
      throw error;
    };
    let out: R | Promise<R>;
    try {
      out = run();
    } catch (error) {
      return failed(error);
    }
    if (out instanceof Promise) {
      return out.then((result) => {
        this.phase = 'ready';
        return result;
      }, failed);
    }
    this.phase = 'ready';
    return out;
  }
}
