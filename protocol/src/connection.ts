/**
 * A JSON-RPC peer over any MessageTransport: correlates requests and responses, dispatches inbound requests and
 * notifications through one table of handlers, and validates params at that boundary. Both sides may send requests.
 *
 * Order is part of the contract, not a matter of timing: an answer is read and settled synchronously (`call`), before
 * the next message is handled; a handler that returns a plain value is answered synchronously; and what must follow an
 * answer is registered with `ctx.afterAnswer`, which runs right after the answer is written. So a translator can answer
 * its client before it forwards what its agent sent after the answer, and a server can send the notifications that
 * follow an answer without waiting for the event loop.
 */
import { z } from 'zod';
import type {
  ConnectionOptions,
  FallbackRequestHandler,
  NotifyArgs,
  RequestArgs,
  RequestContext,
  RequestHandlers,
  NotificationHandlers,
  RequestOptions,
  RequestResultOut,
  Settle,
  Side,
  Unlisted,
} from './connection-types';
import {
  abortReason,
  asTransportError,
  describe,
  isRequestId,
  isThenable,
  jsonType,
  parseParams,
  parseResult,
  rowOf,
} from './connection-parse';
import { ErrorCode, RequestTimeoutError, RpcError, TransportClosedError } from './errors';
import {
  clientNotifications,
  clientRequests,
  hostNotifications,
  hostRequests,
  serverNotifications,
  serverRequests,
} from './methods';
import type { RequestId } from './schema/common';
import { ErrorObject } from './schema/envelope';
import type { MessageTransport } from './transport';
import { errorMessage } from './errors';

export type * from './connection-types';
export { parseResult } from './connection-parse';

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
  readonly reject: (error: Error) => void;
}

