/**
 * Tether app-server protocol 2026-06-02: the type of every message.
 * Generated from the Zod schemas in protocol/src by `npx tether app-server generate-ts --out DIR`; do not edit.
 */

/** `item/agentMessage/delta`: more text of an in-progress agent message. */
export type AgentMessageDeltaNotification = {
  threadId: string;
  turnId: string;
  /** The item whose `content.text` grows. */
  itemId: string;
  /** Text to append, in order. */
  delta: string;
  [key: string]: unknown;
};

/** An item of type `agentMessage`: text the agent wrote to the user, streamed by `item/agentMessage/delta`. */
export type AgentMessageItem = {
  /** Unique within its thread; set by the server. */
  id: string;
  status: ItemStatus;
  /** When the item started. */
  createdAtMs: TimestampMs;
  /** When the item ended; absent while it is `inProgress`. */
  completedAtMs?: TimestampMs;
  /** The turn that produced the item; absent when the backend does not say. */
  turnId?: string;
  type: "agentMessage";
  content: TextContent;
  [key: string]: unknown;
};

/** A decision the client can give: allow once, allow for the session (see ApprovalSessionScope), or deny. */
export type ApprovalDecision = "allow" | "allow_session" | "deny";

/** How an approval ended: a client decision, or withdrawn (`cancelled`) or expired (`timeout`) by the server. */
export type ApprovalOutcome = "allow" | "allow_session" | "deny" | "cancelled" | "timeout";

/** `approval/request` (server request): ask the user whether a tool call may run. */
export type ApprovalRequestParams = {
  threadId: string;
  turnId: string;
  /** Identifies the approval; set by the server. */
  requestId: string;
  toolName: string;
  /** What the call will do, for the user to read (e.g. the command line). */
  preview: string;
  /** The call's arguments as the model gave them. */
  arguments?: unknown;
  /** The decisions offered; an answer must be one of them. */
  choices: ApprovalDecision[];
  /** Set by the backend, never by the model; the client words the `allow_session` choice from it. */
  sessionScope?: ApprovalSessionScope;
  [key: string]: unknown;
};

/** The answer to `approval/request`: one of the offered `choices`. */
export type ApprovalRequestResult = {
  decision: ApprovalDecision;
  [key: string]: unknown;
};

/** `approval/requested`: an approval is waiting, sent before its `approval/request` (same params). */
export type ApprovalRequestedNotification = ApprovalRequestParams;

/** `approval/resolve`: decide an approval without answering its server request (same effect). */
export type ApprovalResolveParams = {
  threadId: string;
  turnId: string;
  /** Identifies the approval; set by the server. */
  requestId: string;
  decision: ApprovalDecision;
  [key: string]: unknown;
};

/** Nothing: the approval is decided; `approval/resolved` follows. */
export type ApprovalResolveResult = EmptyObject;

/** `approval/resolved`: an approval ended, by a decision, or withdrawn or timed out by the server. */
export type ApprovalResolvedNotification = {
  threadId: string;
  turnId: string;
  /** Identifies the approval; set by the server. */
  requestId: string;
  decision: ApprovalOutcome;
  [key: string]: unknown;
};

/** Reach of `allow_session`: the tool in the rest of the thread (`tool`, default) or this exact command (`command`). */
export type ApprovalSessionScope = "tool" | "command";

/** A backend the host can serve from, as the host's config names it. */
export type BackendInfo = {
  /** Its key in the host config; what `bridge/hello` takes as `backend`. */
  id: string;
  /** `embedded`: in the host process; `command`: a child process. */
  kind: "embedded" | "command";
  /** The protocol the backend speaks, which the host translates (e.g. `tether`, `codex`, `acp`). */
  dialect: string;
  /** Words for the user, from the config. */
  description?: string;
  /** The backend used when `bridge/hello` names none. */
  isDefault?: boolean;
  [key: string]: unknown;
};

/** An agent Tether can sit in front of (`tether doctor` lists the same), and whether the host found it. */
export type BridgeAgentPreset = {
  /** The backend id it gets in the config file (`codex`, `copilot`, `claude`, `gemini`). */
  id: string;
  label: string;
  dialect: string;
  /** Where the host found its command on the PATH; absent when it did not. */
  path?: string;
  /** How to install it when it is missing. */
  install: string;
  /** Whether the config file has a backend of this id. */
  configured: boolean;
  [key: string]: unknown;
};

