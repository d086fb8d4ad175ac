/**
 * The one table of what a page may ask of the worker, in the protocol's manner: each operation names its params and
 * its result schema. The worker parses params with the row before its handler runs (background/views/view-ops.ts), and the
 * page parses the answer with the row before the caller sees it (worker-client.ts). Adding an operation is one row
 * here and one handler there; the compiler asks for the handler.
 */
import {
  ApprovalDecision,
  BridgeConfigReadParams,
  BridgeConfigReadResult,
  BridgeConfigTestParams,
  BridgeConfigTestResult,
  BridgeConfigWriteParams,
  BridgeConfigWriteResult,
  ModelListResult,
  ThreadArchiveResult,
  ThreadHistoryReadResult,
  ThreadListResult,
  ThreadUnarchiveResult,
  TurnInterruptResult,
  TurnSteerResult,
} from '@tether/protocol';
import { z } from 'zod';
import { HandoverReply } from './handover';
import { ApprovalChoice, Diagnostics, Settings, SiteRule, TrustedInputSetting, WorkerState } from './records';

/** An operation's params and result schemas. */
export interface ViewOpSpec {
  readonly params: z.ZodType;
  readonly result: z.ZodType;
}

const Empty = z.object({});
const Rules = z.object({ rules: z.array(SiteRule) });

/** Operations pages may ask of the worker. */
export const viewOps = {
  'state/get': { params: Empty, result: WorkerState },
  'connection/retry': { params: Empty, result: Empty },
  'thread/new': { params: Empty, result: Empty },
  'thread/open': { params: z.object({ threadId: z.string().min(1) }), result: Empty },
  'thread/list': {
    params: z.object({ archived: z.boolean().optional(), search: z.string().max(200).optional() }),
    result: ThreadListResult,
  },
  'thread/archive': { params: z.object({ threadId: z.string().min(1) }), result: ThreadArchiveResult },
  /** Undoes an archive; `reopen` binds the thread to the calling tab again (it was that tab's conversation). */
  'thread/unarchive': {
    params: z.object({ threadId: z.string().min(1), reopen: z.boolean().optional() }),
    result: ThreadUnarchiveResult,
  },
  /** The page of the tab's thread before `cursor` (from the snapshot, or the previous page). */
  'thread/history': { params: z.object({ cursor: z.string().min(1) }), result: ThreadHistoryReadResult },
  'turn/send': {
    params: z.object({ text: z.string().min(1).max(1_000_000), model: z.string().optional() }),
    result: z.object({ threadId: z.string(), turnId: z.string() }),
  },
  'turn/steer': { params: z.object({ text: z.string().min(1).max(1_000_000) }), result: TurnSteerResult },
  'turn/interrupt': { params: Empty, result: TurnInterruptResult },
  'model/list': { params: Empty, result: ModelListResult },
  'approval/decide': {
    params: z.object({ key: z.string().min(1), choice: ApprovalChoice }),
    result: z.object({ decision: ApprovalDecision }),
  },
  /** The user's reply to a hand-over request of the calling tab ("Done" or "I can't", with their answer). */
  'handover/answer': { params: HandoverReply, result: Empty },
  'rules/list': { params: Empty, result: Rules },
  'rules/revoke': { params: z.object({ id: z.string().min(1) }), result: Rules },
  'settings/set': {
    params: z.object({
      backend: z.string().nullable().optional(),
      model: z.string().nullable().optional(),
      trustedInput: TrustedInputSetting.nullable().optional(),
      /** Replaces the list of sites with trusted input (options page: remove one). */
      trustedSites: z.array(z.string().url()).max(1000).nullable().optional(),
    }),
    result: Settings,
  },
  /** Allows trusted input on the calling tab's site (the panel's offer): only that page's origin, never one given. */
  'trusted/allow-site': { params: Empty, result: Settings },
  'diagnostics/get': { params: Empty, result: Diagnostics },
  /** The host's model settings (never a key), optionally with the model servers running on this computer. */
  'config/read': { params: BridgeConfigReadParams.unwrap(), result: BridgeConfigReadResult },
  /** Saves an endpoint or enables an agent through the host, then reconnects so the host serves with it. */
  'config/write': { params: BridgeConfigWriteParams, result: BridgeConfigWriteResult },
  /** The models an endpoint lists with these settings (the host asks it: the extension's policy forbids fetching). */
  'config/test': { params: BridgeConfigTestParams, result: BridgeConfigTestResult },
  /** Shares the tab's conversation with external MCP clients (`tether mcp`), or stops; starts a conversation if none. */
  'share/set': { params: z.object({ shared: z.boolean() }), result: z.object({ shared: z.boolean() }) },
  /** Whether the tab's conversation is shared with external MCP clients now. */
  'share/get': { params: Empty, result: z.object({ shared: z.boolean() }) },
  /** Adds a tab to the task of the calling tab's conversation, so the agent may read and act on it. */
  'task/add': { params: z.object({ tabId: z.number().int().nonnegative() }), result: Empty },
  /** Takes a tab out of the calling tab's task (not the conversation's own tab). */
  'task/remove': { params: z.object({ tabId: z.number().int().nonnegative() }), result: Empty },
  /**
   * The calling tab's place in the window's tasks: the conversation whose task holds it (by its tab's title), or the
   * conversations of its window it can join ("Add this tab to the task" in the popup and panel of any web page).
   */
  'task/here': {
    params: Empty,
    result: z.object({
      member: z.object({ title: z.string() }).optional(),
      joinable: z.array(z.object({ threadId: z.string(), title: z.string() })),
    }),
  },
  /** Adds the calling tab to the task of `threadId`, one of the conversations task/here offered. */
  'task/join': { params: z.object({ threadId: z.string().min(1) }), result: Empty },
  /** Takes the calling tab out of the task that holds it (not a conversation's own tab). */
  'task/leave': { params: Empty, result: Empty },
  /** The web pages in the calling tab's window that no conversation's task holds: what "Add a tab" offers. */
  'task/others': {
    params: Empty,
    result: z.object({ tabs: z.array(z.object({ tabId: z.number().int(), title: z.string(), url: z.string() })) }),
  },
} as const satisfies Record<string, ViewOpSpec>;

/** Names of the operations. */
export type ViewOp = keyof typeof viewOps;
/** Params of operation `O`, as a page writes them. */
export type ViewOpParams<O extends ViewOp> = z.input<(typeof viewOps)[O]['params']>;
/** Params of operation `O` after the worker parsed them. */
export type ParsedViewOpParams<O extends ViewOp> = z.output<(typeof viewOps)[O]['params']>;
/** Result of operation `O`. */
export type ViewOpResult<O extends ViewOp> = z.output<(typeof viewOps)[O]['result']>;

type ParamSchemas = { readonly [O in ViewOp]: { readonly params: z.ZodType<ParsedViewOpParams<O>> } };
type ResultSchemas = { readonly [O in ViewOp]: { readonly result: z.ZodType<ViewOpResult<O>> } };

/** True for an operation in the table. */
export function isViewOp(op: string): op is ViewOp {
  return Object.hasOwn(viewOps, op);
}

/** The params schema of `op`, typed by its row (the mapped type lets callers stay generic over `op`). */
export function paramsSchema<O extends ViewOp>(op: O): z.ZodType<ParsedViewOpParams<O>> {
  const schemas: ParamSchemas = viewOps;
  return schemas[op].params;
}

/** The result schema of `op`, typed by its row. */
export function resultSchema<O extends ViewOp>(op: O): z.ZodType<ViewOpResult<O>> {
  const schemas: ResultSchemas = viewOps;
  return schemas[op].result;
}
