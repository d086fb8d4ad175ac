/**
 * Where the app-server reads a thread's completed items: the in-memory list of a memory-only thread, or the store's
 * journal (by pages, read backwards) of a persistent one. Before a persistent thread that runs no turn here is read,
 * the store closes a turn a dead process left open. A persistent thread's model sees the latest page, cached in its
 * state between turns: a turn costs the same on the 5,000th turn as on the first.
 */
import { type ClientRequestResult, type Item, RpcError, type Thread, type Turn } from '@tether/protocol';
import { itemSize, memoryPage, pageOfList, type PageBudget, type StoredPage } from '../store/history-page';
import type { ThreadStore } from '../store/thread-store';
import type { ThreadState } from './thread-state';

/** Reads of completed items, by page, after an item, or all of them. */
export class ThreadHistory {
  constructor(
    private readonly store: ThreadStore | undefined,
    private readonly budget: PageBudget,
  ) {}

  /** The page ending at `cursor` (default: the latest); -32602 for a cursor not of this thread. */
  page(threadId: string, state: ThreadState | undefined, cursor?: string): StoredPage {
    if (state && !state.persistent) return memoryPage(state.items ?? [], threadId, this.budget, cursor);
    return this.journal(threadId, state).page(threadId, this.budget, cursor);
  }

  /** The completed items after `itemId` (and how their unfinished turns ended); -32602 when the thread has no such item. */
  after(threadId: string, state: ThreadState | undefined, itemId: string): { items: Item[]; unfinishedTurns: Turn[] } {
    const read =
      state && !state.persistent
        ? afterIn(state.items ?? [], itemId)
        : this.journal(threadId, state).readAfter(threadId, itemId);
    if (!read) throw RpcError.itemNotFound(threadId, itemId);
    return read;
  }

  /**
   * `thread/read`'s answer: the latest page of items (the running turn's items in progress last), or every item after
   * `afterItemId` (-32602 when the thread has no such item).
   */
  read(thread: Thread, state: ThreadState | undefined, afterItemId?: string): ClientRequestResult<'thread/read'> {
    const open = state?.turn?.openItems() ?? [];
    if (afterItemId !== undefined) {
      const inOpen = open.findIndex((i) => i.id === afterItemId);
      if (inOpen >= 0) return { thread, items: open.slice(inOpen + 1) };
      const after = this.after(thread.id, state, afterItemId);
      return { thread, items: [...after.items, ...open], ...unfinishedOf(after.unfinishedTurns) };
    }
    const page = this.page(thread.id, state);
    const items = open.length === 0 ? page.items : [...page.items, ...open];
    // No cursor on a thread that fits one page: the answer is what it was before pages (and what the seeds show).
    return {
      thread,
      items,
      ...(page.olderCursor === null ? {} : { olderCursor: page.olderCursor }),
      ...unfinishedOf(page.unfinishedTurns),
    };
  }

  /** Every completed item (a fork copies them all). */
  all(threadId: string, state: ThreadState | undefined): Item[] {
    if (state && !state.persistent) return (state.items ?? []).slice();
    return this.journal(threadId, state).allItems(threadId);
  }

  /** What the thread's model sees: loads a persistent thread's latest page and grants into `state` unless loaded. */
  loadTail(state: ThreadState): Item[] {
    if (state.items) return state.items;
    const tail = this.journal(state.id, state).page(state.id, this.budget);
    for (const [i, item] of tail.items.entries()) state.sizes.set(item, tail.sizes[i]!);
    for (const grant of this.store!.grants(state.id)) state.grants.add(grant);
    state.items = tail.items;
    return tail.items;
  }

  /** After a persistent thread's turn: its cached tail is cut back to one page. */
  trimTail(state: ThreadState): void {
    if (state.persistent && state.items)
      state.items = pageOfList(state.items, this.budget, undefined, (i) => state.sizes.get(i) ?? itemSize(i)).items;
  }

  private journal(threadId: string, state: ThreadState | undefined): ThreadStore {
    if (!state?.turn) this.store!.recover(threadId);
    return this.store!;
  }
}

function afterIn(items: readonly Item[], itemId: string): { items: Item[]; unfinishedTurns: Turn[] } | undefined {
  const index = items.findIndex((i) => i.id === itemId);
  return index < 0 ? undefined : { items: items.slice(index + 1), unfinishedTurns: [] };
}

/** The `unfinishedTurns` field of a read's answer: left out when there is none, so finished threads read as before. */
export function unfinishedOf(turns: readonly Turn[] | undefined): { unfinishedTurns?: Turn[] } {
  return turns && turns.length > 0 ? { unfinishedTurns: [...turns] } : {};
}