/** `bridge/backend/exited` (from the host): the backend process ended; requests in flight fail with -32050. */
export type BridgeBackendExitedNotification = {
  backend: string;
  /** Exit code; null when a signal ended it. */
  code: number | null;
  /** The signal that ended it (e.g. `SIGKILL`); null when it exited. */
  signal: string | null;
  /** Its last lines of stderr, secrets redacted. */
  stderrTail: string[];
  /** What happened, for the user. */
  message: string;
  /** The host starts it again after this many milliseconds; absent when it will not. */
  restartInMs?: number;
  [key: string]: unknown;
};

/** `bridge/backend/restart` (to the host): stop the backend process and start it again. */
export type BridgeBackendRestartParams = {
  [key: string]: unknown;
};

/** The id of the restarted backend. */
export type BridgeBackendRestartResult = {
  backend: string;
  [key: string]: unknown;
};

/** `bridge/chunk` (from the host): one piece of a message too large for one frame. */
export type BridgeChunkNotification = {
  /** Shared by the pieces of one message. */
  id: string;
  /** Position of this piece, from 0; pieces arrive in order. */
  index: number;
  /** How many pieces the message has. */
  count: number;
  /** This piece of the message's JSON text; the pieces joined are the whole message. */
  data: string;
  [key: string]: unknown;
};

/** `bridge/config/read` (to the host): its model settings, without any key; optionally look for local servers. */
export type BridgeConfigReadParams = {
  /** Also look for Ollama and LM Studio on this computer (default false). */
  detectLocal?: boolean;
  [key: string]: unknown;
};

/** The settings. */
export type BridgeConfigReadResult = BridgeConfigState;

/** The host's model settings: the endpoint of its built-in backend, the agents it found, the default backend. */
export type BridgeConfigState = {
  /** The config file the host reads and writes. */
  file: string;
  defaultBackend: string;
  /** Null when no endpoint is saved in the config file. */
  openai: BridgeModelSettings | null;
  presets: BridgeAgentPreset[];
  /** Local model servers, when the request asked to look for them. */
  local?: BridgeLocalModelServer[];
  [key: string]: unknown;
};

/** `bridge/config/test` (to the host): ask an endpoint for its models with these settings; without `apiKey`, the saved key is used when the base URL is the saved one. Fails with what went wrong. */
export type BridgeConfigTestParams = {
  baseUrl: string;
  apiKey?: string;
  [key: string]: unknown;
};

/** The model ids the endpoint lists. */
export type BridgeConfigTestResult = {
  models: string[];
  [key: string]: unknown;
};

/** `bridge/config/write` (to the host): save an endpoint for the built-in backend, or enable an agent preset; either becomes the default backend. The file is written private (0600); the browser reconnects to use it. */
export type BridgeConfigWriteParams = {
  openai?: BridgeModelSettingsInput;
  /** The id of a preset whose command the host found. */
  preset?: string;
  [key: string]: unknown;
};

/** The settings as saved. */
export type BridgeConfigWriteResult = BridgeConfigState;

/** One file as the host found it. */
export type BridgeFileInfo = {
  /** The path as asked for. */
  path: string;
  /** Its file name. */
  name: string;
  /** Its MIME type, from its extension (application/octet-stream when unknown). */
  type: string;
  /** Its size in bytes. */
  size: number;
  /** Its content, when asked for with `bytes`. */
  base64?: string;
  [key: string]: unknown;
};

/** `bridge/files/read` (to the host): describe files by absolute path, and with `bytes` return their content. */
export type BridgeFilesReadParams = {
  /** Absolute paths of regular files on this computer. */
  paths: string[];
  /** Also return each file's content as base64, at most 32 MiB in all (default false: only check and describe them). */
  bytes?: boolean;
  [key: string]: unknown;
};

/** The files, in the order asked for. */
export type BridgeFilesReadResult = {
  files: BridgeFileInfo[];
  [key: string]: unknown;
};

/** `bridge/hello` (to the host): pick the backend for this connection; optional, and first when sent. */
export type BridgeHelloParams = {
  /** A configured backend id; the default backend when absent. */
  backend?: string;
  clientInfo?: ClientInfo;
  /** The protocol version the client speaks (`PROTOCOL_VERSION` of the extension's build). */
  protocolVersion?: string;
  [key: string]: unknown;
};

/** The host's version, the backend now serving, the configured backends and the host's limits. */
export type BridgeHelloResult = {
  /** The host package's version (`tether-bridge` on npm). */
  hostVersion: string;
  /** The protocol version (a date) the host speaks; hosts before version reporting send none. */
  protocolVersion?: string;
  /** The id of the backend now serving this connection. */
  backend: string;
  backends: BackendInfo[];
  limits: BridgeLimits;
  /** The version of the Tether daemon serving this connection (the host relays to it); absent when the host serves in-process. */
  daemonVersion?: string;
  /** Why the host serves in-process although it was set to relay to the daemon (it could not start or reach one). */
  daemonUnavailable?: string;
  [key: string]: unknown;
};

