/**
 * The one table of the protocol: every method, server request and notification with its wire name and schemas.
 * Dispatch, typed clients, validation and schema export are all derived from these rows. Each row's schemas are
 * exports of schema/*.ts, and the generated schema names them as those exports are named (`item/tool/call` ->
 * `ToolCallParams`, `ToolCallResult`).
 */
import type { z } from 'zod';
import * as A from './schema/approval';
import * as B from './schema/bridge';
import * as BC from './schema/bridge-config';
import * as BF from './schema/bridge-files';
import * as I from './schema/item';
import * as S from './schema/session';
import * as Th from './schema/thread';
import * as Tu from './schema/turn';

/** A request row: params and result schemas. */
export interface RequestSpec {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
}

/** Requests the client sends to the server. */
export const clientRequests = {
  initialize: { params: S.InitializeParams, result: S.InitializeResult },
  'thread/start': { params: Th.ThreadStartParams, result: Th.ThreadStartResult },
  'thread/read': { params: Th.ThreadReadParams, result: Th.ThreadReadResult },
  'thread/resume': { params: Th.ThreadResumeParams, result: Th.ThreadResumeResult },
  'thread/history/read': { params: Th.ThreadHistoryReadParams, result: Th.ThreadHistoryReadResult },
  'thread/list': { params: Th.ThreadListParams, result: Th.ThreadListResult },
  'thread/archive': { params: Th.ThreadArchiveParams, result: Th.ThreadArchiveResult },
  'thread/unarchive': { params: Th.ThreadUnarchiveParams, result: Th.ThreadUnarchiveResult },
  'thread/fork': { params: Th.ThreadForkParams, result: Th.ThreadForkResult },
  'thread/unsubscribe': { params: Th.ThreadUnsubscribeParams, result: Th.ThreadUnsubscribeResult },
  'turn/start': { params: Tu.TurnStartParams, result: Tu.TurnStartResult },
  'turn/interrupt': { params: Tu.TurnInterruptParams, result: Tu.TurnInterruptResult },
  'turn/steer': { params: Tu.TurnSteerParams, result: Tu.TurnSteerResult },
  'approval/resolve': { params: A.ApprovalResolveParams, result: A.ApprovalResolveResult },
  'schema/export': { params: S.SchemaExportParams, result: S.SchemaExportResult },
  'model/list': { params: S.ModelListParams, result: S.ModelListResult },
} as const satisfies Record<string, RequestSpec>;

/** Requests the server sends to the client. */
export const serverRequests = {
  'approval/request': { params: A.ApprovalRequestParams, result: A.ApprovalRequestResult },
  'item/tool/call': { params: I.ToolCallParams, result: I.ToolCallResult },
} as const satisfies Record<string, RequestSpec>;

/** Notifications the client sends to the server. */
export const clientNotifications = {
  initialized: S.InitializedNotification,
} as const satisfies Record<string, z.ZodType>;

/** Notifications the server sends to the client. */
export const serverNotifications = {
  'thread/started': Th.ThreadStartedNotification,
  'thread/status/changed': Th.ThreadStatusChangedNotification,
  'thread/archived': Th.ThreadArchivedNotification,
  'thread/unarchived': Th.ThreadUnarchivedNotification,
  'turn/started': Tu.TurnStartedNotification,
  'turn/completed': Tu.TurnCompletedNotification,
  'item/started': I.ItemStartedNotification,
  'item/agentMessage/delta': I.AgentMessageDeltaNotification,
  'item/reasoning/delta': I.ReasoningDeltaNotification,
  'item/completed': I.ItemCompletedNotification,
  'item/tool/call/cancelled': I.ToolCallCancelledNotification,
  'approval/requested': A.ApprovalRequestedNotification,
  'approval/resolved': A.ApprovalResolvedNotification,
  error: S.ErrorNotification,
  warning: S.WarningNotification,
} as const satisfies Record<string, z.ZodType>;

