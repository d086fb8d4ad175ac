/** A thread in use: its subscribers, its running turn, and its items while it is hot. */
import type { Item, ServerNotificationMethod, ServerNotificationParams, Thread } from '@tether/protocol';
import type { Peer } from './peer';
import type { TurnRun } from './turn-run';

/** Runtime state of one thread. Persistent threads drop `items` when no turn runs; memory-only threads keep them. */
export class ThreadState {
  /** Connections that receive this thread's notifications. */
  readonly subscribers = new Set<Peer>();
  /** What the user allowed for the rest of the thread (`allow_session`): grant keys (see `BuiltinTool.grantKey`). */
  readonly grants = new Set<string>();
  /** The running turn, if any. */
  turn: TurnRun | undefined;
  /** Completed items in completion order, while loaded. */
  items: Item[] | undefined;

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

  /** Completed items followed by the running turn's items in progress, as copies safe to send. */
  snapshotItems(): Item[] {
    const done = this.items ?? [];
    const open = this.turn?.openItems() ?? [];
    return open.length === 0 ? done.slice() : [...done, ...open];
  }
}
