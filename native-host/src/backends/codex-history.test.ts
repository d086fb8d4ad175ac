import { describe, expect, it } from 'vitest';
import { type PageBudget, readCursor } from '../store/history-page';
import { type CodexPage, codexPage, type CodexTurnsQuery } from './codex-history';

/** Six Codex turns, oldest first, each a question and an answer long enough that pages end inside turns. */
const TURNS = Array.from({ length: 6 }, (_, n) => ({
  id: `turn${n}`,
  status: n === 3 ? 'interrupted' : 'completed',
  items: [
    { type: 'userMessage', id: `u${n}`, content: [{ type: 'text', text: `Question ${n}` }] },
    { type: 'agentMessage', id: `a${n}`, text: `Answer ${n} `.repeat(30) },
  ],
}));

/** Codex's `thread/turns/list` over TURNS: newest first, its cursor the index of the next turn. */
async function list(query: CodexTurnsQuery): Promise<Record<string, unknown>> {
  const newestFirst = [...TURNS].reverse();
  const from = query.cursor === undefined ? 0 : Number(query.cursor);
  const data = newestFirst
    .slice(from, from + query.limit)
    .map((t) => (query.itemsView === 'full' ? t : { ...t, items: [] }));
  const next = from + query.limit;
  return { data, ...(next < newestFirst.length ? { nextCursor: String(next) } : {}) };
}

const BUDGET: PageBudget = { bytes: 1100, turns: 3 };

describe('pages of a Codex thread', () => {
  it("say of each turn they show whether its newest item is on them, and Codex's account of it", async () => {
    const pages: CodexPage[] = [await codexPage(list, 'th', BUDGET)];
    while (pages.at(-1)!.olderCursor !== null)
      pages.push(await codexPage(list, 'th', BUDGET, readCursor(pages.at(-1)!.olderCursor!, 'th')));
    // Every item once, oldest first across the pages (each page oldest first).
    expect([...pages].reverse().flatMap((p) => p.items.map((i) => i.id))).toEqual(
      TURNS.flatMap((t) => t.items.map((i) => i.id)),
    );
    let split = 0;
    for (const page of pages) {
      const ids = new Set(page.items.map((i) => i.id));
      for (const { turn, tail } of page.turns.filter((t) => page.items.some((i) => i.turnId === t.turn.id))) {
        expect(tail, turn.id).toBe(ids.has(`a${turn.id.slice(4)}`));
        expect(turn.status).toBe(turn.id === 'turn3' ? 'interrupted' : 'completed');
        if (!tail) split++;
      }
    }
    expect(split).toBeGreaterThan(0);
  });
});
