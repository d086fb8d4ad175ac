/**
 * The host's own requests (`bridge/*`), one handler and one params parser per row of the protocol's `bridgeRequests`
 * table, typed from the rows: a missing or extra method, or a wrong params or result shape, is a compile error.
 * Params are checked by hand rather than with the rows' Zod schemas: loading Zod would cost a third of the host's
 * start-up before its first answer. bridge-methods.test.ts checks that each parser accepts what its schema accepts.
 */
import type { bridgeRequests, ParamsOf, ResultOf } from '@tether/protocol';
import { ErrorCode, RpcError } from '@tether/protocol/errors';

type BridgeRequests = typeof bridgeRequests;
/** Wire name of a bridge request. */
export type BridgeMethod = keyof BridgeRequests;
/** Params of bridge request `M`, as its row's schema infers them. */
export type BridgeParams<M extends BridgeMethod> = ParamsOf<BridgeRequests[M]>;
/** Result of bridge request `M`, as its row's schema infers it. */
export type BridgeResult<M extends BridgeMethod> = ResultOf<BridgeRequests[M]>;

/** One handler per bridge request; a rejection with an RpcError is answered as that error. */
export type BridgeHandlers = { readonly [M in BridgeMethod]: (params: BridgeParams<M>) => Promise<BridgeResult<M>> };

type BridgeParsers = { readonly [M in BridgeMethod]: (raw: unknown) => BridgeParams<M> };

/** Params of each bridge request, checked as its row's schema does; absent (or null) params read as `{}`. */
export const bridgeParams: BridgeParsers = {
  'bridge/hello': parseHelloParams,
  'bridge/backend/restart': parseRestartParams,
  'bridge/mcp/share': parseShareParams,
  'bridge/config/read': parseConfigReadParams,
  'bridge/config/write': parseConfigWriteParams,
  'bridge/config/test': parseConfigTestParams,
  'bridge/files/read': parseFilesReadParams,
};

/** True when `method` is a row of `bridgeRequests` (own rows only: "toString" or "__proto__" are none). */
export function isBridgeMethod(method: string): method is BridgeMethod {
  return Object.hasOwn(bridgeParams, method);
}

/** Parses `raw` params for `method` (-32602 naming the field when they do not fit) and runs its handler. */
export function callBridgeMethod<M extends BridgeMethod>(
  handlers: BridgeHandlers,
  method: M,
  raw: unknown,
): Promise<BridgeResult<M>> {
  const parse: BridgeParsers[M] = bridgeParams[method];
  const handler: BridgeHandlers[M] = handlers[method];
  return handler(parse(raw));
}

