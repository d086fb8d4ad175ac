import { z } from 'zod';
import { RequestId } from './common';

const JsonRpcVersion = z.literal('2.0').optional();

/** The error object of a JSON-RPC error response. */
export const ErrorObject = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

/** A request: `{id, method, params?}`; `jsonrpc` is accepted on input and optional. */
export const RequestEnvelope = z.looseObject({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: z.string(),
  params: z.unknown().optional(),
});
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

/** A notification: `{method, params?}` with no id. */
export const NotificationEnvelope = z.looseObject({
  jsonrpc: JsonRpcVersion,
  method: z.string(),
  params: z.unknown().optional(),
});
export type NotificationEnvelope = z.infer<typeof NotificationEnvelope>;

/** A successful response: `{id, result}`. */
export const ResultEnvelope = z.looseObject({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  result: z.unknown(),
});
export type ResultEnvelope = z.infer<typeof ResultEnvelope>;

/** An error response: `{id, error}`; id is null when the request could not be read. */
export const ErrorEnvelope = z.looseObject({
  jsonrpc: JsonRpcVersion,
  id: RequestId.nullable(),
  error: ErrorObject,
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = RequestEnvelope | NotificationEnvelope | ResultEnvelope | ErrorEnvelope;

/** Which of the four kinds a parsed value is, or `invalid` when it is none of them. */
export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

/** Classifies a decoded JSON value without validating params or results. */
export function classifyMessage(value: unknown): MessageKind {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalid';
  const m = value as Record<string, unknown>;
  const hasId = 'id' in m && m.id !== undefined;
  if (typeof m.method === 'string') {
    if (!hasId) return 'notification';
    return RequestId.safeParse(m.id).success ? 'request' : 'invalid';
  }
  if ('result' in m && hasId) return RequestId.safeParse(m.id).success ? 'result' : 'invalid';
  if ('error' in m && hasId) return ErrorEnvelope.safeParse(m).success ? 'error' : 'invalid';
  return 'invalid';
}
