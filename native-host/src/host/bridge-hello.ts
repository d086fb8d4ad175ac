/**
 * The host's side of `bridge/hello`: the backends it lists (and the error for one that is not configured) and the
 * limits it reports.
 */
import type { BackendInfo, BridgeLimits } from '@tether/protocol';
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
  return new RpcError(
    ErrorCode.InvalidParams,
    `Unknown backend "${wanted}": the configured backends are ${ids.join(', ')}. Fix: ${fix}`,
    {
      backend: wanted,
      backends: ids,
    },
  );
}

/** The config of backend `id`; throws the -32602 unknownBackend error unless the config has its own entry of that id. */
export function requireBackend(id: string, config: Pick<HostConfig, 'backends' | 'file'>): BackendConfig {
  const backend = findBackend(config, id);
  if (!backend) throw unknownBackend(id, config);
  return backend;
}
