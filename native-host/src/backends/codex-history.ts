/**
 * Pages of a saved Codex thread's history, by the same budget as the thread store's. Codex 0.171.0 pages a saved
 * thread by turns (`thread/turns/list`, newest first, with its own cursors); this cuts its turns into Tether's pages
 * (items never split, a turn split where the byte budget ends). Our cursor carries Codex's cursor of the turn the page
 * ends in plus how many of that turn's items are older than the page.
 *
 * Memory: a page costs the turns fetched for it, not the thread. Turns are asked for 4, then 16, then 64 at a time,
 * never more than the page's turn budget still allows, so a page of large turns reads about as many turns as it shows
 * (at most four times as many), plus one cheap request without items to position the next cursor.
 */
import { RpcError } from '@tether/protocol';
import {
  type CursorPosition,
  encodeCursor,
  invalidCursor,
  itemSize,
  PageBuilder,
  type PageBudget,
  type StoredPage,
} from '../store/history-page';
import type { ShownTurn } from './codex-journal';
import { mapTurn, turnItems } from './codex-map';
import { asRecord, str } from './dialect-core';

/** Parameters of Codex's `thread/turns/list`, as this module sends them. */
export interface CodexTurnsQuery {
  readonly threadId: string;
  readonly cursor?: string;
  readonly limit: number;
  readonly sortDirection: 'desc';
  readonly itemsView: 'full' | 'notLoaded';
}

/** Sends one `thread/turns/list` to Codex and gives its answer (errors already translated). */
export type ListTurns = (query: CodexTurnsQuery) => Promise<Record<string, unknown>>;

/** Turns asked for first; each further ask is four times larger, within the page's turn budget. */
const FIRST_ASK = 4;

/** A page of a Codex thread, with the turns whose items it shows (see CodexJournal.merge). */
export interface CodexPage extends StoredPage {
  readonly turns: ShownTurn[];
}

/**
 * The page of saved thread `threadId` that ends at `position` (a cursor of kind `agent`; default: the latest page),
 * with the cursor of the page before it. -32602 when the position no longer names a place in the thread.
 */
export async function codexPage(
  list: ListTurns,
  threadId: string,
  budget: PageBudget,
  position?: CursorPosition,
): Promise<CodexPage> {
  const page = new PageBuilder(budget);
  const shown: ShownTurn[] = [];
  let upstream = position?.upstream;
  let end = position?.at;
  let ask = FIRST_ASK;
  let fetched = 0;
  for (;;) {
    const answer = await list({
      threadId,
      ...(upstream === undefined ? {} : { cursor: upstream }),
      limit: ask,
      sortDirection: 'desc',
      itemsView: 'full',
    }).catch((error: unknown) => {
      throw upstream !== undefined && isCursorError(error)
        ? invalidCursor(threadId, 'Codex no longer knows the position it names')
        : error;
    });
    const turns = Array.isArray(answer.data) ? answer.data : [];
    for (const [index, turn] of turns.entries()) {
      const items = turnItems(turn);
      let k = end ?? items.length;
      if (k > items.length) throw invalidCursor(threadId, 'it points past the end of a turn');
      shown.push({ turn: mapTurn(turn, threadId), tail: k === items.length });
      end = undefined;
      for (; k > 0; k--) {
        const item = items[k - 1]!;
        if (!page.offer(item, itemSize(item))) {
          const older = await turnCursor(list, threadId, upstream, index);
          return done(page, shown, encodeCursor(threadId, 'agent', k, older));
        }
      }
    }
    fetched += turns.length;
    const next = str(answer.nextCursor);
    if (next === undefined || turns.length === 0) return done(page, shown, null);
    upstream = next;
    ask = Math.max(1, Math.min(ask * 4, budget.turns + 1 - fetched));
  }
}

/** Codex's cursor of the turn `index` places after the one `from` names: where that turn comes first. */
async function turnCursor(
  list: ListTurns,
  threadId: string,
  from: string | undefined,
  index: number,
): Promise<string | undefined> {
  if (index === 0) return from;
  const answer = await list({
    threadId,
    ...(from === undefined ? {} : { cursor: from }),
    limit: index,
    sortDirection: 'desc',
    itemsView: 'notLoaded',
  });
  const next = str(asRecord(answer).nextCursor);
  if (next === undefined) throw new Error(`Codex gave no cursor after ${index} turns of thread ${threadId}`);
  return next;
}

function done(page: PageBuilder, turns: ShownTurn[], olderCursor: string | null): CodexPage {
  return { items: page.items(), sizes: page.sizes(), olderCursor, turns };
}

/** Codex answers a cursor it cannot use with -32600 `invalid cursor: ...`. */
function isCursorError(error: unknown): boolean {
  return error instanceof RpcError && /invalid cursor/i.test(error.message);
}