/** Sizes the host enforces, in bytes. */
export type BridgeLimits = {
  /** Largest frame the host sends to the browser; larger messages come as `bridge/chunk` pieces. */
  maxOutboundFrameBytes: number;
  /** Largest message the browser may send to the host. */
  maxInboundMessageBytes: number;
  /** Largest message the host forwards from a backend (sent in pieces). */
  maxChunkedMessageBytes: number;
  [key: string]: unknown;
};

/** A model server on this computer the host looked for (Ollama, LM Studio), and the models it lists. */
export type BridgeLocalModelServer = {
  id: "ollama" | "lmstudio";
  label: string;
  baseUrl: string;
  /** Whether it answered. */
  running: boolean;
  /** The ids it lists; empty when it is not running. */
  models: string[];
  [key: string]: unknown;
};

/** `bridge/mcp/clients` (from the host): the external MCP clients connected now, sent whenever one comes or goes. */
export type BridgeMcpClientsNotification = {
  clients: McpClientInfo[];
  [key: string]: unknown;
};

/** `bridge/mcp/share` (to the host): share a conversation's tab with external MCP clients, or stop sharing it. */
export type BridgeMcpShareParams = {
  /** The conversation whose tab external clients' calls act on: their `item/tool/call` names it. */
  threadId: string;
  /** True to share, false to stop. */
  shared: boolean;
  [key: string]: unknown;
};

/** What is shared now: external calls go to the first thread (the one shared last); the clients connected now. */
export type BridgeMcpShareResult = {
  /** The shared threads, the one shared last first. */
  shared: string[];
  clients: McpClientInfo[];
  [key: string]: unknown;
};

/** The OpenAI-compatible endpoint of the built-in backend, as the host shows it: never its key. */
export type BridgeModelSettings = {
  /** The base URL, e.g. `http://127.0.0.1:11434/v1`, with any credentials in it masked. */
  baseUrl: string;
  /** The model id new threads use; absent when none is set. */
  model?: string;
  /** Whether a key is saved (the key itself is never sent). */
  hasApiKey: boolean;
  [key: string]: unknown;
};

/** The endpoint to save: `apiKey` absent keeps the saved key, null removes it. */
export type BridgeModelSettingsInput = {
  baseUrl: string;
  apiKey?: string | null;
  model?: string;
  [key: string]: unknown;
};

/** Who the client is: its name, version and optional display title. */
export type ClientInfo = {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
};

/** A tool that the client runs, declared at `initialize` and offered to the model. */
export type ClientTool = {
  /** The name the model calls it by, and `item/tool/call` sends back as `tool`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of its arguments. */
  inputSchema: {
    [key: string]: unknown;
  };
  /** What the tool does to the page; the host passes it on to MCP clients, which skip their own prompt for read-only tools. */
  annotations?: ToolAnnotations;
  [key: string]: unknown;
};

/** The empty params or result object `{}` (extra fields tolerated). */
export type EmptyObject = {
  [key: string]: unknown;
};

/** An error shown in the thread, in words a user can act on. */
export type ErrorContent = UserError;

/** An error response: `{id, error}`; id is null when the request could not be read. */
export type ErrorEnvelope = {
  /** `2.0` when the peer sends it; accepted on input, left out on output unless a connection asks for it. */
  jsonrpc?: "2.0";
  id: RequestId | null;
  error: ErrorObject;
  [key: string]: unknown;
};

/** An item of type `error`: an error shown in the thread. */
export type ErrorItem = {
  /** Unique within its thread; set by the server. */
  id: string;
  status: ItemStatus;
  /** When the item started. */
  createdAtMs: TimestampMs;
  /** When the item ended; absent while it is `inProgress`. */
  completedAtMs?: TimestampMs;
  /** The turn that produced the item; absent when the backend does not say. */
  turnId?: string;
  type: "error";
  content: ErrorContent;
  [key: string]: unknown;
};

/** `error`: an error the server reports outside any response. */
export type ErrorNotification = {
  message: string;
  /** The thread it concerns, if any. */
  threadId?: string;
  /** The turn it concerns, if any. */
  turnId?: string;
  /** A JSON-RPC error code, or the backend's own error name. */
  code?: string | number;
  /** The server retries by itself; the turn goes on. */
  willRetry?: boolean;
  [key: string]: unknown;
};

