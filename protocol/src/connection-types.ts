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
}

type Row<S extends Side, M> = M extends keyof S['requests'] ? S['requests'][M] : undefined;

/** Params a caller passes for request `M` of side `S` (unknown when `S` has no row for it). */
export type RequestParamsIn<S extends Side, M> = Row<S, M> extends RequestSpec ? z.input<Row<S, M>['params']> : unknown;
/** Params a handler receives for request `M` of side `S`, after validation. */
export type RequestParamsOut<S extends Side, M> = Row<S, M> extends RequestSpec ? z.output<Row<S, M>['params']> : unknown;
/** Result a handler returns for request `M`. */
export type RequestResultIn<S extends Side, M> = Row<S, M> extends RequestSpec ? z.input<Row<S, M>['result']> : unknown;
/** Result a caller receives for request `M`. */
export type RequestResultOut<S extends Side, M> = Row<S, M> extends RequestSpec ? z.output<Row<S, M>['result']> : unknown;
/** Params of notification `M` of side `S` as sent. */
export type NotificationParamsIn<S extends Side, M> = M extends keyof S['notifications']
  ? z.input<S['notifications'][M]>
  : unknown;
/** Params of notification `M` of side `S` as received (after validation). */
export type NotificationParamsOut<S extends Side, M> = M extends keyof S['notifications']
  ? z.output<S['notifications'][M]>
  : unknown;

/** Arguments after the method: params may be left out when the schema accepts undefined. */
export type RequestArgs<S extends Side, M> = undefined extends RequestParamsIn<S, M>
  ? [params?: RequestParamsIn<S, M>, opts?: RequestOptions]
  : [params: RequestParamsIn<S, M>, opts?: RequestOptions];

/** Arguments of notify after the method. */
export type NotifyArgs<S extends Side, M> = undefined extends NotificationParamsIn<S, M>
  ? [params?: NotificationParamsIn<S, M>]
  : [params: NotificationParamsIn<S, M>];

/** Handles one inbound request; throw RpcError to answer with its code. */
export type RequestHandler<S extends Side, M> = (
  params: RequestParamsOut<S, M>,
  ctx: RequestContext,
) => HandlerReturn<RequestResultIn<S, M>> | Promise<HandlerReturn<RequestResultIn<S, M>>>;

/** A handler may return nothing when `{}` is a valid result: the answer is then `{}`. */
type HandlerReturn<R> = R | ({} extends R ? void : never);

/** Handles inbound requests that have no handler of their own. */
export type FallbackRequestHandler = (method: string, params: unknown, ctx: RequestContext) => unknown;

/** Options of a Connection. */
export interface ConnectionOptions<In extends Side, Out extends Side> {
  /** Rows of inbound messages: params of inbound requests/notifications with a row are Zod-validated. */
  inbound?: In;
  /** Rows of outbound requests: results of requests with a row are Zod-parsed before they resolve. */
  outbound?: Out;
  /** Emit `"jsonrpc":"2.0"` on output (default false: omitted, as the protocol prefers). */
  jsonrpc?: boolean;
  /** Default timeout of outgoing requests in ms; 0/undefined = none. */
  requestTimeoutMs?: number;
  /** How many notifications nobody subscribed to are kept for waitForNotification/nextNotification (default 10000). */
  backlogLimit?: number;
  /** Diagnostics; never stdout. */
  log?: (line: string) => void;
}

/**
 * A method name the rows do not list: the untyped overloads accept only these, so a listed method with wrong params
 * is a type error instead of silently falling back to `unknown`. A plain `string` variable is accepted.
 */
export type Unlisted<M extends string, Rows> = M & (string extends M ? unknown : M extends keyof Rows ? never : unknown);
