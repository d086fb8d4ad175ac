/**
 * Messages between extension pages (side panel, popup, options) and the service worker, over one runtime Port per
 * page. Pages send `hello` then `call`s (operations in operations.ts); the worker answers each call and pushes
 * state, thread snapshots, event batches (exactly as the host batched them, see events.ts) and the tab's pending
 * approvals. Both directions are tables of schemas, and each side parses what it receives: the worker with
 * `ViewToWorker`, a page with `WorkerToView` (an event batch costs a field check per delta there).
 */
import { Item, Thread, Turn } from '@tether/protocol';
import { z } from 'zod';
import { isViewEvent, type ViewEvent } from './events';
import { Handover } from './handover';
import { Notice, PendingApproval, WorkerState } from './records';

/** Name of the runtime Port pages open to the worker. */
export const VIEW_PORT_NAME = 'tether-view';

/** Kinds of extension page. */
export const ViewKind = z.enum(['sidepanel', 'popup', 'options']);
export type ViewKind = z.infer<typeof ViewKind>;

/** The first message of a page: which page it is and which tab it serves (null for options). */
export const ViewHello = z.object({
  type: z.literal('hello'),
  view: ViewKind,
  tabId: z.number().int().nonnegative().nullable(),
});
export type ViewHello = z.infer<typeof ViewHello>;

/**
 * A page's request; answered by a `result` or `error` with the same id. `op` is checked against the operations table
 * after this parse, so an unknown operation still gets an error answer with its id.
 */
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

/** A thread's history as a page starts from it (null thread: the tab has no conversation). */
export const Snapshot = z.object({
  type: z.literal('snapshot'),
  thread: Thread.nullable(),
  items: z.array(Item),
  activeTurn: Turn.optional(),
  /** Where the page before `items` ends (the `thread/history` operation reads it); absent when `items` start the thread. */
  olderCursor: z.string().optional(),
  /** Turns of `items` that ended without completing: the page marks them unfinished. */
  unfinishedTurns: z.array(Turn).optional(),
  /** `items` continue the page's transcript after this item (a reconnect) instead of replacing it. */
  resumeAfter: z.string().optional(),
  /** With `resumeAfter`: the agent worked on while the browser was away, and the page says so. */
  keptWorking: z.boolean().optional(),
  /** Without `resumeAfter`: the agent worked on while the browser was away (closed, killed), from this item on. */
  keptWorkingFrom: z.string().optional(),
});

/** A tab of the thread's task as the panel lists it, and whether the page tools act on it when a call names none. */
export const TaskTabView = z.object({
  tabId: z.number().int(),
  title: z.string(),
  url: z.string(),
  /** The conversation's own tab, a tab the agent opened, or one the user added. */
  role: z.enum(['conversation', 'agent', 'user']),
  agentIsHere: z.boolean(),
});
export type TaskTabView = z.infer<typeof TaskTabView>;

/** Everything the worker sends to a page. */
export const WorkerToView = z.discriminatedUnion('type', [
  /** The answer to a call; the page parses `result` with the operation's result schema. */
  z.object({ type: z.literal('result'), id: z.number(), result: z.unknown() }),
  z.object({
    type: z.literal('error'),
    id: z.number(),
    error: z.object({ message: z.string(), code: z.number().optional() }),
  }),
  z.object({ type: z.literal('state'), state: WorkerState }),
  Snapshot,
  z.object({ type: z.literal('events'), events: z.array(z.custom<ViewEvent>(isViewEvent)) }),
  z.object({ type: z.literal('approvals'), approvals: z.array(PendingApproval) }),
  /** The tab's open hand-over requests (`page_ask_user`), oldest first. */
  z.object({ type: z.literal('handovers'), handovers: z.array(Handover) }),
  z.object({ type: z.literal('notice'), notice: Notice }),
  /** The page the tab shows: sent on hello and whenever the tab navigates or its title changes. */
  z.object({ type: z.literal('tab'), title: z.string(), url: z.string() }),
  /** Text for the composer (the context menu's quoted selection): the panel puts it there unsent. */
  z.object({ type: z.literal('draft'), text: z.string() }),
  /** The tabs of the thread's task: sent on hello and whenever they or the tab the agent is on change. */
  z.object({ type: z.literal('task'), tabs: z.array(TaskTabView) }),
]);
export type WorkerToView = z.infer<typeof WorkerToView>;

/** What the worker pushes unasked (everything but answers to calls). */
export type WorkerPush = Exclude<WorkerToView, { type: 'result' } | { type: 'error' }>;