/** The error object of a JSON-RPC error response. */
export type ErrorObject = {
  /** The JSON-RPC error code; Tether uses the codes of ErrorCode (protocol/src/errors.ts). */
  code: number;
  /** What happened and what to do about it, for a person. */
  message: string;
  /** Details for a program, e.g. the Zod issues of an invalid-params error. */
  data?: unknown;
  [key: string]: unknown;
};

/** Where the page before this one ends, for `thread/history/read`; opaque; null or absent when none is older. */
export type HistoryCursor = string | null;

/** `initialize`: the first request of a connection; says who the client is and what it wants. */
export type InitializeParams = {
  clientInfo: ClientInfo;
  /** What the client asks of this connection; absent or null asks for nothing. */
  capabilities?: {
    /** Allow experimental methods (else they answer -32012). */
    experimentalApi?: boolean;
    /** Notification methods never to send on this connection. */
    optOutNotificationMethods?: string[];
    /** Tools the client runs when the server sends `item/tool/call`. */
    clientTools?: ClientTool[];
    [key: string]: unknown;
  } | null;
  [key: string]: unknown;
};

/** The answer to `initialize`: who the server is, the protocol version it speaks and what it can do. */
export type InitializeResult = {
  serverInfo: {
    name: string;
    version: string;
    [key: string]: unknown;
  };
  /** The protocol version, a date such as `2026-06-02`. */
  protocolVersion: string;
  /** Transports the server offers, e.g. `stdio`. */
  supportedTransports: string[];
  capabilities: ServerCapabilities;
  [key: string]: unknown;
};

/** `initialized` (client notification): the client is ready; the server may now send notifications. */
export type InitializedNotification = {
  [key: string]: unknown;
};

/** One entry of a thread's history, told apart by `type`. */
export type Item = UserMessageItem | AgentMessageItem | ReasoningItem | ToolCallItem | ErrorItem;

/** `item/completed`: an item ended; `item` is its final state, as history replays it. */
export type ItemCompletedNotification = {
  threadId: string;
  turnId: string;
  item: Item;
  [key: string]: unknown;
};

/** `item/started`: an item began, as it is at its start (usually `inProgress`). */
export type ItemStartedNotification = {
  threadId: string;
  turnId: string;
  item: Item;
  [key: string]: unknown;
};

/** Where an item is: `inProgress` until it ends; `declined` marks a tool call that the user refused. */
export type ItemStatus = "inProgress" | "completed" | "failed" | "declined";

/** An MCP client connected through `tether mcp` with the host's external token; its name and version are its own claim. */
export type McpClientInfo = {
  /** Identifies the connection while it lasts. */
  id: string;
  /** The name the client gave itself (MCP `clientInfo`): a claim, not proven. */
  name: string;
  /** The version the client gave itself. */
  version: string;
  connectedAtMs: TimestampMs;
  [key: string]: unknown;
};

/** A model the server can run. */
export type ModelInfo = {
  /** What `thread/start` and `turn/start` take as `model`. */
  id: string;
  displayName?: string;
  provider?: string;
  /** The model of a thread started without one. */
  isDefault?: boolean;
  [key: string]: unknown;
};

/** `model/list`: the models this server can run. */
export type ModelListParams = {
  [key: string]: unknown;
};

/** The models, possibly none. */
export type ModelListResult = {
  models: ModelInfo[];
  [key: string]: unknown;
};

/** A notification: `{method, params?}` with no id. */
export type NotificationEnvelope = {
  /** `2.0` when the peer sends it; accepted on input, left out on output unless a connection asks for it. */
  jsonrpc?: "2.0";
  method: string;
  params?: unknown;
  [key: string]: unknown;
};

/** `item/reasoning/delta`: more text of an in-progress reasoning item. */
export type ReasoningDeltaNotification = {
  threadId: string;
  turnId: string;
  /** The item whose `content.text` grows. */
  itemId: string;
  /** Text to append, in order. */
  delta: string;
  [key: string]: unknown;
};

/** An item of type `reasoning`: the model's reasoning text, streamed by `item/reasoning/delta`. */
export type ReasoningItem = {
  /** Unique within its thread; set by the server. */
  id: string;
  status: ItemStatus;
  /** When the item started. */
  createdAtMs: TimestampMs;
  /** When the item ended; absent while it is `inProgress`. */
  completedAtMs?: TimestampMs;
  /** The turn that produced the item; absent when the backend does not say. */
  turnId?: string;
  type: "reasoning";
  content: TextContent;
  [key: string]: unknown;
};

