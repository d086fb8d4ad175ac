/**
 * Tether app-server protocol 2026-06-02: the type of every message.
 * Generated from the Zod schemas in protocol/src by `npx tether app-server generate-ts --out DIR`; do not edit.
 */

export type AgentMessageItem = {
  id: string;
  status: ItemStatus;
  createdAtMs: TimestampMs;
  completedAtMs?: TimestampMs;
  turnId?: string;
  type: "agentMessage";
  content: TextContent;
  [key: string]: unknown;
};

export type ApprovalDecision = "allow" | "allow_session" | "deny";

export type ApprovalOutcome = "allow" | "allow_session" | "deny" | "cancelled" | "timeout";

export type ApprovalRequestParams = {
  threadId: string;
  turnId: string;
  requestId: string;
  toolName: string;
  preview: string;
  arguments?: unknown;
  choices: ApprovalDecision[];
  sessionScope?: ApprovalSessionScope;
  [key: string]: unknown;
};

export type ApprovalRequestResult = {
  decision: ApprovalDecision;
  [key: string]: unknown;
};

export type ApprovalRequestedNotification = {
  threadId: string;
  turnId: string;
  requestId: string;
  toolName: string;
  preview: string;
  arguments?: unknown;
  choices: ApprovalDecision[];
  sessionScope?: ApprovalSessionScope;
  [key: string]: unknown;
};

export type ApprovalResolveParams = {
  threadId: string;
  turnId: string;
  requestId: string;
  decision: ApprovalDecision;
  [key: string]: unknown;
};

export type ApprovalResolveResult = {
  [key: string]: unknown;
};

export type ApprovalResolvedNotification = {
  threadId: string;
  turnId: string;
  requestId: string;
  decision: ApprovalOutcome;
  [key: string]: unknown;
};

export type ApprovalSessionScope = "tool" | "command";

export type BackendInfo = {
  id: string;
  kind: "embedded" | "command";
  dialect: string;
  description?: string;
  isDefault?: boolean;
  [key: string]: unknown;
};

export type BridgeBackendExitedNotification = {
  backend: string;
  code: number | null;
  signal: string | null;
  stderrTail: string[];
  message: string;
  restartInMs?: number;
  [key: string]: unknown;
};

export type BridgeBackendRestartParams = {
  [key: string]: unknown;
};

export type BridgeBackendRestartResult = {
  backend: string;
  [key: string]: unknown;
};

export type BridgeChunkNotification = {
  id: string;
  index: number;
  count: number;
  data: string;
  [key: string]: unknown;
};

export type BridgeHelloParams = {
  backend?: string;
  clientInfo?: ClientInfo;
  [key: string]: unknown;
};

export type BridgeHelloResult = {
  hostVersion: string;
  backend: string;
  backends: BackendInfo[];
  limits: BridgeLimits;
  [key: string]: unknown;
};

export type BridgeLimits = {
  maxOutboundFrameBytes: number;
  maxInboundMessageBytes: number;
  maxChunkedMessageBytes: number;
  [key: string]: unknown;
};

export type ClientInfo = {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
};

