/**
 * Routes what the host sends. Each host batch is split once: notifications go to the views showing their thread
 * (one delivery per view per batch, so a 50-delta frame stays one page message), worker-side reactions run from a
 * table keyed by method, and everything else (responses, server requests) is returned for the Connection.
 *
 * Joining a thread mid-stream: while a view waits for its `thread/resume` snapshot, the thread's notifications are
 * dropped for it up to the resume response (the snapshot contains them) and buffered after it, then flushed after
 * the snapshot, so the view sees every item and delta exactly once.
 */
import type { WireEvent } from '../shared/messages';

/** Worker-side reaction to a notification, keyed by method. */
export type NotificationTable = Readonly<Record<string, (params: unknown) => void>>;

/** The thread a notification is about (`threadId`, `thread.id` or `turn.threadId`), if any. */
export function threadIdOf(params: unknown): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const p = params as { threadId?: unknown; thread?: { id?: unknown }; turn?: { threadId?: unknown } };
  if (typeof p.threadId === 'string') return p.threadId;
  if (typeof p.thread?.id === 'string') return p.thread.id;
  if (typeof p.turn?.threadId === 'string') return p.turn.threadId;
  return undefined;
}

/** True for a JSON-RPC notification (a method and no id). */
export function isNotification(m: unknown): m is WireEvent {
  return !!m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string' && !('id' in m);
}

/** The thread a `thread/resume` (or `thread/read`) response describes, if the message is one. */
function snapshotThreadOf(m: unknown): string | undefined {
  if (!m || typeof m !== 'object' || !('id' in m) || 'method' in m) return undefined;
  const result = (m as { result?: { thread?: { id?: unknown }; items?: unknown } }).result;
  return result && Array.isArray(result.items) && typeof result.thread?.id === 'string' ? result.thread.id : undefined;
}

interface Sync<V> {
  readonly threadId: string;
  readonly views: Set<V>;
  phase: 'before-snapshot' | 'after-snapshot';
  readonly buffer: Map<V, WireEvent[]>;
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
      deliver(view: V, events: WireEvent[]): void;
      /** Worker-side reactions (run after routing the batch's events). */
      handlers: NotificationTable;
      /** Notifications about no thread (or about threads nobody shows) that every view should see. */
      broadcast(events: WireEvent[]): void;
    },
  ) {}

  /** Routes one batch; returns the messages the Connection must handle, in order. */
  routeBatch(messages: readonly unknown[]): unknown[] {
    const rest: unknown[] = [];
    const perView = new Map<V, WireEvent[]>();
    const unthreaded: WireEvent[] = [];
    const reactions: WireEvent[] = [];
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
    for (const m of reactions) this.deps.handlers[m.method]?.(m.params);
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

function pushTo<V>(map: Map<V, WireEvent[]>, key: V, event: WireEvent): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}
