/** Types that make Connection's methods typed from the rows of a protocol side (see methods.ts). */
import type { z } from 'zod';
import type { RequestSpec } from './methods';
import type { RequestId } from './schema/common';

/** What one side of a connection receives: request rows and notification schemas. */
export type Side = {
  readonly requests: Readonly<Record<string, RequestSpec>>;
  readonly notifications: Readonly<Record<string, z.ZodType>>;
};

/** Per-request options for an outgoing request. */
export interface RequestOptions {
  /** Aborting rejects the request with the signal's reason; a late response is then ignored. */
  signal?: AbortSignal;
  /** Overrides the connection's default timeout; 0 = none. */
  timeoutMs?: number;
}

/** What an inbound request handler learns besides its params. */
export interface RequestContext {
  readonly id: RequestId;
  readonly method: string;
  /** Aborts when the connection closes: long handlers should stop then. */
  readonly signal: AbortSignal;
  /**
   * Runs `fn` right after this request's answer (result or error) is written, before anything else is sent: what must
   * follow the answer (its notifications, work it started) is said, not timed. After the answer, `fn` runs at once.
   */
  readonly afterAnswer: (fn: () => void) => void;
}

/** Settles one outgoing request: exactly one of the two runs, synchronously when the answer is read. */
export interface Settle<R> {
  ok(result: R): void;
  fail(error: Error): void;
}

// Mapped tables indexed by the method, rather than conditional types on a generic method: TypeScript resolves an
// indexed mapped type before checking a handler's body, so literals in results ('allow', 'idle') keep their types.
type Requests<S extends Side> = S['requests'];
type Notifications<S extends Side> = S['notifications'];

/** Params a caller passes, per request method of side `S`. */
export type RequestParamsIn<S extends Side> = { [M in keyof Requests<S>]: z.input<Requests<S>[M]['params']> };
/** Params a handler receives after validation, per request method. */
export type RequestParamsOut<S extends Side> = { [M in keyof Requests<S>]: z.output<Requests<S>[M]['params']> };
/** Result a handler returns, per request method. */
export type RequestResultIn<S extends Side> = { [M in keyof Requests<S>]: z.input<Requests<S>[M]['result']> };
/** Result a caller receives, per request method. */
export type RequestResultOut<S extends Side> = { [M in keyof Requests<S>]: z.output<Requests<S>[M]['result']> };
/** Params of a notification as sent, per method. */
export type NotificationParamsIn<S extends Side> = { [M in keyof Notifications<S>]: z.input<Notifications<S>[M]> };
/** Params of a notification as received (after validation), per method. */
export type NotificationParamsOut<S extends Side> = { [M in keyof Notifications<S>]: z.output<Notifications<S>[M]> };

/** Arguments of request() after the method, per method: params may be left out when the schema accepts undefined. */
export type RequestArgs<S extends Side> = {
  [M in keyof Requests<S>]: undefined extends RequestParamsIn<S>[M]
    ? [params?: RequestParamsIn<S>[M], opts?: RequestOptions]
    : [params: RequestParamsIn<S>[M], opts?: RequestOptions];
};

/** Arguments of notify() after the method, per method. */
export type NotifyArgs<S extends Side> = {
  [M in keyof Notifications<S>]: undefined extends NotificationParamsIn<S>[M]
    ? [params?: NotificationParamsIn<S>[M]]
    : [params: NotificationParamsIn<S>[M]];
};

/** A handler may return nothing when `{}` is a valid result: the answer is then `{}`. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends R` asks whether an empty result is valid, which is the point.
// biome-ignore lint/suspicious/noConfusingVoidType: a handler with no return statement returns void, answered as `{}`.
type HandlerReturn<R> = R | ({} extends R ? void : never);

/** Handlers of inbound requests, per method; throw RpcError to answer with its code. */
export type RequestHandlers<S extends Side> = {
  [M in keyof Requests<S>]: (
    params: RequestParamsOut<S>[M],
    ctx: RequestContext,
  ) => HandlerReturn<RequestResultIn<S>[M]> | Promise<HandlerReturn<RequestResultIn<S>[M]>>;
};

/** Handles inbound request `M` of side `S`. */
export type RequestHandler<S extends Side, M extends keyof S['requests']> = RequestHandlers<S>[M];

/** Handles notification `M` of side `S`. */
export type NotificationHandlers<S extends Side> = {
  [M in keyof Notifications<S>]: (params: NotificationParamsOut<S>[M], method: M) => void;
};

/** Handles inbound requests that have no handler of their own. */
export type FallbackRequestHandler = (method: string, params: unknown, ctx: RequestContext) => unknown;

/** Options of a Connection. */
export interface ConnectionOptions<In extends Side, Out extends Side> {
  /** Rows of inbound messages: params of inbound requests/notifications with a row are Zod-validated. */
  inbound?: In;
  /** Rows of outbound requests: results of requests with a row are Zod-parsed before they resolve. */
  outbound?: Out;
  /**
   * Answer input the transport could not decode with a -32700 error (default true). A translator talking to an agent
   * turns it off: an agent's stray output is logged, not argued with on the agent's stdin.
   */
  answerDecodeErrors?: boolean;
  /** Emit `"jsonrpc":"2.0"` on output (default false: omitted, as the protocol prefers). */
  jsonrpc?: boolean;
  /** Default timeout of outgoing requests in ms; 0/undefined = none. */
  requestTimeoutMs?: number;
  /** Diagnostics; never stdout. */
  log?: (line: string) => void;
}

/**
 * A method name the rows do not list: the untyped overloads accept only these, so a listed method with wrong params
 * is a type error instead of silently falling back to `unknown`. A plain `string` variable is accepted.
 */
export type Unlisted<M extends string, Rows> = M &
  (string extends M ? unknown : M extends keyof Rows ? never : unknown);
