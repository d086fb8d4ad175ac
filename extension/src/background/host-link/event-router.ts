/**
 * Routes what the host sends. Each host batch is split once: notifications are checked against the protocol's table
 * (shared/events.ts, a field check for text deltas) and go to the views showing their thread (one delivery per view
 * per batch, so a 50-delta frame stays one page message), worker-side reactions run from a table keyed by method,
 * notifications that fail their check are reported (after the batch's deliveries) instead of delivered, and
 * everything else (responses, server requests) is returned for the Connection, which parses those itself.
 *
 * Joining a thread mid-stream: while a view waits for its `thread/resume` snapshot, the thread's notifications are
 * dropped for it up to the resume response (the snapshot contains them) and buffered after it, then flushed after
 * the snapshot, so the view sees every item and delta exactly once.
 */
import {
  eventIssue,
  isEventMethod,
  isViewEvent,
  type EventMethod,
  type EventParams,
  type ViewEvent,
} from '../../shared/events';

/** Worker-side reactions to notifications, keyed by method, each given the params its row checked. */
export type NotificationTable = { readonly [M in EventMethod]?: (params: EventParams<M>) => void };

/** A JSON-RPC notification before its check: a method, no id. */
export interface RawNotification {
  readonly method: string;
  readonly params?: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The thread a notification is about (`threadId`, `thread.id` or `turn.threadId`), if any. */
export function threadIdOf(params: unknown): string | undefined {
  if (!isRecord(params)) return undefined;
  if (typeof params.threadId === 'string') return params.threadId;
  if (isRecord(params.thread) && typeof params.thread.id === 'string') return params.thread.id;
  if (isRecord(params.turn) && typeof params.turn.threadId === 'string') return params.turn.threadId;
  return undefined;
}

/** True for a JSON-RPC notification (a method and no id). */
export function isNotification(m: unknown): m is RawNotification {
  return isRecord(m) && typeof m.method === 'string' && !('id' in m);
}

/** The thread a `thread/resume` (or `thread/read`) response describes, if the message is one. */
function snapshotThreadOf(m: unknown): string | undefined {
  if (!isRecord(m) || !('id' in m) || 'method' in m || !isRecord(m.result)) return undefined;
  const { thread, items } = m.result;
  return Array.isArray(items) && isRecord(thread) && typeof thread.id === 'string' ? thread.id : undefined;
}

/** Runs the reaction of `event`'s method, if the table has one. */
function react<M extends EventMethod>(handlers: NotificationTable, event: ViewEvent<M>): void {
  const handler: ((params: EventParams<M>) => void) | undefined = handlers[event.method];
  handler?.(event.params);
}

interface Sync<V> {
  readonly threadId: string;
  readonly views: Set<V>;
  phase: 'before-snapshot' | 'after-snapshot';
  readonly buffer: Map<V, ViewEvent[]>;
}

/** A thread resync in progress; see EventRouter.beginSync. */
export interface SyncTicket {
  readonly threadId: string;
}

/** Splits host batches between views, worker reactions and the Connection. */
export class EventRouter<V> {
  private readonly syncs = new Map<string, Sync<V>>();

  constructor(
    private readonly deps: {
      /** Views currently showing `threadId`. */
      viewsForThread(threadId: string): readonly V[];
      /** Sends one batch of events to one view. */
      deliver(view: V, events: ViewEvent[]): void;
      /** Worker-side reactions (run after routing the batch's events). */
      handlers: NotificationTable;
      /** Notifications about no thread (or about threads nobody shows) that every view should see. */
      broadcast(events: ViewEvent[]): void;
      /** A notification that is not in the table (`known` false) or does not fit its row, with why; not delivered. */
      rejected(notification: RawNotification, known: boolean, why: string): void;
    },
  ) {}

  /** Routes one batch; returns the messages the Connection must handle, in order. */
  routeBatch(messages: readonly unknown[]): unknown[] {
    const rest: unknown[] = [];
    const perView = new Map<V, ViewEvent[]>();
    const unthreaded: ViewEvent[] = [];
    const reactions: ViewEvent[] = [];
    const rejected: RawNotification[] = [];
    // Bindings do not change within a batch: look each thread's views up once, not once per delta.
    const viewsOf = new Map<string, readonly V[]>();
    for (const m of messages) {
      if (!isNotification(m)) {
        const snap = snapshotThreadOf(m);
        const sync = snap === undefined ? undefined : this.syncs.get(snap);
        if (sync) sync.phase = 'after-snapshot';
        rest.push(m);
        continue;
      }
      if (!isViewEvent(m)) {
        rejected.push(m);
        continue;
      }
      if (this.deps.handlers[m.method]) reactions.push(m);
      const threadId = threadIdOf(m.params);
      if (threadId === undefined) {
        unthreaded.push(m);
        continue;
      }
      const sync = this.syncs.get(threadId);
      let views = viewsOf.get(threadId);
      if (!views) {
        views = this.deps.viewsForThread(threadId);
        viewsOf.set(threadId, views);
      }
      for (const view of views) {
        if (sync?.views.has(view)) {
          if (sync.phase === 'after-snapshot') pushTo(sync.buffer, view, m);
          continue;
        }
        pushTo(perView, view, m);
      }
    }
    for (const [view, events] of perView) this.deps.deliver(view, events);
    if (unthreaded.length > 0) this.deps.broadcast(unthreaded);
    for (const m of rejected) {
      const known = isEventMethod(m.method);
      this.deps.rejected(m, known, known ? eventIssue(m.method, m.params) : 'not a notification this extension knows');
    }
    for (const m of reactions) react(this.deps.handlers, m);
    return rest;
  }

  /** Holds `views` back from `threadId`'s live events until `finishSync`; call right before sending `thread/resume`. */
  beginSync(threadId: string, views: readonly V[]): SyncTicket {
    const existing = this.syncs.get(threadId);
    if (existing) {
      // Joining a resume already in flight: its snapshot will serve these views too.
      for (const v of views) existing.views.add(v);
      return { threadId };
    }
    this.syncs.set(threadId, { threadId, views: new Set(views), phase: 'before-snapshot', buffer: new Map() });
    return { threadId };
  }

  /** The snapshot arrived: `send` it to each waiting view, then flush what came after it. Returns the views served. */
  finishSync(ticket: SyncTicket, send: (view: V) => void): V[] {
    const sync = this.syncs.get(ticket.threadId);
    if (!sync) return [];
    this.syncs.delete(ticket.threadId);
    for (const view of sync.views) {
      send(view);
      const buffered = sync.buffer.get(view);
      if (buffered?.length) this.deps.deliver(view, buffered);
    }
    return [...sync.views];
  }

  /** The resume failed: release the views without a snapshot. */
  cancelSync(ticket: SyncTicket): V[] {
    const sync = this.syncs.get(ticket.threadId);
    this.syncs.delete(ticket.threadId);
    return sync ? [...sync.views] : [];
  }

  /** Forgets a view everywhere (its page closed). */
  dropView(view: V): void {
    for (const sync of this.syncs.values()) {
      sync.views.delete(view);
      sync.buffer.delete(view);
    }
  }
}

function pushTo<V>(map: Map<V, ViewEvent[]>, key: V, event: ViewEvent): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}
