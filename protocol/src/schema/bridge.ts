import { z } from 'zod';
import { TimestampMs } from './common';
import { ClientInfo } from './session';

/** A backend the host can serve from, as the host's config names it. */
export const BackendInfo = z
  .looseObject({
    id: z.string().describe('Its key in the host config; what `bridge/hello` takes as `backend`.'),
    kind: z.enum(['embedded', 'command']).describe('`embedded`: in the host process; `command`: a child process.'),
    dialect: z
      .string()
      .describe('The protocol the backend speaks, which the host translates (e.g. `tether`, `codex`, `acp`).'),
    description: z.string().optional().describe('Words for the user, from the config.'),
    isDefault: z.boolean().optional().describe('The backend used when `bridge/hello` names none.'),
  })
  .describe("A backend the host can serve from, as the host's config names it.");
export type BackendInfo = z.infer<typeof BackendInfo>;

/** Sizes the host enforces, in bytes. */
export const BridgeLimits = z
  .looseObject({
    maxOutboundFrameBytes: z
      .number()
      .int()
      .positive()
      .describe('Largest frame the host sends to the browser; larger messages come as `bridge/chunk` pieces.'),
    maxInboundMessageBytes: z.number().int().positive().describe('Largest message the browser may send to the host.'),
    maxChunkedMessageBytes: z
      .number()
      .int()
      .positive()
      .describe('Largest message the host forwards from a backend (sent in pieces).'),
  })
  .describe('Sizes the host enforces, in bytes.');
export type BridgeLimits = z.infer<typeof BridgeLimits>;

/** `bridge/hello` (to the host): pick the backend for this connection; optional, and first when sent. */
export const BridgeHelloParams = z
  .looseObject({
    backend: z.string().optional().describe('A configured backend id; the default backend when absent.'),
    clientInfo: ClientInfo.optional(),
    protocolVersion: z
      .string()
      .optional()
      .describe("The protocol version the client speaks (`PROTOCOL_VERSION` of the extension's build)."),
  })
  .describe('`bridge/hello` (to the host): pick the backend for this connection; optional, and first when sent.');
export type BridgeHelloParams = z.infer<typeof BridgeHelloParams>;
/** The host's version, the backend now serving, the configured backends and the host's limits. */
export const BridgeHelloResult = z
  .looseObject({
    hostVersion: z.string().describe("The host package's version (`tether-bridge` on npm)."),
    protocolVersion: z
      .string()
      .optional()
      .describe('The protocol version (a date) the host speaks; hosts before version reporting send none.'),
    backend: z.string().describe('The id of the backend now serving this connection.'),
    backends: z.array(BackendInfo),
    limits: BridgeLimits,
    daemonVersion: z
      .string()
      .optional()
      .describe(
        'The version of the Tether daemon serving this connection (the host relays to it); absent when the host serves in-process.',
      ),
    daemonUnavailable: z
      .string()
      .optional()
      .describe(
        'Why the host serves in-process although it was set to relay to the daemon (it could not start or reach one).',
      ),
  })
  .describe("The host's version, the backend now serving, the configured backends and the host's limits.");
export type BridgeHelloResult = z.infer<typeof BridgeHelloResult>;

/** `bridge/backend/restart` (to the host): stop the backend process and start it again. */
export const BridgeBackendRestartParams = z
  .looseObject({})
  .optional()
  .describe('`bridge/backend/restart` (to the host): stop the backend process and start it again.');
export type BridgeBackendRestartParams = z.infer<typeof BridgeBackendRestartParams>;
/** The id of the restarted backend. */
export const BridgeBackendRestartResult = z
  .looseObject({ backend: z.string() })
  .describe('The id of the restarted backend.');
export type BridgeBackendRestartResult = z.infer<typeof BridgeBackendRestartResult>;

/** `bridge/chunk` (from the host): one piece of a message too large for one frame. */
export const BridgeChunkNotification = z
  .looseObject({
    id: z.string().describe('Shared by the pieces of one message.'),
    index: z.number().int().nonnegative().describe('Position of this piece, from 0; pieces arrive in order.'),
    count: z.number().int().positive().describe('How many pieces the message has.'),
    data: z.string().describe("This piece of the message's JSON text; the pieces joined are the whole message."),
  })
  .describe('`bridge/chunk` (from the host): one piece of a message too large for one frame.');
export type BridgeChunkNotification = z.infer<typeof BridgeChunkNotification>;

/** `bridge/backend/exited` (from the host): the backend process ended; requests in flight fail with -32050. */
export const BridgeBackendExitedNotification = z
  .looseObject({
    backend: z.string(),
    code: z.number().int().nullable().describe('Exit code; null when a signal ended it.'),
    signal: z.string().nullable().describe('The signal that ended it (e.g. `SIGKILL`); null when it exited.'),
    stderrTail: z.array(z.string()).describe('Its last lines of stderr, secrets redacted.'),
    message: z.string().describe('What happened, for the user.'),
    restartInMs: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('The host starts it again after this many milliseconds; absent when it will not.'),
  })
  .describe('`bridge/backend/exited` (from the host): the backend process ended; requests in flight fail with -32050.');
export type BridgeBackendExitedNotification = z.infer<typeof BridgeBackendExitedNotification>;

/** An MCP client connected through `tether mcp` with the host's external token; its name and version are its own claim. */
export const McpClientInfo = z
  .looseObject({
    id: z.string().describe('Identifies the connection while it lasts.'),
    name: z.string().describe('The name the client gave itself (MCP `clientInfo`): a claim, not proven.'),
    version: z.string().describe('The version the client gave itself.'),
    connectedAtMs: TimestampMs,
  })
  .describe(
    "An MCP client connected through `tether mcp` with the host's external token; its name and version are its own claim.",
  );
export type McpClientInfo = z.infer<typeof McpClientInfo>;

/** `bridge/mcp/share` (to the host): share a conversation's tab with external MCP clients, or stop sharing it. */
export const BridgeMcpShareParams = z
  .looseObject({
    threadId: z
      .string()
      .describe("The conversation whose tab external clients' calls act on: their `item/tool/call` names it."),
    shared: z.boolean().describe('True to share, false to stop.'),
  })
  .describe(
    "`bridge/mcp/share` (to the host): share a conversation's tab with external MCP clients, or stop sharing it.",
  );
export type BridgeMcpShareParams = z.infer<typeof BridgeMcpShareParams>;
/** What is shared now: external calls go to the first thread (the one shared last); the clients connected now. */
export const BridgeMcpShareResult = z
  .looseObject({
    shared: z.array(z.string()).describe('The shared threads, the one shared last first.'),
    clients: z.array(McpClientInfo),
  })
  .describe(
    'What is shared now: external calls go to the first thread (the one shared last); the clients connected now.',
  );
export type BridgeMcpShareResult = z.infer<typeof BridgeMcpShareResult>;

/** `bridge/mcp/clients` (from the host): the external MCP clients connected now, sent whenever one comes or goes. */
export const BridgeMcpClientsNotification = z
  .looseObject({ clients: z.array(McpClientInfo) })
  .describe(
    '`bridge/mcp/clients` (from the host): the external MCP clients connected now, sent whenever one comes or goes.',
  );
export type BridgeMcpClientsNotification = z.infer<typeof BridgeMcpClientsNotification>;
