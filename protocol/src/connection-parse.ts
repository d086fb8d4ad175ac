/** Checks and small helpers of Connection: parsing params and results with their rows, reading ids and errors. */
import type { z } from 'zod';
import { ErrorCode, RpcError, TransportError } from './errors';
import type { RequestId } from './schema/common';

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

/** Parses inbound params with their schema; a mismatch throws RpcError -32602 with the Zod issues. */
export function parseParams(method: string, schema: z.ZodType, params: unknown): unknown {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw RpcError.invalidParams(method, parsed.error);
  return parsed.data;
}

/** What a failed send rejects with: transport errors keep their class. */
export function asTransportError(error: unknown, method: string): Error {
  // Transport errors (closed, too large) keep their class so callers can tell them apart.
  if (error instanceof Error) return error;
  return new TransportError(`Could not send ${method}: ${String(error)}`, { cause: error });
}

/** The row for a wire method name; own keys only, so names like "toString" or "__proto__" find no row. */
export function rowOf<T>(table: Readonly<Record<string, T>> | undefined, method: string): T | undefined {
  return table && Object.hasOwn(table, method) ? table[method] : undefined;
}

/** True for promises and other thenables (a handler's asynchronous answer). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The abort reason as an Error (non-Error reasons are wrapped in a TransportError). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new TransportError(`Request aborted: ${String(reason)}`, { cause: reason });
}

/** Same rule as the RequestId schema (an integer or a string), without a Zod call on every message. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isInteger(value);
}

/** The JSON type of a value, for error messages. */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Names an outgoing message in log lines. */
export function describe(message: Record<string, unknown>): string {
  if (typeof message.method === 'string') return message.method;
  return `response to ${JSON.stringify(message.id)}`;
}
