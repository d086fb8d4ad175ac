/**
 * Messages between extension pages (side panel, popup, options) and the service worker, over one runtime Port per
 * page. Pages send `hello` then `call`s; the worker answers each call and pushes state, thread snapshots, event
 * batches (exactly as the host batched them) and the tab's pending approvals. The worker parses everything a page
 * sends (`ViewToWorker`); pages trust what the worker sends.
 */
import { z } from 'zod';
import type {
  BackendInfo,
  Item,
  ModelInfo,
  ServerCapabilities,
  Thread,
  Turn,
  ApprovalDecision,
  ApprovalSessionScope,
} from '@tether/protocol';

/** Name of the runtime Port pages open to the worker. */
export const VIEW_PORT_NAME = 'tether-view';

/** Kinds of extension page. */
export const ViewKind = z.enum(['sidepanel', 'popup', 'options']);
export type ViewKind = z.infer<typeof ViewKind>;

/** A choice a user can make on an approval card. */
export const ApprovalChoice = z.enum(['allow', 'allow_session', 'deny', 'always_allow_site', 'always_deny_site']);
export type ApprovalChoice = z.infer<typeof ApprovalChoice>;

/** Operations pages may ask of the worker, each with its params schema. */
export const viewOps = {
  'state/get': z.object({}),
  'connection/retry': z.object({}),
  'thread/new': z.object({}),
  'thread/open': z.object({ threadId: z.string().min(1) }),
  'thread/list': z.object({ archived: z.boolean().optional() }),
  'thread/archive': z.object({ threadId: z.string().min(1) }),
  'turn/send': z.object({ text: z.string().min(1).max(1_000_000), model: z.string().optional() }),
  'turn/steer': z.object({ text: z.string().min(1).max(1_000_000) }),
  'turn/interrupt': z.object({}),
  'model/list': z.object({}),
  'approval/decide': z.object({ key: z.string().min(1), choice: ApprovalChoice }),
  'rules/list': z.object({}),
  'rules/revoke': z.object({ id: z.string().min(1) }),
  'settings/set': z.object({ backend: z.string().nullable().optional(), model: z.string().nullable().optional() }),
  'diagnostics/get': z.object({}),
} as const;
export type ViewOp = keyof typeof viewOps;
export type ViewOpParams<O extends ViewOp> = z.infer<(typeof viewOps)[O]>;

/** The first message of a page: which page it is and which tab it serves (null for options). */
export const ViewHello = z.object({
  type: z.literal('hello'),
  view: ViewKind,
  tabId: z.number().int().nonnegative().nullable(),
});
export type ViewHello = z.infer<typeof ViewHello>;

/** A page's request; answered by a `result` or `error` with the same id. */
export const ViewCall = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  op: z.string(),
  params: z.unknown(),
});
export type ViewCall = z.infer<typeof ViewCall>;

/** Everything a page may send. */
export const ViewToWorker = z.discriminatedUnion('type', [ViewHello, ViewCall, z.object({ type: z.literal('ping') })]);
export type ViewToWorker = z.infer<typeof ViewToWorker>;

/** Whether the worker is talking to the host, and if not, the browser's reason. */
export interface ConnectionState {
  readonly status: 'connected' | 'connecting' | 'disconnected';
  /** The browser's or host's own words for the last failure. */
  readonly reason?: string;
  /** When the next automatic attempt happens (epoch ms). */
  readonly retryAtMs?: number;
  readonly attempt: number;
  readonly sinceMs: number;
}

/** User settings kept in storage. */
export interface Settings {
  readonly backend?: string;
  readonly model?: string;
}

/** What every page shows about the worker. */
export interface WorkerState {
  readonly connection: ConnectionState;
  readonly hostVersion?: string;
  readonly backend?: string;
  readonly backends: readonly BackendInfo[];
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly capabilities?: ServerCapabilities;
  readonly settings: Settings;
}