function invalid(method: BridgeMethod, path: string, message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method} at ${path}: ${message}`, {
    issues: [{ path: path === 'params' ? [] : path.split('.'), message, code: 'invalid_type' }],
  });
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own field of `value` (never one inherited from Object.prototype). */
function field(value: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(value, key)?.value;
}

function parseHelloParams(raw: unknown): BridgeParams<'bridge/hello'> {
  const method = 'bridge/hello';
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const backend = field(raw, 'backend');
  if (backend !== undefined && typeof backend !== 'string') throw invalid(method, 'backend', 'expected a string');
  const client = field(raw, 'clientInfo');
  const chosen = backend === undefined ? {} : { backend };
  if (client === undefined) return { ...raw, ...chosen };
  if (!isObject(client)) throw invalid(method, 'clientInfo', 'expected an object');
  const name = field(client, 'name');
  const version = field(client, 'version');
  const title = field(client, 'title');
  if (typeof name !== 'string') throw invalid(method, 'clientInfo.name', 'expected a string');
  if (typeof version !== 'string') throw invalid(method, 'clientInfo.version', 'expected a string');
  if (title !== undefined && typeof title !== 'string') throw invalid(method, 'clientInfo.title', 'expected a string');
  return { ...raw, ...chosen, clientInfo: { ...client, name, version, ...(title === undefined ? {} : { title }) } };
}

function parseRestartParams(raw: unknown): BridgeParams<'bridge/backend/restart'> {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw invalid('bridge/backend/restart', 'params', 'expected an object');
  return { ...raw };
}

function parseShareParams(raw: unknown): BridgeParams<'bridge/mcp/share'> {
  const method = 'bridge/mcp/share';
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const threadId = field(raw, 'threadId');
  const shared = field(raw, 'shared');
  if (typeof threadId !== 'string') throw invalid(method, 'threadId', 'expected a string');
  if (typeof shared !== 'boolean') throw invalid(method, 'shared', 'expected a boolean');
  return { ...raw, threadId, shared };
}

/** An own string field of length `min`..`max`, or undefined when absent (-32602 naming `path` otherwise). */
function optionalString(
  method: BridgeMethod,
  value: object,
  key: string,
  path: string,
  max: number,
): string | undefined {
  const v = field(value, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(method, path, 'expected a string');
  if (v.length < 1) throw invalid(method, path, 'expected a non-empty string');
  if (v.length > max) throw invalid(method, path, `expected at most ${max} characters`);
  return v;
}

function requiredString(method: BridgeMethod, value: object, key: string, path: string, max: number): string {
  const v = optionalString(method, value, key, path, max);
  if (v === undefined) throw invalid(method, path, 'expected a string');
  return v;
}

function parseConfigReadParams(raw: unknown): BridgeParams<'bridge/config/read'> {
  const method = 'bridge/config/read';
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const detectLocal = field(raw, 'detectLocal');
  if (detectLocal !== undefined && typeof detectLocal !== 'boolean')
    throw invalid(method, 'detectLocal', 'expected a boolean');
  return { ...raw, ...(detectLocal === undefined ? {} : { detectLocal }) };
}

function parseConfigWriteParams(raw: unknown): BridgeParams<'bridge/config/write'> {
  const method = 'bridge/config/write';
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const preset = field(raw, 'preset');
  if (preset !== undefined && typeof preset !== 'string') throw invalid(method, 'preset', 'expected a string');
  const openai = field(raw, 'openai');
  if (openai === undefined) return { ...raw, ...(preset === undefined ? {} : { preset }) };
  if (!isObject(openai)) throw invalid(method, 'openai', 'expected an object');
  const baseUrl = requiredString(method, openai, 'baseUrl', 'openai.baseUrl', 2048);
  const model = optionalString(method, openai, 'model', 'openai.model', 256);
  const key = field(openai, 'apiKey');
  const apiKey = key === null ? null : optionalString(method, openai, 'apiKey', 'openai.apiKey', 4096);
  return {
    ...raw,
    ...(preset === undefined ? {} : { preset }),
    openai: {
      ...openai,
      baseUrl,
      ...(model === undefined ? {} : { model }),
      ...(apiKey === undefined ? {} : { apiKey }),
    },
  };
}

function parseConfigTestParams(raw: unknown): BridgeParams<'bridge/config/test'> {
  const method = 'bridge/config/test';
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const baseUrl = requiredString(method, raw, 'baseUrl', 'baseUrl', 2048);
  const apiKey = optionalString(method, raw, 'apiKey', 'apiKey', 4096);
  return { ...raw, baseUrl, ...(apiKey === undefined ? {} : { apiKey }) };
}

/** Mirrors BridgeFilesReadParams: 1..20 paths of 1..4096 characters, and an optional boolean `bytes`. */
function parseFilesReadParams(raw: unknown): BridgeParams<'bridge/files/read'> {
  const method = 'bridge/files/read';
  if (!isObject(raw)) throw invalid(method, 'params', 'expected an object');
  const paths = field(raw, 'paths');
  if (!Array.isArray(paths)) throw invalid(method, 'paths', 'expected an array');
  if (paths.length < 1 || paths.length > 20) throw invalid(method, 'paths', 'expected 1 to 20 paths');
  const checked = paths.map((p: unknown, i) => {
    if (typeof p !== 'string') throw invalid(method, `paths.${i}`, 'expected a string');
    if (p.length < 1 || p.length > 4096) throw invalid(method, `paths.${i}`, 'expected 1 to 4096 characters');
    return p;
  });
  const bytes = field(raw, 'bytes');
  if (bytes !== undefined && typeof bytes !== 'boolean') throw invalid(method, 'bytes', 'expected a boolean');
  return { ...raw, paths: checked, ...(bytes === undefined ? {} : { bytes }) };
}
