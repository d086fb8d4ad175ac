/**
 * The host's side of `bridge/hello`: its parameters, the backends it lists and the limits it reports.
 */
import type { BackendInfo, BridgeHelloParams, BridgeLimits } from '@tether/protocol';
import { BROWSER_MAX_FRAME_BYTES, BROWSER_MAX_INBOUND_BYTES } from '@tether/protocol/codec';
import { ErrorCode, RpcError } from '@tether/protocol/errors';
import type { BackendConfig } from '../config/schema';
import { findBackend, type HostConfig, RESERVED_BACKEND_IDS } from '../config/defaults';

/** Longest line a backend may write (a message the host then sends as bridge/chunk pieces). */
export const MAX_BACKEND_LINE_BYTES = 64 * 1024 * 1024;

/** The sizes the host enforces, as `bridge/hello` reports them. */
export const BRIDGE_LIMITS: BridgeLimits = {
  maxOutboundFrameBytes: BROWSER_MAX_FRAME_BYTES,
  maxInboundMessageBytes: BROWSER_MAX_INBOUND_BYTES,
  maxChunkedMessageBytes: MAX_BACKEND_LINE_BYTES,
};

/** The configured backends as `bridge/hello` lists them. */
export function backendInfos(config: Pick<HostConfig, 'backends' | 'defaultBackend'>): BackendInfo[] {
  return Object.entries(config.backends).map(([id, b]) => ({
    id,
    kind: b.kind,
    dialect: b.dialect,
    ...(b.description ? { description: b.description } : {}),
    ...(id === config.defaultBackend ? { isDefault: true } : {}),
  }));
}

/** The -32602 error for a backend id that is not configured, naming the configured ones and the fix. */
export function unknownBackend(wanted: string, config: Pick<HostConfig, 'backends' | 'file'>): RpcError {
  const ids = Object.keys(config.backends);
  const fix = RESERVED_BACKEND_IDS.has(wanted)
    ? `pick one of them ("${wanted}" is a reserved name and can never be a backend id)`
    : `pick one of them, or add "${wanted}" under "backends" in ${config.file}`;
  return new RpcError(ErrorCode.InvalidParams, `Unknown backend "${wanted}": the configured backends are ${ids.join(', ')}. Fix: ${fix}`, {
    backend: wanted,
    backends: ids,
  });
}

/** The config of backend `id`; throws the -32602 unknownBackend error unless the config has its own entry of that id. */
export function requireBackend(id: string, config: Pick<HostConfig, 'backends' | 'file'>): BackendConfig {
  const backend = findBackend(config, id);
  if (!backend) throw unknownBackend(id, config);
  return backend;
}

/**
 * Checks the two fields of bridge/hello the host reads. Checked by hand rather than with the protocol's Zod schema:
 * loading Zod would cost a third of the host's start-up before its first answer. Other fields pass through.
 */
export function checkHelloParams(raw: unknown): BridgeHelloParams {
  const invalid = (path: string, message: string): RpcError =>
    new RpcError(ErrorCode.InvalidParams, `Invalid params for bridge/hello at ${path}: ${message}`, {
      issues: [{ path: path.split('.'), message, code: 'invalid_type' }],
    });
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('params', 'expected an object');
  const params = raw as Record<string, unknown>;
  if (params['backend'] !== undefined && typeof params['backend'] !== 'string') throw invalid('backend', 'expected a string');
  const client = params['clientInfo'];
  if (client !== undefined) {
    if (typeof client !== 'object' || client === null) throw invalid('clientInfo', 'expected an object');
    const { name, version } = client as Record<string, unknown>;
    if (typeof name !== 'string') throw invalid('clientInfo.name', 'expected a string');
    if (typeof version !== 'string') throw invalid('clientInfo.version', 'expected a string');
  }
  return params as BridgeHelloParams;
}

