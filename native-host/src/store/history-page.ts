/**
 * Pages of a thread's history, newest first: the budget that bounds a page, the opaque cursor that names where the
 * next (older) page ends, and paging over an in-memory list. The journal's pages are read by `ThreadStore.page`.
 */
import { ErrorCode, type Item, RpcError, type Turn } from '@tether/protocol';

/** How much one page may hold. An item is never split: one larger than `bytes` comes alone on its page. */
export interface PageBudget {
  /** Most bytes of serialised items (as journaled) on one page. */
  readonly bytes: number;
  /** Most turns whose items appear on one page. */
  readonly turns: number;
}

/** 1 MiB / 100 turns: a 10,000-item (20 MB) thread opens in a few ms and a page stays far below the host's frame limits. */
export const DEFAULT_PAGE_BUDGET: PageBudget = { bytes: 1024 * 1024, turns: 100 };

/** One page of a thread's completed items, oldest first, and the cursor of the page before it (null: none). */
export interface StoredPage {
  readonly items: Item[];
  /** Journal size of each item (in the order of `items`), where known: what it weighs against a budget. */
  readonly sizes: number[];
  readonly olderCursor: string | null;
  /** The turns of `items` that ended without completing (interrupted, failed), where the store knows them. */
  readonly unfinishedTurns?: Turn[];
}

/** One page: items oldest first, and the position of the page before it (undefined on the thread's first page). */
export interface HistoryPage {
  readonly items: Item[];
  readonly sizes: number[];
  readonly olderAt: number | undefined;
}

/**
 * What a cursor positions into: a journal (`at` is a byte offset), an in-memory list (`at` is an index), or an agent's
 * own history paging (`upstream` is the agent's cursor of the turn the page ends in, absent for the newest turn, and
 * `at` is how many of that turn's items come before the position).
 */
export type CursorKind = 'journal' | 'memory' | 'agent';

/** Where a cursor points, as `readCursor` finds it. */
export interface CursorPosition {
  readonly kind: CursorKind;
  readonly at: number;
  /** The agent's own cursor (kind `agent` only); undefined for the agent's newest turn. */
  readonly upstream?: string;
}

interface CursorBody {
  v: 1;
  t: string;
  k: CursorKind;
  a: number;
  u?: string;
}

const KINDS: readonly string[] = ['journal', 'memory', 'agent'] satisfies CursorKind[];

/** The opaque cursor of the page that ends right before `at` in thread `threadId` (`upstream`: see CursorKind). */
export function encodeCursor(threadId: string, kind: CursorKind, at: number, upstream?: string): string {
  const body: CursorBody = { v: 1, t: threadId, k: kind, a: at, ...(upstream === undefined ? {} : { u: upstream }) };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** The position a cursor names, of whichever kind; -32602 when it is not one of ours or belongs to another thread. */
export function readCursor(cursor: string, threadId: string): CursorPosition {
  let body: Partial<CursorBody> | undefined;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    body = undefined;
  }
  if (
    body?.v !== 1 ||
    typeof body.a !== 'number' ||
    !Number.isSafeInteger(body.a) ||
    body.a < 0 ||
    typeof body.t !== 'string' ||
    typeof body.k !== 'string' ||
    !KINDS.includes(body.k) ||
    (body.u !== undefined && typeof body.u !== 'string')
  ) {
    throw invalidCursor(threadId, 'it is not a history cursor this server gave out');
  }
  if (body.t !== threadId) throw invalidCursor(threadId, `it belongs to thread ${body.t}`);
  return { kind: body.k, at: body.a, ...(body.u === undefined ? {} : { upstream: body.u }) };
}

/** The position a cursor of `kind` names; -32602 when it is not one of ours, or belongs to another thread or store. */
export function decodeCursor(cursor: string, threadId: string, kind: CursorKind): number {
  const position = readCursor(cursor, threadId);
  if (position.kind !== kind) throw invalidCursor(threadId, 'it was given out for an earlier copy of the thread');
  return position.at;
}

/** -32602 for a cursor that cannot be used on this thread, saying how to get a good one. */
export function invalidCursor(threadId: string, why: string): RpcError {
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params: the history cursor does not name a page of thread ${threadId} (${why}); read the thread again for a fresh cursor`,
    { threadId },
  );
}

/**
 * Collects a page from items offered newest first, until the next one would break the budget. The first item is
 * always taken, so a single item larger than the budget still comes (alone).
 */
export class PageBuilder {
  private readonly newestFirst: Item[] = [];
  private readonly sizesNewestFirst: number[] = [];
  private bytes = 0;
  private turns = 0;
  private lastTurn: string | undefined | null = null;

  constructor(private readonly budget: PageBudget) {}

  /** Adds `item` (`size` bytes) when it fits; false when the page is full (the item is left for the next page). */
  offer(item: Item, size: number): boolean {
    const newTurn = item.turnId !== this.lastTurn;
    if (this.newestFirst.length > 0) {
      if (this.bytes + size > this.budget.bytes) return false;
      if (newTurn && this.turns + 1 > this.budget.turns) return false;
    }
    this.newestFirst.push(item);
    this.sizesNewestFirst.push(size);
    this.bytes += size;
    if (newTurn) this.turns++;
    this.lastTurn = item.turnId;
    return true;
  }

  /** The items taken, oldest first. */
  items(): Item[] {
    return this.newestFirst.slice().reverse();
  }

  /** The sizes of the items taken, in the order of `items()`. */
  sizes(): number[] {
    return this.sizesNewestFirst.slice().reverse();
  }
}

/** An item's weight against a budget: its serialised size plus a newline, as a journal line holds it. */
export function itemSize(item: Item): number {
  return Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
}

/** The page of `items` that ends right before index `end` (default: the whole list's end). */
export function pageOfList(
  items: readonly Item[],
  budget: PageBudget,
  end = items.length,
  sizeOf = itemSize,
): HistoryPage {
  const page = new PageBuilder(budget);
  let at = Math.min(end, items.length);
  while (at > 0 && page.offer(items[at - 1]!, sizeOf(items[at - 1]!))) at--;
  return { items: page.items(), sizes: page.sizes(), olderAt: at > 0 ? at : undefined };
}

/** The page of an in-memory thread's `items` that ends where `cursor` points (default: the latest); -32602 for a bad cursor. */
export function memoryPage(items: readonly Item[], threadId: string, budget: PageBudget, cursor?: string): StoredPage {
  const end = cursor === undefined ? items.length : decodeCursor(cursor, threadId, 'memory');
  if (end > items.length) throw invalidCursor(threadId, 'it points past the end of the thread');
  const page = pageOfList(items, budget, end);
  return {
    items: page.items,
    sizes: page.sizes,
    olderCursor: page.olderAt === undefined ? null : encodeCursor(threadId, 'memory', page.olderAt),
  };
}
