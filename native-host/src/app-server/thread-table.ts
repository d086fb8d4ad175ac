/**
 * The engine's threads: the hot ones in memory (subscribed, running, or memory-only) and the rest in the store.
 * Metadata reads and writes go through here so a memory-only thread and a journaled one look the same to the engine.
 */
import { RpcError, type Item, type Thread } from '@tether/protocol';
import type { ThreadStore } from '../store/thread-store';
import type { Peer } from './peer';
import { previewLine } from './thread-list';
import { ThreadState } from './thread-state';

/** Every thread the engine knows, hot or stored. */
export class ThreadTable {
  private readonly hot = new Map<string, ThreadState>();

  constructor(private readonly store: ThreadStore | undefined) {}

  /** The thread's state while it is hot. */
  hotState(threadId: string): ThreadState | undefined {
    return this.hot.get(threadId);
  }

  /** Every hot thread's state. */
  hotStates(): IterableIterator<ThreadState> {
    return this.hot.values();
  }

  /** Running turns that `peer` does not follow alone: another connection follows their thread, or none does. */
  runningTurnsBeyond(peer: Peer): number {
    let n = 0;
    for (const { turn, subscribers } of this.hot.values())
      if (turn && !turn.isFinished && (subscribers.size !== 1 || !subscribers.has(peer))) n++;
    return n;
  }

  /** A new thread with `items`: journaled unless it is ephemeral or the engine has no store. */
  create(thread: Thread, items: Item[]): ThreadState {
    if (this.store !== undefined && !thread.ephemeral) {
      this.store.create(thread, items);
      return this.ensureHot(thread.id);
    }
    const state = new ThreadState(thread.id, false, thread);
    state.items = items.slice();
    this.hot.set(thread.id, state);
    return state;
  }

  /** Metadata of a thread, or -32020. */
  meta(threadId: string): Thread {
    const thread = this.hot.get(threadId)?.memoryMeta ?? this.store?.get(threadId);
    if (!thread) throw RpcError.threadNotFound(threadId);
    return thread;
  }

  /** Replaces a thread's metadata. */
  save(thread: Thread): void {
    const state = this.hot.get(thread.id);
    if (state && !state.persistent) state.memoryMeta = thread;
    else this.store?.put(thread);
  }

  /** Every thread's metadata: the store's, then the memory-only ones. */
  *all(): Iterable<Thread> {
    if (this.store) yield* this.store.values();
    for (const state of this.hot.values()) if (state.memoryMeta) yield state.memoryMeta;
  }

  /** The thread's hot state, made hot (persistent) when it was not. */
  ensureHot(threadId: string): ThreadState {
    let state = this.hot.get(threadId);
    if (!state) {
      state = new ThreadState(threadId, true);
      this.hot.set(threadId, state);
    }
    return state;
  }

  /** Persistent threads nobody watches and nothing runs on leave memory. */
  cool(state: ThreadState): void {
    if (!state.persistent || state.turn || state.subscribers.size > 0) return;
    this.hot.delete(state.id);
    this.store?.release(state.id);
  }

  /** After a turn: the thread's preview becomes the first line of its answer (the user's message stays if none). */
  savePreview(state: ThreadState, turnId: string): void {
    let preview: string | undefined;
    const items = state.items ?? [];
    for (let i = items.length - 1; i >= 0 && preview === undefined; i--) {
      const item = items[i]!;
      if (item.type === 'agentMessage' && item.turnId === turnId) preview = previewLine(item.content.text);
    }
    const thread = this.hot.get(state.id)?.memoryMeta ?? this.store?.get(state.id);
    if (!preview || !thread || thread.preview === preview) return;
    this.save({ ...thread, preview });
  }
}