/** A request: `{id, method, params?}`; `jsonrpc` is accepted on input and optional. */
export type RequestEnvelope = {
  /** `2.0` when the peer sends it; accepted on input, left out on output unless a connection asks for it. */
  jsonrpc?: "2.0";
  id: RequestId;
  method: string;
  params?: unknown;
  [key: string]: unknown;
};

/** A JSON-RPC request id: an integer (0 included) or a string. */
export type RequestId = number | string;

/** A successful response: `{id, result}`. */
export type ResultEnvelope = {
  /** `2.0` when the peer sends it; accepted on input, left out on output unless a connection asks for it. */
  jsonrpc?: "2.0";
  id: RequestId;
  result: unknown;
  [key: string]: unknown;
};

/** `schema/export`: ask for the protocol's JSON Schema and TypeScript, as this server generates them. */
export type SchemaExportParams = {
  [key: string]: unknown;
};

/** The protocol's generated schema: the JSON Schema bundle and the TypeScript bundle's text. */
export type SchemaExportResult = {
  /** The bundle of protocol/schema/json/tether-protocol.schemas.json. */
  jsonSchema: {
    [key: string]: unknown;
  };
  /** The text of protocol/schema/typescript/tether-protocol.ts. */
  typescript: string;
  [key: string]: unknown;
};

/** What a server can do; a missing flag means unknown, `false` means not supported. */
export type ServerCapabilities = {
  /** `thread/start`, `thread/read` and `thread/list`. */
  thread?: boolean;
  /** `turn/start` and `turn/interrupt`. */
  turn?: boolean;
  /** Items and deltas stream as notifications during a turn. */
  itemStream?: boolean;
  /** It sends `approval/request` before risky tool calls. */
  approvalRequests?: boolean;
  /** `thread/resume` replays history and the running turn. */
  eventReplay?: boolean;
  /** `schema/export`. */
  schemaExport?: boolean;
  /** `turn/steer`. */
  steer?: boolean;
  /** `thread/fork`. */
  fork?: boolean;
  /** `thread/archive` and `thread/unarchive`. */
  archive?: boolean;
  /** `model/list`. */
  modelList?: boolean;
  /** It runs `capabilities.clientTools` through `item/tool/call`. */
  clientTools?: boolean;
  [key: string]: unknown;
};

/** The text of a message or of reasoning; while the item is in progress, deltas append to it. */
export type TextContent = {
  text: string;
  [key: string]: unknown;
};

/** A conversation with the agent: its settings and state, without its items. */
export type Thread = {
  id: string;
  title: string;
  /** The id of the model its turns use unless `turn/start` names another. */
  model: string;
  status: ThreadStatus;
  /** Hidden from `thread/list` unless it asks for archived threads. */
  archived: boolean;
  /** Kept in memory only: never saved, never listed, gone when the server stops. */
  ephemeral: boolean;
  createdAtMs: TimestampMs;
  /** Last activity; `thread/list` sorts by it, newest first. */
  updatedAtMs: TimestampMs;
  /** Directory its tools run in; absent when the backend has no such notion. */
  cwd?: string;
  /** The first line of its last message, for a list of threads; absent before the first message. */
  preview?: string;
  [key: string]: unknown;
};

/** `thread/archive`: hide a thread from `thread/list`; `thread/archived` follows. */
export type ThreadArchiveParams = ThreadIdParams;

/** The archived thread. */
export type ThreadArchiveResult = {
  thread: Thread;
  [key: string]: unknown;
};

/** `thread/archived`: a thread was archived. */
export type ThreadArchivedNotification = ThreadIdParams;

/** `thread/fork`: a new thread holding a copy of this one's completed items, up to `afterItemId`. */
export type ThreadForkParams = {
  threadId: string;
  /** The last item to copy (included); every item when absent. */
  afterItemId?: string;
  /** Title of the new thread; derived from the source when absent. */
  title?: string;
  [key: string]: unknown;
};

/** The new thread; `thread/started` follows. */
export type ThreadForkResult = {
  thread: Thread;
  [key: string]: unknown;
};

/** `thread/history/read`: the page of items before `cursor` (from `thread/read`, `thread/resume` or this method). */
export type ThreadHistoryReadParams = {
  threadId: string;
  /** An `olderCursor` of this thread. */
  cursor: string;
  [key: string]: unknown;
};

/** One older page of completed items, oldest first, and the cursor of the page before it. */
export type ThreadHistoryReadResult = {
  items: Item[];
  olderCursor?: HistoryCursor;
  unfinishedTurns?: UnfinishedTurns;
  [key: string]: unknown;
};

