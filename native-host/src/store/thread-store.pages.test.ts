import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, type Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { encodeCursor, type PageBudget } from './history-page';
import { ThreadStore } from './thread-store';

const tempDir = useTempDirs('tether-pages-');
const noLog = (): void => undefined;
const item = (id: string, text: string, turnId?: string): Item => testItem(id, text, { turnId });
/** Bytes an item weighs against a page budget: its journal line. */
const weight = (i: Item): number => Buffer.byteLength(JSON.stringify({ type: 'item', item: i })) + 1;

/** Every page from the latest back to the first, each as read. */
function walk(store: ThreadStore, threadId: string, budget: PageBudget): Item[][] {
  const pages: Item[][] = [];
  let page = store.page(threadId, budget);
  pages.push(page.items);
  while (page.olderCursor !== null) {
    page = store.page(threadId, budget, page.olderCursor);
    pages.push(page.items);
  }
  return pages.reverse();
}

describe('paged reads of the thread store', () => {
  it('walks from the latest page back with cursors: every item once, in order, no page over budget but a lone big item', () => {
    const store = new ThreadStore(tempDir(), noLog);
    const items: Item[] = [];
    for (let i = 0; i < 120; i++)
      items.push(item(`i${i}`, 'x'.repeat(i % 17 === 0 ? 900 : (i * 37) % 150), `turn_${Math.floor(i / 3)}`));
    store.create(testThread('t'));
    for (const i of items) {
      store.appendItem('t', i);
      if (i.id === 'i50') store.appendTurn('t', { id: 'turn_16', threadId: 't', status: 'completed', input: [] });
    }
    const budget = { bytes: 600, turns: 4 };
    const pages = walk(store, 't', budget);
    expect(pages.flat()).toEqual(items);
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      const bytes = page.reduce((n, i) => n + weight(i), 0);
      if (bytes > budget.bytes) expect(page).toHaveLength(1);
      expect(new Set(page.map((i) => i.turnId)).size).toBeLessThanOrEqual(budget.turns);
    }
    expect(pages.some((p) => p.length === 1 && weight(p[0]!) > budget.bytes)).toBe(true);
  });

  it('ends a page at the turn budget and gives no cursor on a thread that fits in one page', () => {
    const store = new ThreadStore(tempDir(), noLog);
    store.create(testThread('t'), [
      item('a', 'x', 'turn_1'),
      item('b', 'x', 'turn_2'),
      item('c', 'x', 'turn_2'),
      item('d', 'x', 'turn_3'),
    ]);
    const latest = store.page('t', { bytes: 1 << 20, turns: 2 });
    expect(latest.items.map((i) => i.id)).toEqual(['b', 'c', 'd']);
    expect(store.page('t', { bytes: 1 << 20, turns: 2 }, latest.olderCursor!)).toMatchObject({
      items: [item('a', 'x', 'turn_1')],
      olderCursor: null,
    });
    expect(store.page('t', { bytes: 1 << 20, turns: 100 }).olderCursor).toBeNull();
    expect(store.page('empty-never-created', { bytes: 1, turns: 1 })).toEqual({
      items: [],
      sizes: [],
      olderCursor: null,
    });
  });

  it('answers -32602 saying to read the thread again for a cursor that is not ours, of another thread, or not at a line', () => {
    const store = new ThreadStore(tempDir(), noLog);
    store.create(testThread('t'), [item('a', 'x'), item('b', 'y')]);
    store.create(testThread('u'), [item('c', 'z')]);
    const budget = { bytes: 1, turns: 100 };
    const ofU = store.page('u', { bytes: 1 << 20, turns: 1 });
    const foreign = encodeCursor('u', 'journal', 10);
    for (const [cursor, why] of [
      ['not-a-cursor', /not a history cursor/],
      ['', /not a history cursor/],
      [foreign, /belongs to thread u/],
      [encodeCursor('t', 'journal', 5), /points to no line/],
      [encodeCursor('t', 'journal', 1e9), /points to no line/],
      [encodeCursor('t', 'memory', 1), /earlier copy/],
    ] as const) {
      let error: unknown;
      try {
        store.page('t', budget, cursor);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(why) });
      expect((error as Error).message).toContain('read the thread again');
    }
    expect(ofU.olderCursor).toBeNull();
  });

  it('pages a journal the ACP adapter wrote before the stores merged (bare items, no header) the same way', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'threads'), { recursive: true });
    const items = [item('a', 'one'), item('b', 'two'), item('c', 'three')];
    writeFileSync(join(dir, 'threads', 'sess-1.jsonl'), items.map((i) => `${JSON.stringify(i)}\n`).join(''));
    appendFileSync(join(dir, 'threads', 'sess-1.jsonl'), '{"id":"d","type":"agentMess');
    const store = new ThreadStore(dir, noLog);
    expect(walk(store, 'sess-1', { bytes: 40, turns: 100 }).flat()).toEqual(items);
  });

  it('reads items longer than its read chunk whole, one a page when each is over the budget', () => {
    const store = new ThreadStore(tempDir(), noLog);
    const items = [item('a', 'é'.repeat(100_000)), item('b', 'short'), item('c', 'x'.repeat(200_000))];
    store.create(testThread('t'), items);
    expect(walk(store, 't', { bytes: 1000, turns: 100 })).toEqual([[items[0]], [items[1]], [items[2]]]);
  });

  it('reads the items after a given item from the end, and undefined for an item not in the thread', () => {
    const store = new ThreadStore(tempDir(), noLog);
    store.create(testThread('t'), [item('a', 'x'), item('b', 'y'), item('c', 'z')]);
    expect(store.itemsAfter('t', 'a')?.map((i) => i.id)).toEqual(['b', 'c']);
    expect(store.itemsAfter('t', 'c')).toEqual([]);
    expect(store.itemsAfter('t', 'nope')).toBeUndefined();
  });
});