/** An approval waiting for the user, as pages show it. */
export interface PendingApproval {
  /** Unique key to decide it by. */
  readonly key: string;
  /** `server`: the backend asked (`approval/request`); `client-tool`: the extension gates its own page tool. */
  readonly source: 'server' | 'client-tool';
  readonly threadId: string;
  readonly turnId: string;
  readonly requestId: string;
  readonly tabId: number;
  /** Origin of the tab's page when the request came in. */
  readonly origin: string;
  readonly toolName: string;
  readonly preview: string;
  readonly arguments?: unknown;
  readonly choices: readonly ApprovalDecision[];
  /** How far the backend's `allow_session` reaches (server approvals); absent: every call of the tool. */
  readonly sessionScope?: ApprovalSessionScope;
  readonly createdAtMs: number;
}

/**
 * Whether an approval is about a page tool on a page with a web origin, the only kind a site rule or an "allow for
 * this thread" limited to one origin can cover. Decided by the source, never by the tool's name: every `server`
 * approval (the backend's `bash`, Codex command and file-change approvals, ACP permission requests) acts on the
 * user's machine, whatever the backend calls it.
 */
export function isPageApprovalOnSite(a: Pick<PendingApproval, 'source' | 'origin'>): boolean {
  return a.source === 'client-tool' && /^https?:\/\//.test(a.origin);
}

/**
 * The choices a card offers for an approval, and the only ones the worker accepts. A machine tool gets allow once,
 * allow for this thread (when the backend offers it) and deny; a page tool gets its thread grant and the site rules
 * only on a page with a web origin, since both are limited to that origin.
 */
export function offeredChoices(a: Pick<PendingApproval, 'source' | 'origin' | 'choices'>): ApprovalChoice[] {
  const onSite = isPageApprovalOnSite(a);
  const out: ApprovalChoice[] = [];
  if (a.choices.includes('allow')) out.push('allow');
  if (a.choices.includes('allow_session') && (a.source === 'server' || onSite)) out.push('allow_session');
  if (onSite && a.choices.includes('allow')) out.push('always_allow_site');
  out.push('deny');
  if (onSite) out.push('always_deny_site');
  return out;
}

/** "Always allow/deny page tool T on origin O" (never a tool acting on the user's machine). */
export interface SiteRule {
  readonly id: string;
  readonly origin: string;
  readonly toolName: string;
  readonly decision: 'allow' | 'deny';
  readonly createdAtMs: number;
}

/** A connection failure remembered for diagnostics. */
export interface ConnectionEvent {
  readonly atMs: number;
  readonly message: string;
}

/** A notification as the host sent it. */
export interface WireEvent {
  readonly method: string;
  readonly params?: unknown;
}

/** Something the panel shows in the transcript that did not come from the backend. */
export type Notice =
  | { readonly kind: 'rule-decided'; readonly rule: SiteRule; readonly toolName: string; readonly threadId: string }
  | { readonly kind: 'tool-ran'; readonly toolName: string; readonly threadId: string; readonly summary: string }
  | { readonly kind: 'backend-exited'; readonly message: string; readonly stderrTail: readonly string[] }
  | { readonly kind: 'error'; readonly message: string };

/** Everything the worker sends to a page. */
export type WorkerToView =
  | { readonly type: 'result'; readonly id: number; readonly result: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: { readonly message: string; readonly code?: number } }
  | { readonly type: 'state'; readonly state: WorkerState }
  | {
      readonly type: 'snapshot';
      readonly thread: Thread | null;
      readonly items: readonly Item[];
      readonly activeTurn?: Turn;
    }
  | { readonly type: 'events'; readonly events: readonly WireEvent[] }
  | { readonly type: 'approvals'; readonly approvals: readonly PendingApproval[] }
  | { readonly type: 'notice'; readonly notice: Notice };

/** Result of `turn/send`. */
export interface TurnSendResult {
  readonly threadId: string;
  readonly turnId: string;
}

/** Result of `diagnostics/get`. */
export interface Diagnostics {
  readonly state: WorkerState;
  readonly errors: readonly ConnectionEvent[];
  readonly extensionId: string;
  readonly extensionVersion: string;
  readonly os: string;
}

/** Result of `model/list`. */
export interface ModelListView {
  readonly models: readonly ModelInfo[];
}
