/**
 * A JSON-RPC peer over any MessageTransport: correlates requests and responses, dispatches inbound requests and
 * notifications through one table of handlers, and validates params at that boundary. Both sides may send requests.
 */
import { z } from 'zod';
import type {
  ConnectionOptions,
  FallbackRequestHandler,
  NotificationParamsOut,
  NotifyArgs,
  RequestArgs,
  RequestContext,
  RequestHandlers,
  NotificationHandlers,
  RequestOptions,
  RequestResultOut,
  Side,
  Unlisted,
} from './connection-types';
import { ErrorCode, RequestTimeoutError, RpcError, TransportClosedError, TransportError } from './errors';
import {
  clientNotifications,
  clientRequests,
  hostNotifications,
  hostRequests,
  serverNotifications,
  serverRequests,
} from './methods';
import { NotificationQueue, type ReceivedNotification, type WaitOptions } from './notification-queue';
import type { RequestId } from './schema/common';
import { ErrorObject } from './schema/envelope';
import type { MessageTransport } from './transport';

export type * from './connection-types';
export type { ReceivedNotification, WaitOptions } from './notification-queue';

/** What an app-server receives from its client. */
export const serverInbound = { requests: { ...clientRequests }, notifications: clientNotifications } as const;
/** What a client receives from an app-server. */
export const clientInbound = { requests: serverRequests, notifications: serverNotifications } as const;
/** What the extension receives from the native host (app-server traffic plus the bridge's own notifications). */
export const hostClientInbound = { requests: serverRequests, notifications: hostNotifications } as const;
/** What the native host receives from the extension (app-server requests plus the bridge's own). */
export const hostServerInbound = { requests: hostRequests, notifications: clientNotifications } as const;

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

const DEFAULT_BACKLOG_LIMIT = 10_000;

/** A JSON-RPC peer. Starts the transport at construction; register handlers right after (delivery is async). */
export class Connection<In extends Side = Side, Out extends Side = Side> {
  private readonly pending = new Map<RequestId, Pending>();
  private readonly requestHandlers = new Map<string, (params: unknown, ctx: RequestContext) => unknown>();
  private fallback: FallbackRequestHandler | undefined;
  private readonly subscribers = new Map<string, Set<(params: unknown, method: string) => void>>();
  private readonly queue: NotificationQueue;
  private readonly inflight = new AbortController();
  private readonly log: (line: string) => void;
  private nextId = 1;
  private closedState = false;
  private resolveClosed!: (error: Error | undefined) => void;