export type ClientTool = {
  name: string;
  description: string;
  inputSchema: {
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

export type ErrorContent = {
  message: string;
  code?: string | number;
  [key: string]: unknown;
};

export type ErrorEnvelope = {
  jsonrpc?: "2.0";
  id: RequestId | null;
  error: ErrorObject;
  [key: string]: unknown;
};

export type ErrorItem = {
  id: string;
  status: ItemStatus;
  createdAtMs: TimestampMs;
  completedAtMs?: TimestampMs;
  turnId?: string;
  type: "error";
  content: ErrorContent;
  [key: string]: unknown;
};

export type ErrorNotification = {
  message: string;
  threadId?: string;
  turnId?: string;
  code?: string | number;
  willRetry?: boolean;
  [key: string]: unknown;
};

export type ErrorObject = {
  code: number;
  message: string;
  data?: unknown;
  [key: string]: unknown;
};

/** Cursor of the older page (thread/history/read); null when none */
export type HistoryCursor = string | null;

export type InitializeParams = {
  clientInfo: ClientInfo;
  capabilities?: {
    experimentalApi?: boolean;
    optOutNotificationMethods?: string[];
    clientTools?: ClientTool[];
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

export type InitializeResult = {
  serverInfo: {
    name: string;
    version: string;
    [key: string]: unknown;
  };
  protocolVersion: string;
  supportedTransports: string[];
  capabilities: ServerCapabilities;
  [key: string]: unknown;
};

export type InitializedNotification = {
  [key: string]: unknown;
};

export type Item = UserMessageItem | AgentMessageItem | ReasoningItem | ToolCallItem | ErrorItem;

export type ItemAgentMessageDeltaNotification = {
  threadId: string;
  turnId: string;
  itemId: string;
  delta: string;
  [key: string]: unknown;
};

export type ItemCompletedNotification = {
  threadId: string;
  turnId: string;
  item: Item;
  [key: string]: unknown;
};

export type ItemReasoningDeltaNotification = {
  threadId: string;
  turnId: string;
  itemId: string;
  delta: string;
  [key: string]: unknown;
};

export type ItemStartedNotification = {
  threadId: string;
  turnId: string;
  item: Item;
  [key: string]: unknown;
};

export type ItemStatus = "inProgress" | "completed" | "failed" | "declined";

export type ItemToolCallParams = {
  threadId: string;
  turnId: string;
  callId: string;
  tool: string;
  arguments: unknown;
  [key: string]: unknown;
};

export type ItemToolCallResult = {
  success: boolean;
  content: ToolContent[];
  [key: string]: unknown;
};

export type ModelInfo = {
  id: string;
  displayName?: string;
  provider?: string;
  isDefault?: boolean;
  [key: string]: unknown;
};

export type ModelListParams = {
  [key: string]: unknown;
};

export type ModelListResult = {
  models: ModelInfo[];
  [key: string]: unknown;
};

export type NotificationEnvelope = {
  jsonrpc?: "2.0";
  method: string;
  params?: unknown;
  [key: string]: unknown;
};

export type ReasoningItem = {
  id: string;
  status: ItemStatus;
  createdAtMs: TimestampMs;
  completedAtMs?: TimestampMs;
  turnId?: string;
  type: "reasoning";
  content: TextContent;
  [key: string]: unknown;
};

export type RequestEnvelope = {
  jsonrpc?: "2.0";
  id: RequestId;
  method: string;
  params?: unknown;
  [key: string]: unknown;
};

export type RequestId = number | string;

export type ResultEnvelope = {
  jsonrpc?: "2.0";
  id: RequestId;
  result: unknown;
  [key: string]: unknown;
};

export type SchemaExportParams = {
  [key: string]: unknown;
};

export type SchemaExportResult = {
  jsonSchema: {
    [key: string]: unknown;
  };
  typescript: string;
  [key: string]: unknown;
};

export type ServerCapabilities = {
  thread?: boolean;
  turn?: boolean;
  itemStream?: boolean;
  approvalRequests?: boolean;
  eventReplay?: boolean;
  schemaExport?: boolean;
  steer?: boolean;
  fork?: boolean;
  archive?: boolean;
  modelList?: boolean;
  clientTools?: boolean;
  [key: string]: unknown;
};

export type TextContent = {
  text: string;
  [key: string]: unknown;
};

export type Thread = {
  id: string;
  title: string;
  model: string;
  status: ThreadStatus;
  archived: boolean;
  ephemeral: boolean;
  createdAtMs: TimestampMs;
  updatedAtMs: TimestampMs;
  cwd?: string;
  [key: string]: unknown;
};

export type ThreadArchiveParams = {
  threadId: string;
  [key: string]: unknown;
};

export type ThreadArchiveResult = {
  thread: Thread;
  [key: string]: unknown;
};

export type ThreadArchivedNotification = {
  threadId: string;
  [key: string]: unknown;
};

export type ThreadForkParams = {
  threadId: string;
  afterItemId?: string;
  title?: string;
  [key: string]: unknown;
};

export type ThreadForkResult = {
  thread: Thread;
  [key: string]: unknown;
};

export type ThreadHistoryReadParams = {
  threadId: string;
  cursor: string;
  [key: string]: unknown;
};

export type ThreadHistoryReadResult = {
  items: Item[];
  olderCursor?: HistoryCursor;
  [key: string]: unknown;
};

export type ThreadListParams = {
  cursor?: string | null;
  limit?: number;
  archived?: boolean;
  [key: string]: unknown;
};

export type ThreadListResult = {
  threads: Thread[];
  nextCursor?: string | null;
  [key: string]: unknown;
};

export type ThreadReadParams = {
  threadId: string;
  afterItemId?: string;
  [key: string]: unknown;
};

export type ThreadReadResult = {
  thread: Thread;
  items: Item[];
  olderCursor?: HistoryCursor;
  [key: string]: unknown;
};

export type ThreadResumeParams = {
  threadId: string;
  subscribe?: boolean;
  [key: string]: unknown;
};

export type ThreadResumeResult = {
  thread: Thread;
  items: Item[];
  activeTurn?: Turn;
  olderCursor?: HistoryCursor;
  [key: string]: unknown;
};

export type ThreadStartParams = {
  title?: string;
  model?: string;
  ephemeral?: boolean;
  cwd?: string;
  [key: string]: unknown;
};

export type ThreadStartResult = {
  thread: Thread;
  [key: string]: unknown;
};

export type ThreadStartedNotification = {
  thread: Thread;
  [key: string]: unknown;
};

export type ThreadStatus = "idle" | "running" | "waitingOnApproval" | "error";

export type ThreadStatusChangedNotification = {
  threadId: string;
  status: ThreadStatus;
  [key: string]: unknown;
};

export type ThreadUnarchiveParams = {
  threadId: string;
  [key: string]: unknown;
};

export type ThreadUnarchiveResult = {
  thread: Thread;
  [key: string]: unknown;
};

export type ThreadUnarchivedNotification = {
  threadId: string;
  [key: string]: unknown;
};

export type ThreadUnsubscribeParams = {
  threadId: string;
  [key: string]: unknown;
};

export type ThreadUnsubscribeResult = {
  [key: string]: unknown;
};

export type TimestampMs = number;

export type ToolCallContent = {
  toolName: string;
  arguments?: unknown;
  status?: string;
  result?: unknown;
  error?: string;
  [key: string]: unknown;
};

export type ToolCallItem = {
  id: string;
  status: ItemStatus;
  createdAtMs: TimestampMs;
  completedAtMs?: TimestampMs;
  turnId?: string;
  type: "toolCall";
  content: ToolCallContent;
  [key: string]: unknown;
};

export type ToolContent = {
  type: "text";
  text: string;
  [key: string]: unknown;
} | {
  type: "image";
  mimeType: string;
  data: string;
  [key: string]: unknown;
};

export type Turn = {
  id: string;
  threadId: string;
  status: TurnStatus;
  input: UserInput[];
  startedAtMs?: TimestampMs;
  completedAtMs?: TimestampMs;
  error?: TurnError;
  [key: string]: unknown;
};

export type TurnCompletedNotification = {
  turn: Turn;
  [key: string]: unknown;
};

export type TurnError = {
  message: string;
  code?: string | number;
  [key: string]: unknown;
};

export type TurnInterruptParams = {
  threadId: string;
  turnId: string;
  [key: string]: unknown;
};

export type TurnInterruptResult = {
  turn: Turn;
  [key: string]: unknown;
};

export type TurnStartParams = {
  threadId: string;
  input: UserInput[];
  model?: string;
  [key: string]: unknown;
};

export type TurnStartResult = {
  turn: Turn;
  [key: string]: unknown;
};

export type TurnStartedNotification = {
  turn: Turn;
  [key: string]: unknown;
};

export type TurnStatus = "running" | "completed" | "interrupted" | "failed";

export type TurnSteerParams = {
  threadId: string;
  expectedTurnId: string;
  input: UserInput[];
  [key: string]: unknown;
};

export type TurnSteerResult = {
  threadId: string;
  turnId: string;
  queued: boolean;
  [key: string]: unknown;
};

export type UserInput = {
  type?: "text";
  text: string;
  [key: string]: unknown;
};

export type UserMessageItem = {
  id: string;
  status: ItemStatus;
  createdAtMs: TimestampMs;
  completedAtMs?: TimestampMs;
  turnId?: string;
  type: "userMessage";
  content: TextContent;
  [key: string]: unknown;
};

export type WarningNotification = {
  message: string;
  threadId?: string;
  turnId?: string;
  [key: string]: unknown;
};

export type ClientRequests = {
  "initialize": { params: InitializeParams; result: InitializeResult; };
  "thread/start": { params: ThreadStartParams; result: ThreadStartResult; };
  "thread/read": { params: ThreadReadParams; result: ThreadReadResult; };
  "thread/resume": { params: ThreadResumeParams; result: ThreadResumeResult; };
  "thread/history/read": { params: ThreadHistoryReadParams; result: ThreadHistoryReadResult; };
  "thread/list": { params: ThreadListParams; result: ThreadListResult; };
  "thread/archive": { params: ThreadArchiveParams; result: ThreadArchiveResult; };
  "thread/unarchive": { params: ThreadUnarchiveParams; result: ThreadUnarchiveResult; };
  "thread/fork": { params: ThreadForkParams; result: ThreadForkResult; };
  "thread/unsubscribe": { params: ThreadUnsubscribeParams; result: ThreadUnsubscribeResult; };
  "turn/start": { params: TurnStartParams; result: TurnStartResult; };
  "turn/interrupt": { params: TurnInterruptParams; result: TurnInterruptResult; };
  "turn/steer": { params: TurnSteerParams; result: TurnSteerResult; };
  "approval/resolve": { params: ApprovalResolveParams; result: ApprovalResolveResult; };
  "schema/export": { params?: SchemaExportParams; result: SchemaExportResult; };
  "model/list": { params?: ModelListParams; result: ModelListResult; };
};

export type ClientNotifications = {
  "initialized": { params?: InitializedNotification; };
};

export type ServerRequests = {
  "approval/request": { params: ApprovalRequestParams; result: ApprovalRequestResult; };
  "item/tool/call": { params: ItemToolCallParams; result: ItemToolCallResult; };
};

export type ServerNotifications = {
  "thread/started": { params: ThreadStartedNotification; };
  "thread/status/changed": { params: ThreadStatusChangedNotification; };
  "thread/archived": { params: ThreadArchivedNotification; };
  "thread/unarchived": { params: ThreadUnarchivedNotification; };
  "turn/started": { params: TurnStartedNotification; };
  "turn/completed": { params: TurnCompletedNotification; };
  "item/started": { params: ItemStartedNotification; };
  "item/agentMessage/delta": { params: ItemAgentMessageDeltaNotification; };
  "item/reasoning/delta": { params: ItemReasoningDeltaNotification; };
  "item/completed": { params: ItemCompletedNotification; };
  "approval/requested": { params: ApprovalRequestedNotification; };
  "approval/resolved": { params: ApprovalResolvedNotification; };
  "error": { params: ErrorNotification; };
  "warning": { params: WarningNotification; };
};

export type BridgeRequests = {
  "bridge/hello": { params: BridgeHelloParams; result: BridgeHelloResult; };
  "bridge/backend/restart": { params?: BridgeBackendRestartParams; result: BridgeBackendRestartResult; };
};

export type BridgeNotifications = {
  "bridge/chunk": { params: BridgeChunkNotification; };
  "bridge/backend/exited": { params: BridgeBackendExitedNotification; };
};