/** A JSON-RPC peer. Starts the transport at construction; register handlers right after (delivery is async). */
export class Connection<In extends Side = Side, Out extends Side = Side> {
  private readonly pending = new Map<RequestId, Pending>();
  private readonly requestHandlers = new Map<string, (params: unknown, ctx: RequestContext) => unknown>();
  private fallback: FallbackRequestHandler | undefined;
  private readonly subscribers = new Map<string, Set<(params: unknown, method: string) => void>>();
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
    transport.start({
      onMessage: (message) => this.receive(message),
      onDecodeError: (error) => {
        this.log(`undecodable input: ${error.message}`);
        if (options.answerDecodeErrors === false) return;
        this.write({ id: null, error: { code: ErrorCode.ParseError, message: `Parse error: ${error.message}` } });
      },
      onClose: (error) => this.shutdown(error),
    });
  }

  /** True once close() was called or the transport ended. */
  get isClosed(): boolean {
    return this.closedState;
  }

  /** Sends a request and resolves with its result; rejects with RpcError, RequestTimeoutError, TransportClosedError or the abort reason. */
  request<M extends keyof Out['requests'] & string>(
    method: M,
    ...args: RequestArgs<Out>[M]
  ): Promise<RequestResultOut<Out>[M]>;
  request<M extends string>(
    method: Unlisted<M, Out['requests']>,
    params?: unknown,
    opts?: RequestOptions,
  ): Promise<unknown>;
  request(method: string, params?: unknown, opts?: RequestOptions): Promise<unknown> {
    return new Promise((resolve, reject) => this.call(method, params, { ok: resolve, fail: reject }, opts));
  }

  /**
   * Sends a request; `settle` runs once, synchronously when the answer is read (before the next message is handled),
   * with the result parsed by its row, or on timeout, abort, close or a failed send. Returns the id used.
   */
  call<M extends keyof Out['requests'] & string>(
    method: M,
    params: RequestArgs<Out>[M][0],
    settle: Settle<RequestResultOut<Out>[M]>,
    opts?: RequestOptions,
  ): RequestId;
  call<M extends string>(
    method: Unlisted<M, Out['requests']>,
    params: unknown,
    settle: Settle<unknown>,
    opts?: RequestOptions,
  ): RequestId;
  call(method: string, params: unknown, settle: Settle<never>, opts: RequestOptions = {}): RequestId {
    const { ok, fail } = settle as Settle<unknown>;
    const id = this.nextId++;
    if (this.closedState) {
      fail(new TransportClosedError(`Cannot send ${method}: the connection is closed`));
      return id;
    }
    const { signal } = opts;
    if (signal?.aborted) {
      fail(abortReason(signal));
      return id;
    }
    const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs ?? 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => finish(() => fail(abortReason(signal!)));
    const finish = (then: () => void): void => {
      if (!this.pending.delete(id)) return;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      then();
    };
    this.pending.set(id, {
      method,
      resolve: (raw) => {
        let result: unknown;
        try {
          result = this.parseResult(method, raw);
        } catch (error) {
          finish(() => fail(error as Error));
          return;
        }
        finish(() => ok(result));
      },
      reject: (error) => finish(() => fail(error)),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs > 0)
      timer = setTimeout(() => finish(() => fail(new RequestTimeoutError(method, timeoutMs))), timeoutMs);
    try {
      this.send(params === undefined ? { id, method } : { id, method, params });
    } catch (error) {
      finish(() => fail(asTransportError(error, method)));
    }
    return id;
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
  onRequest<M extends string>(
    method: Unlisted<M, In['requests']>,
    handler: (params: unknown, ctx: RequestContext) => unknown,
  ): () => void;
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

  /** Subscribes to notification `method` ('*' = all), in arrival order; returns the unsubscribe function. */
  onNotification(method: '*', handler: (params: unknown, method: string) => void): () => void;
  onNotification<M extends keyof In['notifications'] & string>(
    method: M,
    handler: NotificationHandlers<In>[M],
  ): () => void;
  onNotification<M extends string>(
    method: Unlisted<M, In['notifications']>,
    handler: (params: unknown, method: string) => void,
  ): () => void;
  onNotification(method: string, handler: (params: never, method: never) => void): () => void {
    const h = handler as (params: unknown, method: string) => void;
    let set = this.subscribers.get(method);
    if (!set) {
      set = new Set();
      this.subscribers.set(method, set);
    }
    set.add(h);
    return () => {
      set.delete(h);
      if (set.size === 0 && this.subscribers.get(method) === set) this.subscribers.delete(method);
    };
  }

  /** Closes the connection and its transport; pending requests reject with TransportClosedError. */
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
      if (typeof m.method !== 'string')
        this.answerError(readableId, RpcError.invalidRequest('"method" must be a string'));
      else if (!hasId) this.dispatchNotification(m.method, m.params);
      else if (readableId === null)
        this.answerError(null, RpcError.invalidRequest('"id" must be an integer or a string'));
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

  private dispatchRequest(id: RequestId, method: string, rawParams: unknown): void {
    const handler = this.requestHandlers.get(method);
    const fallback = this.fallback;
    if (!handler && !fallback) {
      this.answerError(id, RpcError.methodNotFound(method));
      return;
    }
    const hooks: Array<() => void> = [];
    let answered = false;
    const afterAnswer = (fn: () => void): void => {
      if (answered) this.runHook(method, fn);
      else hooks.push(fn);
    };
    const answer = (message: Record<string, unknown>): void => {
      if (answered) return;
      answered = true;
      this.write(message);
      for (const fn of hooks.splice(0)) this.runHook(method, fn);
    };
    const ok = (result: unknown): void => answer({ id, result: result === undefined ? {} : result });
    const fail = (error: unknown): void => answer({ id, error: this.toRpcError(method, error).toJSON() });
    const ctx: RequestContext = { id, method, signal: this.inflight.signal, afterAnswer };
    let out: unknown;
    try {
      if (handler) {
        const row = rowOf(this.options.inbound?.requests, method);
        out = handler(row ? parseParams(method, row.params, rawParams) : rawParams, ctx);
      } else {
        out = fallback!(method, rawParams, ctx);
      }
    } catch (error) {
      fail(error);
      return;
    }
    // A plain value is answered now, so nothing the handler scheduled can overtake its answer.
    if (isThenable(out)) out.then(ok, fail);
    else ok(out);
  }

  private runHook(method: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log(
        `after-answer hook of ${method} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }

  private toRpcError(method: string, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    if (error instanceof z.ZodError) return RpcError.invalidParams(method, error);
    this.log(
      `handler for ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return RpcError.internal(`${method} failed: ${errorMessage(error)}`, error);
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
    for (const set of [this.subscribers.get(method), this.subscribers.get('*')]) {
      if (!set) continue;
      for (const h of [...set]) {
        try {
          h(params, method);
        } catch (error) {
          this.log(`notification handler for ${method} threw: ${String(error)}`);
        }
      }
    }
  }

  private answerError(id: RequestId | null, error: RpcError): void {
    this.write({ id, error: error.toJSON() });
  }

  private parseResult(method: string, result: unknown): unknown {
    const row = rowOf(this.options.outbound?.requests, method);
    return row ? parseResult(method, row.result, result) : result;
  }
}
