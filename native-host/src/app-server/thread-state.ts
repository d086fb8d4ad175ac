/** A thread in use: its subscribers, its running turn, and its items while it is hot. */
import type { Item, ServerNotificationMethod, ServerNotificationParams, Thread } from '@tether/protocol';
import type { Peer } from './peer';
import type { TurnRun } from './turn-run';

/**
 * Runtime state of one thread. Memory-only threads keep every item in `items`; persistent threads keep there only the
 * latest page (what their model sees), cached while the thread is hot, and read everything else from the store.
 */
export class ThreadState {
  /** Connections that receive this thread's notifications. */
  readonly subscribers = new Set<Peer>();
  /** What the user allowed for the rest of the thread (`allow_session`): grant keys (see `BuiltinTool.grantKey`). */
  readonly grants = new Set<string>();
  /** The running turn, if any. */
  turn: TurnRun | undefined;
  /** Completed items in completion order, while loaded (persistent threads: the latest page only). */
  items: Item[] | undefined;
  /** Journal size of items of `items` (what they weigh against a page's budget), where known. */
  readonly sizes = new WeakMap<Item, number>();

  constructor(
    readonly id: string,
    /** False for ephemeral threads and for every thread of a server without a data dir. */
    readonly persistent: boolean,
    /** Metadata of a memory-only thread (persistent threads keep theirs in the store's index). */
    public memoryMeta?: Thread,
  ) {}

  /** Sends a notification to every subscriber. */
  emit<M extends ServerNotificationMethod>(method: M, params: ServerNotificationParams<M>): void {
    for (const peer of this.subscribers) peer.notify(method, params, this.id);
  }
}
