/**
 * Reading a Codex thread back: `thread/read`, `thread/resume` and `thread/history/read` answered by pages of the same
 * budget as the thread store's. Codex pages a saved, idle thread itself (codex-history.ts); it refuses to page an
 * ephemeral one and reports a running turn as interrupted with no items (it pages what it saved), so those are read
 * live and whole, and paged in memory: their cursors are of kind `memory`, and `thread/history/read` reads live again.
 * That costs the whole mapped history per read, for threads that live in Codex's memory (ephemeral) or are being
 * written now; every other read costs a page. A turn shown that Codex did not complete gets what Tether kept of it
 * and Codex lacks (the partial answer of a Codex that died, see codex-journal.ts) and is listed in `unfinishedTurns`;
 * finding it reads the journal back to that turn only.
 */
import type { ClientRequestParams, ClientRequestResult, Item, RequestContext, Thread, Turn } from '@tether/protocol';
import { unfinishedOf } from '../app-server/thread-history';
import { invalidCursor, memoryPage, type PageBudget, readCursor } from '../store/history-page';
import { type CodexPage, codexPage, type ListTurns } from './codex-history';
import type { MergedPage, ShownTurn } from './codex-journal';
import { historyItems, mapThread, mapTurn } from './codex-map';
import { asRecord, itemsAfter, str } from './dialect-core';

/** What reading needs from the adapter. */
export interface CodexReadDeps {
  /**
   * One request to Codex for the client request answered through `ctx`: `map` reads the answer synchronously, errors
   * are translated.
   */
  forward<T>(
    method: string,
    params: unknown,
    ctx: RequestContext,
    threadId: string,
    map: (result: Record<string, unknown>) => T,
  ): Promise<T>;
  /** Keeps the thread as the adapter knows it, and gives it back. */
  remember(thread: Thread): Thread;
  /** A Codex turn in Tether's terms (a running one followed by the adapter). */
  turnOf(raw: unknown, threadId: string): Turn;
  /** Codex's items with what Tether kept of the turns Codex did not finish, and those turns (CodexJournal.merge). */
  merge(threadId: string, items: readonly Item[], turns: readonly ShownTurn[], active?: string): MergedPage;
}

/** A read's items, and the turns among theirs that did not finish. */
interface History {
  readonly thread: Thread;
  readonly items: Item[];
  readonly unfinishedTurns: Turn[];
  readonly activeTurn?: Turn;
}

/** The reads of one Codex adapter; `budget` bounds each page. */
export class CodexReads {
  constructor(
    private readonly deps: CodexReadDeps,
    private readonly budget: PageBudget,
  ) {}

  /** `thread/read`: the latest page, or everything after an item. */
  async read(p: ClientRequestParams<'thread/read'>, ctx: RequestContext): Promise<ClientRequestResult<'thread/read'>> {
    if (p.afterItemId === undefined) {
      const { thread, items, olderCursor, unfinishedTurns } = await this.latestPage('thread/read', p.threadId, ctx);
      return { thread, items, ...(olderCursor ? { olderCursor } : {}), ...unfinishedOf(unfinishedTurns) };
    }
    const { thread, items, unfinishedTurns } = await this.liveHistory(p.threadId, ctx);
    const after = itemsAfter(items, p.afterItemId, p.threadId);
    const of = items.find((i) => i.id === p.afterItemId);
    return { thread, items: after, ...unfinishedOf(shownIn(unfinishedTurns, of ? [of, ...after] : after)) };
  }

  /** `thread/resume`: the latest page and the running turn, if any. */
  async resume(
    p: ClientRequestParams<'thread/resume'>,
    ctx: RequestContext,
  ): Promise<ClientRequestResult<'thread/resume'>> {
    // Without a subscription a plain read gives the same history.
    const method = p.subscribe === false ? 'thread/read' : 'thread/resume';
    const { thread, items, olderCursor, activeTurn, unfinishedTurns } = await this.latestPage(method, p.threadId, ctx);
    return {
      thread,
      items,
      ...(activeTurn ? { activeTurn } : {}),
      ...(olderCursor ? { olderCursor } : {}),
      ...unfinishedOf(unfinishedTurns),
    };
  }

