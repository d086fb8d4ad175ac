import { z } from 'zod';
import { ClientInfo } from './session';

/** A backend the host can serve from, as the host's config names it. */
export const BackendInfo = z.looseObject({
  id: z.string(),
  kind: z.enum(['embedded', 'command']),
  dialect: z.string(),
  description: z.string().optional(),
  isDefault: z.boolean().optional(),
});
export type BackendInfo = z.infer<typeof BackendInfo>;

/** Sizes the host enforces, in bytes. */
export const BridgeLimits = z.looseObject({
  maxOutboundFrameBytes: z.number().int().positive(),
  maxInboundMessageBytes: z.number().int().positive(),
  maxChunkedMessageBytes: z.number().int().positive(),
});
export type BridgeLimits = z.infer<typeof BridgeLimits>;

export const BridgeHelloParams = z.looseObject({
  backend: z.string().optional(),
  clientInfo: ClientInfo.optional(),
});
export type BridgeHelloParams = z.infer<typeof BridgeHelloParams>;
export const BridgeHelloResult = z.looseObject({
  hostVersion: z.string(),
  backend: z.string(),
  backends: z.array(BackendInfo),
  limits: BridgeLimits,
});
export type BridgeHelloResult = z.infer<typeof BridgeHelloResult>;

export const BridgeBackendRestartParams = z.looseObject({}).optional();
export type BridgeBackendRestartParams = z.infer<typeof BridgeBackendRestartParams>;
export const BridgeBackendRestartResult = z.looseObject({ backend: z.string() });
export type BridgeBackendRestartResult = z.infer<typeof BridgeBackendRestartResult>;

/** One piece of a message too large for one frame; pieces of one message share `id` and arrive in order. */
export const BridgeChunkNotification = z.looseObject({
  id: z.string(),
  index: z.number().int().nonnegative(),
  count: z.number().int().positive(),
  data: z.string(),
});
export type BridgeChunkNotification = z.infer<typeof BridgeChunkNotification>;

/** The backend process ended. */
export const BridgeBackendExitedNotification = z.looseObject({
  backend: z.string(),
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  stderrTail: z.array(z.string()),
  message: z.string(),
  restartInMs: z.number().int().nonnegative().optional(),
});
export type BridgeBackendExitedNotification = z.infer<typeof BridgeBackendExitedNotification>;
