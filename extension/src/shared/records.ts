/**
 * The shapes the worker keeps in storage and shows to pages, one schema each; every type is inferred from its schema,
 * so what `persistent-state.ts` loads and what pages receive cannot drift apart. Objects strip unknown keys: a stored
 * value written by an older or newer version keeps only the fields this version knows.
 */
import {
  ApprovalDecision,
  ApprovalSessionScope,
  BackendInfo,
  McpClientInfo,
  ServerCapabilities,
} from '@tether/protocol';
import { z } from 'zod';
import { ToolClass } from './action-risk';

/** A choice a user can make on an approval card. */
export const ApprovalChoice = z.enum(['allow', 'allow_session', 'deny', 'always_allow_site', 'always_deny_site']);
export type ApprovalChoice = z.infer<typeof ApprovalChoice>;

/** An approval waiting for the user, as pages show it and session storage keeps it. */
export const PendingApproval = z.object({
  /** Unique key to decide it by. */
  key: z.string(),
  /** `server`: the backend asked (`approval/request`); `client-tool`: the extension gates its own page tool. */
  source: z.enum(['server', 'client-tool']),
  threadId: z.string(),
  turnId: z.string(),
  requestId: z.string(),
  tabId: z.number().int(),
  /** Origin of the tab's page when the request came in. */
  origin: z.string(),
  toolName: z.string(),
  preview: z.string(),
  arguments: z.unknown().optional(),
  choices: z.array(ApprovalDecision),
  /** How far the backend's `allow_session` reaches (server approvals); absent: every call of the tool. */
  sessionScope: ApprovalSessionScope.optional(),
  /**
   * An external MCP client that made the call on a shared tab: its own name for itself (a claim) and the connection
   * it called on, which a grant to it is limited to.
   */
  caller: z.object({ name: z.string(), version: z.string().optional(), connection: z.string().optional() }).optional(),
  /** A page tool's class and what the extension found about the action (client-tool approvals). */
  page: z
    .object({
      toolClass: ToolClass,
      /** Why this action asks every time; when not empty no remembered choice is offered or applied. */
      highRisk: z.array(z.string()),
      /** What the model supplies that the user should see as data: the text typed, the values chosen, the URL. */
      value: z.string().optional(),
      /** The tab acted on, when it is another tab of the task than the conversation's own (the card names it). */
      tab: z.object({ id: z.number().int(), title: z.string() }).optional(),
    })
    .optional(),
  createdAtMs: z.number(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/** "Always allow/deny reading, acting on or opening origin O" (never a tool acting on the user's machine). */
export const SiteRule = z.object({
  id: z.string(),
  origin: z.string(),
  /** The class of page tools the rule decides. */
  toolClass: ToolClass,
  decision: z.enum(['allow', 'deny']),
  createdAtMs: z.number(),
});
export type SiteRule = z.infer<typeof SiteRule>;

/**
 * When page actions use trusted input (Chrome's debugger, which shows "Tether started debugging this browser" while
 * the agent acts): never, on the sites the user allowed from the panel (the default), or everywhere.
 */
export const TrustedInputSetting = z.enum(['off', 'ask', 'always']);
export type TrustedInputSetting = z.infer<typeof TrustedInputSetting>;

/** User settings kept in storage. */
export const Settings = z.object({
  backend: z.string().optional(),
  model: z.string().optional(),
  /** Absent: 'ask' (trusted input on the sites in `trustedSites`). */
  trustedInput: TrustedInputSetting.optional(),
  /** Origins the user allowed trusted input on, under 'ask'. */
  trustedSites: z.array(z.string()).optional(),
});
export type Settings = z.infer<typeof Settings>;

/** A connection failure remembered for diagnostics. */
export const ConnectionEvent = z.object({ atMs: z.number(), message: z.string() });
export type ConnectionEvent = z.infer<typeof ConnectionEvent>;

const since = { attempt: z.number().int().nonnegative(), sinceMs: z.number() };
const retrying = {
  ...since,
  /** The browser's or host's own words for the last failure. */
  reason: z.string().optional(),
  /** When the next automatic attempt happens (epoch ms). */
  retryAtMs: z.number().optional(),
};

/**
 * The host and the extension speak bridge protocols that do not overlap: which side is older and the versions, so
 * pages can name the update that fixes it.
 */
export const VersionSkew = z.object({
  older: z.enum(['host', 'extension']),
  hostVersion: z.string(),
  /** What the host's `bridge/hello` reported; absent from hosts before version reporting. */
  hostProtocol: z.string().optional(),
  extensionVersion: z.string(),
  /** The protocol versions this extension works with. */
  supported: z.object({ min: z.string(), max: z.string() }),
});
export type VersionSkew = z.infer<typeof VersionSkew>;

/** An agent behind the host older than its adapter supports, or newer than this Tether: the side to update, and how. */
export const AgentFix = z.object({ olderSide: z.enum(['agent', 'tether']), command: z.string().min(1) });
export type AgentFix = z.infer<typeof AgentFix>;

/** Whether the worker is talking to the host, and if not, the browser's reason (see background/host-link/host-link.ts). */
export const ConnectionState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('connected'), ...since }),
  z.object({ status: z.literal('connecting'), ...retrying }),
  z.object({
    status: z.literal('disconnected'),
    ...retrying,
    /** How long the connection had been up when this failure ended it; absent when the host never connected. */
    upForMs: z.number().nonnegative().optional(),
    /** Set when the host answered but speaks a protocol this extension does not. */
    skew: VersionSkew.optional(),
    /** Set when the backend refused to start because its agent or this Tether is too old: the command that fixes it. */
    fix: AgentFix.optional(),
  }),
]);
export type ConnectionState = z.infer<typeof ConnectionState>;