/** Params that name only a thread: `{threadId}`. */
export type ThreadIdParams = {
  threadId: string;
  [key: string]: unknown;
};

/** `thread/list`: one page of saved threads, most recently active first. */
export type ThreadListParams = {
  /** The `nextCursor` of the previous page; the first page when absent. */
  cursor?: string | null;
  /** Page size; the server picks one when absent. */
  limit?: number;
  /** List archived threads instead of the others (default false). */
  archived?: boolean;
  /** Only threads whose title or preview contains this text, ignoring case; all when absent or blank. */
  search?: string;
  [key: string]: unknown;
};

/** A page of threads and the cursor of the next one. */
export type ThreadListResult = {
  threads: Thread[];
  /** Pass it as `cursor` for the next page; null or absent on the last. */
  nextCursor?: string | null;
  [key: string]: unknown;
};

/** `thread/read`: with `afterItemId`, every item after it; otherwise the latest page of the thread's history. */
export type ThreadReadParams = {
  threadId: string;
  /** Read every item after this one (-32602 when the thread has no such item). */
  afterItemId?: string;
  [key: string]: unknown;
};

/** The thread and one page of its items, oldest first (the latest page, or those after `afterItemId`). */
export type ThreadReadResult = {
  thread: Thread;
  items: Item[];
  olderCursor?: HistoryCursor;
  unfinishedTurns?: UnfinishedTurns;
  [key: string]: unknown;
};

/** `thread/resume`: the latest page, the running turn, and (unless `subscribe` is false) the thread's notifications. */
export type ThreadResumeParams = {
  threadId: string;
  /** Resume after this item, the last one the client has: `items` are every item after it (those completed since, then the running turn's open ones) instead of the latest page; -32602 when the thread has no such item. */
  afterItemId?: string;
  /** Receive the thread's notifications on this connection (default true). */
  subscribe?: boolean;
  [key: string]: unknown;
};

/** The thread, its latest page of items (open items of the running turn last) and its running turn. */
export type ThreadResumeResult = {
  thread: Thread;
  items: Item[];
  /** The running turn; absent when none runs. */
  activeTurn?: Turn;
  olderCursor?: HistoryCursor;
  unfinishedTurns?: UnfinishedTurns;
  [key: string]: unknown;
};

/** `thread/start`: create a thread; `thread/started` follows the answer. */
export type ThreadStartParams = {
  title?: string;
  /** A model id from `model/list`; the server's default when absent. */
  model?: string;
  /** Keep the thread in memory only (default false). */
  ephemeral?: boolean;
  /** Directory for its tools, relative to the server's own; the server's when absent. */
  cwd?: string;
  [key: string]: unknown;
};

/** The new thread. */
export type ThreadStartResult = {
  thread: Thread;
  [key: string]: unknown;
};

/** `thread/started`: a thread was created (by `thread/start` or `thread/fork`). */
export type ThreadStartedNotification = {
  thread: Thread;
  [key: string]: unknown;
};

/** Where a thread is: idle, running a turn, waiting on an approval, or broken. */
export type ThreadStatus = "idle" | "running" | "waitingOnApproval" | "error";

/** `thread/status/changed`: a thread's status changed. */
export type ThreadStatusChangedNotification = {
  threadId: string;
  status: ThreadStatus;
  [key: string]: unknown;
};

/** `thread/unarchive`: list an archived thread again; `thread/unarchived` follows. */
export type ThreadUnarchiveParams = ThreadIdParams;

/** The thread, no longer archived. */
export type ThreadUnarchiveResult = {
  thread: Thread;
  [key: string]: unknown;
};

/** `thread/unarchived`: a thread was unarchived. */
export type ThreadUnarchivedNotification = ThreadIdParams;

/** `thread/unsubscribe`: stop sending this thread's notifications to this connection. */
export type ThreadUnsubscribeParams = ThreadIdParams;

/** Nothing: the connection is unsubscribed. */
export type ThreadUnsubscribeResult = EmptyObject;

/** A point in time in milliseconds since the Unix epoch (UTC). */
export type TimestampMs = number;

/** Hints about a client tool's effects, as MCP's tool annotations name them (hints for agents, never a permission). */
export type ToolAnnotations = {
  /** A short name for people. */
  title?: string;
  /** True when the tool only reads (the page, the tab list). */
  readOnlyHint?: boolean;
  /** True when what it changes may not be undone. */
  destructiveHint?: boolean;
  /** True when calling it again with the same arguments changes nothing more. */
  idempotentHint?: boolean;
  /** True when it reaches beyond the page (other sites, the network). */
  openWorldHint?: boolean;
  [key: string]: unknown;
};