  /** Settles once, when the connection closes: with the transport's error, or undefined for a clean close. */
  readonly closed: Promise<Error | undefined> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    private readonly transport: MessageTransport,
    private readonly options: ConnectionOptions<In, Out> = {},
  ) {
    this.log = options.log ?? (() => {});
    this.queue = new NotificationQueue(options.backlogLimit ?? DEFAULT_BACKLOG_LIMIT, this.log);
    transport.start({
      onMessage: (message) => this.receive(message),
      onDecodeError: (error) => {
        this.log(`undecodable input: ${error.message}`);
        this.write({ id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${error.message}` } });
      },
      onClose: (error) => this.shutdown(error),
    });
  }

  /** True once close() was called or the transport ended. */
  get isClosed(): boolean {
    return this.closedState;
  }

  /** Number of notifications waiting in the backlog. */
  get backlogSize(): number {
    return this.queue.size;
  }

  /** Sends a request and resolves with its result; rejects with RpcError, RequestTimeoutError, TransportClosedError or the abort reason. */
  request<M extends keyof Out['requests'] & string>(method: M, ...args: RequestArgs<Out>[M]): Promise<RequestResultOut<Out>[M]>;
  request<M extends string>(method: Unlisted<M, Out['requests']>, params?: unknown, opts?: RequestOptions): Promise<unknown>;
  request(method: string, params?: unknown, opts: RequestOptions = {}): Promise<unknown> {
    if (this.closedState) return Promise.reject(new TransportClosedError(`Cannot send ${method}: the connection is closed`));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 0;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => settle(() => reject(signal?.reason));
      const settle = (finish: () => void): void => {
        this.pending.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish();
      };
      this.pending.set(id, {
        method,
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0) timer = setTimeout(() => settle(() => reject(new RequestTimeoutError(method, timeoutMs))), timeoutMs);
      try {
        this.send(params === undefined ? { id, method } : { id, method, params });
      } catch (error) {
        settle(() => reject(asTransportError(error, method)));
      }
    }).then((result) => this.parseResult(method, result));
  }

  /** Sends a notification; throws TransportClosedError when the connection is closed. */
  notify<M extends keyof Out['notifications'] & string>(method: M, ...args: NotifyArgs<Out>[M]): void;
  notify<M extends string>(method: Unlisted<M, Out['notifications']>, params?: unknown): void;
  notify(method: string, params?: unknown): void {
    if (this.closedState) throw new TransportClosedError(`Cannot send ${method}: the connection is closed`);
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Handles inbound request `method` (params validated first when a row exists); returns an unregister function. */
  onRequest<M extends keyof In['requests'] & string>(method: M, handler: RequestHandlers<In>[M]): () => void;
  onRequest<M extends string>(method: Unlisted<M, In['requests']>, handler: (params: unknown, ctx: RequestContext) => unknown): () => void;
  onRequest(method: string, handler: (params: never, ctx: RequestContext) => unknown): () => void {
    const h = handler as (params: unknown, ctx: RequestContext) => unknown;
    this.requestHandlers.set(method, h);
    return () => {
      if (this.requestHandlers.get(method) === h) this.requestHandlers.delete(method);
    };
  }

  /** Handles inbound requests without a handler of their own (unset: they answer -32601). */
  setFallbackRequestHandler(handler?: FallbackRequestHandler): void {
    this.fallback = handler;
  }

  /** Subscribes to notification `method` ('*' = all); subscribed notifications skip the backlog. */
  onNotification(method: '*', handler: (params: unknown, method: string) => void): () => void;
  onNotification<M extends keyof In['notifications'] & string>(
    method: M,
    handler: NotificationHandlers<In>[M],
  ): () => void;
  onNotification<M extends string>(method: Unlisted<M, In['notifications']>, handler: (params: unknown, method: string) => void): () => void;
  onNotification(method: string, handler: (params: never, method: never) => void): () => void {
    const h = handler as (params: unknown, method: string) => void;
    let set = this.subscribers.get(method);
    if (!set) this.subscribers.set(method, (set = new Set()));
    set.add(h);
    return () => {
      set.delete(h);
      if (set.size === 0 && this.subscribers.get(method) === set) this.subscribers.delete(method);
    };
  }

  /** Resolves with the params of the first notification `method` (from the backlog, else live) that satisfies `predicate`. */
  waitForNotification<M extends keyof In['notifications'] & string>(
    method: M,
    predicate?: (params: NotificationParamsOut<In>[M]) => boolean,
    opts?: WaitOptions,
  ): Promise<NotificationParamsOut<In>[M]>;
  waitForNotification<M extends string>(
    method: Unlisted<M, In['notifications']>,
    predicate?: (params: unknown) => boolean,
    opts?: WaitOptions,
  ): Promise<unknown>;
  async waitForNotification(method: string, predicate?: (params: never) => boolean, opts?: WaitOptions): Promise<unknown> {
    const test = predicate as ((params: unknown) => boolean) | undefined;
    const n = await this.queue.take((x) => x.method === method && (!test || test(x.params)), method, opts);
    return n.params;
  }

  /** Resolves with the oldest backlog notification, else the next one that arrives. */
  nextNotification(opts?: WaitOptions): Promise<ReceivedNotification> {
    return this.queue.take(() => true, 'next', opts);
  }

  /** Closes the connection and its transport; pending requests and waiters reject with TransportClosedError. */
  close(): void {
    if (this.closedState) return;
    this.shutdown(undefined);
    this.transport.close();
  }

  private shutdown(error: Error | undefined): void {
    if (this.closedState) return;
    this.closedState = true;
    const reason = new TransportClosedError(
      error ? `Connection closed: ${error.message}` : 'Connection closed',
      error ? { cause: error } : undefined,
    );
    for (const p of [...this.pending.values()]) p.reject(reason);
    this.queue.close(reason);
    this.inflight.abort(reason);
    this.resolveClosed(error);
  }

  /** The one place every message goes out; adds `jsonrpc` when asked. Throws what the transport throws. */
  private send(message: Record<string, unknown>): void {
    this.transport.send(this.options.jsonrpc ? { jsonrpc: '2.0', ...message } : message);
  }

  /** Sends an answer; after close, or when the transport refuses it, there is nobody to tell but the log. */
  private write(message: Record<string, unknown>): void {
    if (this.closedState) {
      this.log(`not sent (connection closed): ${describe(message)}`);
      return;
    }
    try {
      this.send(message);
    } catch (error) {
      this.log(`send failed for ${describe(message)}: ${String(error)}`);
    }
  }

  private receive(message: unknown): void {
    if (Array.isArray(message)) {
      // Transports split batches; one that arrives whole is handled message by message, in order.
      if (message.length === 0) this.answerError(null, RpcError.invalidRequest('empty batch'));
      for (const m of message) {
        // A batch inside a batch is invalid JSON-RPC; recursing into it would let deep nesting overflow the stack.
        if (Array.isArray(m)) this.answerError(null, RpcError.invalidRequest('a batch cannot contain a batch'));
        else this.receive(m);
      }
      return;
    }
    if (typeof message !== 'object' || message === null) {
      this.answerError(null, RpcError.invalidRequest(`expected a JSON object, got ${jsonType(message)}`));
      return;
    }
    const m = message as Record<string, unknown>;
    const hasId = 'id' in m && m.id !== undefined;
    const readableId = isRequestId(m.id) ? m.id : null;
    if ('method' in m) {
      if (typeof m.method !== 'string') this.answerError(readableId, RpcError.invalidRequest('"method" must be a string'));
      else if (!hasId) this.dispatchNotification(m.method, m.params);
      else if (readableId === null) this.answerError(null, RpcError.invalidRequest('"id" must be an integer or a string'));
      else void this.dispatchRequest(readableId, m.method, m.params);
      return;
    }
    if ('result' in m || 'error' in m) {
      this.settleResponse(m, readableId);
      return;
    }
    this.answerError(readableId, RpcError.invalidRequest('a message needs "method", or "id" with "result" or "error"'));
  }

  private settleResponse(m: Record<string, unknown>, id: RequestId | null): void {
    if (id === null) {
      // An error about something the peer could not read (typically -32700): nothing to correlate, so log it.
      this.log(`peer reported an error without a request id: ${JSON.stringify(m.error ?? m)}`);
      return;
    }
    const pending = this.pending.get(id);
    if (!pending) {
      this.log(`response to unknown request id ${JSON.stringify(id)} ignored (late after a timeout or abort?)`);
      return;
    }
    if ('result' in m && 'error' in m) {
      pending.reject(RpcError.internal(`response to ${pending.method} has both "result" and "error"`));
    } else if ('error' in m) {
      const error = ErrorObject.safeParse(m.error);
      pending.reject(
        error.success
          ? RpcError.fromObject(error.data)
          : RpcError.internal(`malformed error response to ${pending.method}: ${JSON.stringify(m.error)}`),
      );
    } else {
      pending.resolve(m.result);
    }
  }

  private async dispatchRequest(id: RequestId, method: string, rawParams: unknown): Promise<void> {
    const handler = this.requestHandlers.get(method);
    const fallback = this.fallback;
    if (!handler && !fallback) {
      this.answerError(id, RpcError.methodNotFound(method));
      return;
    }
    const ctx: RequestContext = { id, method, signal: this.inflight.signal };
    try {
      let result: unknown;
      if (handler) {
        const row = rowOf(this.options.inbound?.requests, method);
        result = await handler(row ? parseParams(method, row.params, rawParams) : rawParams, ctx);
      } else {
        result = await fallback!(method, rawParams, ctx);
      }
      this.write({ id, result: result === undefined ? {} : result });
    } catch (error) {
      this.answerError(id, this.toRpcError(method, error));
    }
  }

  private toRpcError(method: string, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    if (error instanceof z.ZodError) return RpcError.invalidParams(method, error);
    this.log(`handler for ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return RpcError.internal(`${method} failed: ${error instanceof Error ? error.message : String(error)}`, error);
  }

  private dispatchNotification(method: string, rawParams: unknown): void {
    const schema = rowOf(this.options.inbound?.notifications, method);
    let params = rawParams;
    if (schema) {
      const parsed = schema.safeParse(rawParams);
      if (!parsed.success) {
        // Notifications cannot be answered: drop the malformed one and say so in the log.
        this.log(`dropped invalid ${method} notification: ${RpcError.invalidParams(method, parsed.error).message}`);
        return;
      }
      params = parsed.data;
    }
    const exact = this.subscribers.get(method);
    const any = this.subscribers.get('*');
    for (const set of [exact, any]) {
      if (!set) continue;
      for (const h of [...set]) {
        try {
          h(params, method);
        } catch (error) {
          this.log(`notification handler for ${method} threw: ${String(error)}`);
        }
      }
    }
    this.queue.offer({ method, params }, !exact?.size && !any?.size);
  }

  private answerError(id: RequestId | null, error: RpcError): void {
    this.write({ id, error: error.toJSON() });
  }

  private parseResult(method: string, result: unknown): unknown {
    const row = rowOf(this.options.outbound?.requests, method);
    return row ? parseResult(method, row.result, result) : result;
  }
}

/** Parses a result that crossed the wire with its schema; a mismatch throws RpcError -32603 with the Zod issues in data. */
export function parseResult(method: string, schema: z.ZodType, result: unknown): unknown {
  const parsed = schema.safeParse(result);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code }));
  const first = issues[0];
  const where = first ? ` at ${first.path.join('.') || '(root)'}: ${first.message}` : '';
  throw new RpcError(
    ErrorCode.InternalError,
    `Invalid result for ${method} from the peer${where} (the peer speaks another protocol version?)`,
    { issues },
    { cause: parsed.error },
  );
}

function parseParams(method: string, schema: z.ZodType, params: unknown): unknown {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw RpcError.invalidParams(method, parsed.error);
  return parsed.data;
}

function asTransportError(error: unknown, method: string): Error {
  // Transport errors (closed, too large) keep their class so callers can tell them apart.
  if (error instanceof Error) return error;
  return new TransportError(`Could not send ${method}: ${String(error)}`, { cause: error });
}

/** The row for a wire method name; own keys only, so names like "toString" or "__proto__" find no row. */
function rowOf<T>(table: Readonly<Record<string, T>> | undefined, method: string): T | undefined {
  return table && Object.hasOwn(table, method) ? table[method] : undefined;
}

/** Same rule as the RequestId schema (an integer or a string), without a Zod call on every message. */
function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function describe(message: Record<string, unknown>): string {
  if (typeof message.method === 'string') return message.method;
  return `response to ${JSON.stringify(message.id)}`;
}