/** What every page shows about the worker. */
export const WorkerState = z.object({
  connection: ConnectionState,
  hostVersion: z.string().optional(),
  /** The version of the daemon the host relays to (bridge/hello); absent when the host serves in-process. */
  daemonVersion: z.string().optional(),
  /** Why the host serves in-process although it was set to relay to the daemon (bridge/hello). */
  daemonUnavailable: z.string().optional(),
  backend: z.string().optional(),
  backends: z.array(BackendInfo),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  capabilities: ServerCapabilities.optional(),
  settings: Settings,
  /** Conversations whose tab is shared with external MCP clients, and the clients connected (names are claims). */
  mcp: z.object({ shared: z.array(z.string()), clients: z.array(McpClientInfo) }),
});
export type WorkerState = z.infer<typeof WorkerState>;

/** What the options page shows under Diagnostics. */
export const Diagnostics = z.object({
  state: WorkerState,
  errors: z.array(ConnectionEvent),
  extensionId: z.string(),
  extensionVersion: z.string(),
  os: z.string(),
});
export type Diagnostics = z.infer<typeof Diagnostics>;

/** Something the panel shows in the transcript that did not come from the backend. */
export const Notice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rule-decided'), rule: SiteRule, toolName: z.string(), threadId: z.string() }),
  z.object({ kind: z.literal('tool-ran'), toolName: z.string(), threadId: z.string(), summary: z.string() }),
  /** A page tool call whose caller stopped waiting: its card was withdrawn, or its result was not delivered. */
  z.object({ kind: z.literal('call-withdrawn'), toolName: z.string(), threadId: z.string(), summary: z.string() }),
  z.object({ kind: z.literal('backend-exited'), message: z.string(), stderrTail: z.array(z.string()) }),
  /** An action on `origin` would use trusted input if the user allowed it there (the panel explains and offers). */
  z.object({ kind: z.literal('trusted-input-offer'), origin: z.string() }),
  z.object({ kind: z.literal('error'), message: z.string() }),
  /** A running turn lost with its connection: the host or its backend stopped, or the backend was switched. */
  z.object({
    kind: z.literal('turn-interrupted'),
    threadId: z.string(),
    turnId: z.string(),
    cause: z.enum(['host-stopped', 'backend-stopped', 'backend-switched']),
    /** The browser's or host's own words. */
    reason: z.string(),
  }),
]);
export type Notice = z.infer<typeof Notice>;
