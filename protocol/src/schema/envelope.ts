import { z } from 'zod';
import { RequestId } from './common';

const JsonRpcVersion = z
  .literal('2.0')
  .optional()
  .describe('`2.0` when the peer sends it; accepted on input, left out on output unless a connection asks for it.');

/** The error object of a JSON-RPC error response. */
export const ErrorObject = z
  .looseObject({
    code: z
      .number()
      .int()
      .describe('The JSON-RPC error code; Tether uses the codes of ErrorCode (protocol/src/errors.ts).'),
    message: z.string().describe('What happened and what to do about it, for a person.'),
    data: z.unknown().optional().describe('Details for a program, e.g. the Zod issues of an invalid-params error.'),
  })
  .describe('The error object of a JSON-RPC error response.');
export type ErrorObject = z.infer<typeof ErrorObject>;

/** A request: `{id, method, params?}`; `jsonrpc` is accepted on input and optional. */
export const RequestEnvelope = z
  .looseObject({
    jsonrpc: JsonRpcVersion,
    id: RequestId,
    method: z.string(),
    params: z.unknown().optional(),
  })
  .describe('A request: `{id, method, params?}`; `jsonrpc` is accepted on input and optional.');
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

/** A notification: `{method, params?}` with no id. */
export const NotificationEnvelope = z
  .looseObject({
    jsonrpc: JsonRpcVersion,
    method: z.string(),
    params: z.unknown().optional(),
  })
  .describe('A notification: `{method, params?}` with no id.');
export type NotificationEnvelope = z.infer<typeof NotificationEnvelope>;

/** A successful response: `{id, result}`. */
export const ResultEnvelope = z
  .looseObject({
    jsonrpc: JsonRpcVersion,
    id: RequestId,
    result: z.unknown(),
  })
  .describe('A successful response: `{id, result}`.');
export type ResultEnvelope = z.infer<typeof ResultEnvelope>;

/** An error response: `{id, error}`; id is null when the request could not be read. */
export const ErrorEnvelope = z
  .looseObject({
    jsonrpc: JsonRpcVersion,
    id: RequestId.nullable(),
    error: ErrorObject,
  })
  .describe('An error response: `{id, error}`; id is null when the request could not be read.');
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