  /** `thread/history/read`: the page older than a cursor this adapter gave out. */
  async history(
    p: ClientRequestParams<'thread/history/read'>,
    ctx: RequestContext,
  ): Promise<ClientRequestResult<'thread/history/read'>> {
    const position = readCursor(p.cursor, p.threadId);
    if (position.kind === 'agent') {
      const page = await codexPage(this.listTurns(ctx), p.threadId, this.budget, position);
      const { items, unfinishedTurns } = this.merged(p.threadId, page);
      return { items, olderCursor: page.olderCursor, ...unfinishedOf(unfinishedTurns) };
    }
    if (position.kind !== 'memory') throw invalidCursor(p.threadId, 'it was given out by another backend');
    const { items, unfinishedTurns } = await this.liveHistory(p.threadId, ctx);
    const { items: page, olderCursor } = memoryPage(items, p.threadId, this.budget, p.cursor);
    return { items: page, olderCursor, ...unfinishedOf(shownIn(unfinishedTurns, page)) };
  }

  /** The thread and its latest page: paged by Codex when saved and idle, else read live and paged in memory. */
  private async latestPage(
    method: 'thread/read' | 'thread/resume',
    threadId: string,
    ctx: RequestContext,
  ): Promise<History & { olderCursor: string | null }> {
    const params = method === 'thread/read' ? { threadId } : { threadId, excludeTurns: true };
    const meta = await this.deps.forward(method, params, ctx, threadId, (r) => asRecord(r.thread));
    if (meta.ephemeral !== true && asRecord(meta.status).type !== 'active') {
      const page = await codexPage(this.listTurns(ctx), threadId, this.budget);
      const thread = this.deps.remember(mapThread(meta));
      return { thread, ...this.merged(threadId, page), olderCursor: page.olderCursor };
    }
    const { thread, items, activeTurn, unfinishedTurns } = await this.liveHistory(threadId, ctx);
    const page = memoryPage(items, threadId, this.budget);
    return {
      thread,
      items: page.items,
      olderCursor: page.olderCursor,
      unfinishedTurns: shownIn(unfinishedTurns, page.items),
      ...(activeTurn ? { activeTurn } : {}),
    };
  }

  /** A page Codex gave, with what Tether kept of the turns on it that Codex did not finish. */
  private merged(threadId: string, page: CodexPage): MergedPage {
    return this.deps.merge(threadId, page.items, page.turns);
  }

  /** The thread with its whole history as Codex holds it now (a running turn included). */
  private liveHistory(threadId: string, ctx: RequestContext): Promise<History> {
    return this.deps.forward('thread/read', { threadId, includeTurns: true }, ctx, threadId, (r) => {
      const raw = asRecord(r.thread).turns;
      const turns = Array.isArray(raw) ? raw.map(asRecord) : [];
      const active = turns.filter((t) => t.status === 'inProgress').pop();
      const shown = turns.map((t) => ({ turn: mapTurn(t, threadId), tail: true }));
      const merged = this.deps.merge(threadId, historyItems(r.thread), shown, str(active?.id));
      return {
        thread: this.deps.remember(mapThread(r.thread)),
        ...merged,
        ...(active ? { activeTurn: this.deps.turnOf(active, threadId) } : {}),
      };
    });
  }

  /** `thread/turns/list` for the client request answered through `ctx`. */
  private listTurns(ctx: RequestContext): ListTurns {
    return (query) => this.deps.forward('thread/turns/list', query, ctx, query.threadId, (r) => r);
  }
}

/** The turns of `unfinished` that `items` show. */
function shownIn(unfinished: readonly Turn[], items: readonly Item[]): Turn[] {
  const shown = new Set(items.map((i) => i.turnId));
  return unfinished.filter((t) => shown.has(t.id));
}