/** Why a server stopped waiting for an `item/tool/call`: its caller cancelled it, or the caller's connection closed. */
export type ToolCallCancelReason = "cancelled" | "disconnected";

/** `item/tool/call/cancelled`: the server no longer waits for the `item/tool/call` with this `threadId` and `callId`; the client withdraws it, acts on no later decision for it, and sends it no answer. */
export type ToolCallCancelledNotification = {
  threadId: string;
  turnId: string;
  /** The `callId` of the withdrawn `item/tool/call`. */
  callId: string;
  reason: ToolCallCancelReason;
  [key: string]: unknown;
};

/** What a tool call did: its name, arguments, and once finished its result or error. */
export type ToolCallContent = {
  toolName: string;
  /** The arguments the model gave, as JSON. */
  arguments?: unknown;
  /** The backend's word for the call's state (e.g. `running`, `success`). */
  status?: string;
  /** What the tool returned; absent until it ends, and when it failed. */
  result?: unknown;
  /** Why the tool failed or was declined. */
  error?: string;
  [key: string]: unknown;
};

/** An item of type `toolCall`: one call of a tool by the agent, from request to result. */
export type ToolCallItem = {
  /** Unique within its thread; set by the server. */
  id: string;
  status: ItemStatus;
  /** When the item started. */
  createdAtMs: TimestampMs;
  /** When the item ended; absent while it is `inProgress`. */
  completedAtMs?: TimestampMs;
  /** The turn that produced the item; absent when the backend does not say. */
  turnId?: string;
  type: "toolCall";
  content: ToolCallContent;
  [key: string]: unknown;
};