/** Requests the extension sends to the native host itself; they never reach a backend. */
export const bridgeRequests = {
  'bridge/hello': { params: B.BridgeHelloParams, result: B.BridgeHelloResult },
  'bridge/backend/restart': { params: B.BridgeBackendRestartParams, result: B.BridgeBackendRestartResult },
  'bridge/mcp/share': { params: B.BridgeMcpShareParams, result: B.BridgeMcpShareResult },
  'bridge/config/read': { params: BC.BridgeConfigReadParams, result: BC.BridgeConfigReadResult },
  'bridge/config/write': { params: BC.BridgeConfigWriteParams, result: BC.BridgeConfigWriteResult },
  'bridge/config/test': { params: BC.BridgeConfigTestParams, result: BC.BridgeConfigTestResult },
  'bridge/files/read': { params: BF.BridgeFilesReadParams, result: BF.BridgeFilesReadResult },
} as const satisfies Record<string, RequestSpec>;

/** Notifications between the extension and the native host only. */
export const bridgeNotifications = {
  'bridge/chunk': B.BridgeChunkNotification,
  'bridge/backend/exited': B.BridgeBackendExitedNotification,
  'bridge/mcp/clients': B.BridgeMcpClientsNotification,
} as const satisfies Record<string, z.ZodType>;

/** Every request the client side may send to the host (app-server methods plus the bridge's). */
export const hostRequests = { ...clientRequests, ...bridgeRequests } as const;
/** Every notification the client side may receive from the host. */
export const hostNotifications = { ...serverNotifications, ...bridgeNotifications } as const;

/** The rows of `clientRequests`; the generated TypeScript's `ClientRequests` holds their params and result types. */
export type ClientRequests = typeof clientRequests;
/** The rows of `serverRequests`; the generated TypeScript's `ServerRequests` holds their params and result types. */
export type ServerRequests = typeof serverRequests;
/** The rows of `clientNotifications`; the generated `ClientNotifications` holds their params types. */
export type ClientNotifications = typeof clientNotifications;
/** The rows of `serverNotifications`; the generated `ServerNotifications` holds their params types. */
export type ServerNotifications = typeof serverNotifications;
/** The rows of `hostRequests` (generated as `ClientRequests` and `BridgeRequests`). */
export type HostRequests = typeof hostRequests;
/** The rows of `hostNotifications` (generated as `ServerNotifications` and `BridgeNotifications`). */
export type HostNotifications = typeof hostNotifications;

/** Wire name of a client request, e.g. `thread/start`. */
export type ClientRequestMethod = keyof ClientRequests;
/** Wire name of a server request, e.g. `approval/request`. */
export type ServerRequestMethod = keyof ServerRequests;
/** Wire name of a server notification, e.g. `item/completed`. */
export type ServerNotificationMethod = keyof ServerNotifications;
/** Wire name of a client notification (`initialized`). */
export type ClientNotificationMethod = keyof ClientNotifications;

/** Params type of a request row. */
export type ParamsOf<T extends RequestSpec> = z.infer<T['params']>;
/** Result type of a request row. */
export type ResultOf<T extends RequestSpec> = z.infer<T['result']>;

/** Params of client request `M`. */
export type ClientRequestParams<M extends ClientRequestMethod> = ParamsOf<ClientRequests[M]>;
/** Result of client request `M`. */
export type ClientRequestResult<M extends ClientRequestMethod> = ResultOf<ClientRequests[M]>;
/** Params of server request `M`. */
export type ServerRequestParams<M extends ServerRequestMethod> = ParamsOf<ServerRequests[M]>;
/** Result of server request `M`. */
export type ServerRequestResult<M extends ServerRequestMethod> = ResultOf<ServerRequests[M]>;
/** Params of server notification `M`. */
export type ServerNotificationParams<M extends ServerNotificationMethod> = z.infer<ServerNotifications[M]>;

/** Wire names of all client requests, in table order. */
export const CLIENT_REQUEST_METHODS = Object.keys(clientRequests) as ClientRequestMethod[];
/** Wire names of all server notifications, in table order. */
export const SERVER_NOTIFICATION_METHODS = Object.keys(serverNotifications) as ServerNotificationMethod[];

export { PROTOCOL_VERSION } from './version';