/** `item/tool/call` (server request): run a tool that the client declared, and answer with its output. */
export type ToolCallParams = {
  threadId: string;
  turnId: string;
  /** Identifies this call (the model's tool-call id when it gives one). */
  callId: string;
  /** The `name` of a tool from `capabilities.clientTools`. */
  tool: string;
  /** The model's arguments, meant to fit the tool's `inputSchema`. */
  arguments: unknown;
  /** Set when an external MCP client, not the thread's agent, makes the call (on a shared tab). */
  caller?: {
    kind: "mcpClient";
    /** The name the MCP client gave itself: a claim, not proven. */
    name: string;
    version?: string;
    /** The connection the call came on (its `McpClientInfo.id`): a grant the user gives this client covers only this connection. */
    connection?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

/** The client's answer to `item/tool/call`: whether the tool succeeded, and what it gives the model. */
export type ToolCallResult = {
  /** False when the tool failed; `content` then says why. */
  success: boolean;
  content: ToolContent[];
  [key: string]: unknown;
};

/** A piece of a client tool's output: text, or an image as base64 `data` of `mimeType`. */
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

/** One exchange: the user's input and everything the agent did about it. */
export type Turn = {
  id: string;
  threadId: string;
  status: TurnStatus;
  /** What the user sent to start the turn; may be empty in `turn/completed`. */
  input: UserInput[];
  /** When the turn started; absent when the backend does not say. */
  startedAtMs?: TimestampMs;
  /** When the turn ended; absent while it is `running`. */
  completedAtMs?: TimestampMs;
  /** Why it failed (set when `status` is `failed`), or why it was `interrupted` when the user did not stop it. */
  error?: TurnError;
  [key: string]: unknown;
};

/** `turn/completed`: a turn ended, as `completed`, `interrupted` or `failed`. */
export type TurnCompletedNotification = {
  turn: Turn;
  [key: string]: unknown;
};

/** Why a turn failed, in words a user can act on. */
export type TurnError = UserError;

/** `turn/interrupt`: stop the running turn; its pending approvals are withdrawn. */
export type TurnInterruptParams = {
  threadId: string;
  turnId: string;
  [key: string]: unknown;
};

/** The interrupted turn; `turn/completed` with status `interrupted` follows. */
export type TurnInterruptResult = {
  turn: Turn;
  [key: string]: unknown;
};

/** `turn/start`: run the agent on new user input in a thread that has no running turn. */
export type TurnStartParams = {
  threadId: string;
  input: UserInput[];
  /** The model for this turn; the thread's model when absent. */
  model?: string;
  [key: string]: unknown;
};

/** The new turn, `running`; the answer goes out before `turn/started`. */
export type TurnStartResult = {
  turn: Turn;
  [key: string]: unknown;
};

/** `turn/started`: a turn began running. */
export type TurnStartedNotification = {
  turn: Turn;
  [key: string]: unknown;
};

/** Where a turn is; everything but `running` is final. */
export type TurnStatus = "running" | "completed" | "interrupted" | "failed";

/** `turn/steer`: add user input to the running turn, if it is still `expectedTurnId`. */
export type TurnSteerParams = {
  threadId: string;
  /** The turn the client saw running; another one answers -32031. */
  expectedTurnId: string;
  input: UserInput[];
  [key: string]: unknown;
};

/** The turn that took the input. */
export type TurnSteerResult = {
  threadId: string;
  turnId: string;
  /** True when the input waits for the turn's next model step. */
  queued: boolean;
  [key: string]: unknown;
};

/** The turns of the page's items that did not complete (`interrupted` or `failed`), oldest first; absent when all completed or the backend does not say. */
export type UnfinishedTurns = Turn[];

/** An error in words a user can act on: a message and, when known, a code. */
export type UserError = {
  message: string;
  /** A JSON-RPC error code, or the backend's own error name. */
  code?: string | number;
  [key: string]: unknown;
};

/** One piece of user input: `{text}` or `{type:"text", text}`; unknown fields pass through. */
export type UserInput = {
  /** Always `text` when present; the seed format leaves it out. */
  type?: "text";
  text: string;
  [key: string]: unknown;
};

/** An item of type `userMessage`: the user's input to a turn. */
export type UserMessageItem = {
  /** Unique within its thread; set by the server. */
  id: string;
  status: ItemStatus;
  /** When the item started. */
  createdAtMs: TimestampMs;
  /** When the item ended; absent while it is `inProgress`. */
  completedAtMs?: TimestampMs;
  /** The turn that produced the item; absent when the backend does not say. */
  turnId?: string;
  type: "userMessage";
  content: TextContent;
  [key: string]: unknown;
};

/** `warning`: something the user should know that did not stop anything. */
export type WarningNotification = {
  message: string;
  /** The thread it concerns, if any. */
  threadId?: string;
  /** The turn it concerns, if any. */
  turnId?: string;
  [key: string]: unknown;
};

/** Requests the client sends to the server, by wire method. */
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

/** Notifications the client sends to the server, by wire method. */
export type ClientNotifications = {
  "initialized": { params?: InitializedNotification; };
};

/** Requests the server sends to the client, by wire method. */
export type ServerRequests = {
  "approval/request": { params: ApprovalRequestParams; result: ApprovalRequestResult; };
  "item/tool/call": { params: ToolCallParams; result: ToolCallResult; };
};

/** Notifications the server sends to the client, by wire method. */
export type ServerNotifications = {
  "thread/started": { params: ThreadStartedNotification; };
  "thread/status/changed": { params: ThreadStatusChangedNotification; };
  "thread/archived": { params: ThreadArchivedNotification; };
  "thread/unarchived": { params: ThreadUnarchivedNotification; };
  "turn/started": { params: TurnStartedNotification; };
  "turn/completed": { params: TurnCompletedNotification; };
  "item/started": { params: ItemStartedNotification; };
  "item/agentMessage/delta": { params: AgentMessageDeltaNotification; };
  "item/reasoning/delta": { params: ReasoningDeltaNotification; };
  "item/completed": { params: ItemCompletedNotification; };
  "item/tool/call/cancelled": { params: ToolCallCancelledNotification; };
  "approval/requested": { params: ApprovalRequestedNotification; };
  "approval/resolved": { params: ApprovalResolvedNotification; };
  "error": { params: ErrorNotification; };
  "warning": { params: WarningNotification; };
};

/** Requests the client sends to the native host itself, by wire method; they never reach a backend. */
export type BridgeRequests = {
  "bridge/hello": { params: BridgeHelloParams; result: BridgeHelloResult; };
  "bridge/backend/restart": { params?: BridgeBackendRestartParams; result: BridgeBackendRestartResult; };
  "bridge/mcp/share": { params: BridgeMcpShareParams; result: BridgeMcpShareResult; };
  "bridge/config/read": { params?: BridgeConfigReadParams; result: BridgeConfigReadResult; };
  "bridge/config/write": { params: BridgeConfigWriteParams; result: BridgeConfigWriteResult; };
  "bridge/config/test": { params: BridgeConfigTestParams; result: BridgeConfigTestResult; };
  "bridge/files/read": { params: BridgeFilesReadParams; result: BridgeFilesReadResult; };
};

/** Notifications the native host sends to the client about itself, by wire method. */
export type BridgeNotifications = {
  "bridge/chunk": { params: BridgeChunkNotification; };
  "bridge/backend/exited": { params: BridgeBackendExitedNotification; };
  "bridge/mcp/clients": { params: BridgeMcpClientsNotification; };
};
