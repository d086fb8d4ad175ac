/**
 * Paged history through the Codex adapter, replaying `test/fixtures/codex/paging.jsonl`: recorded from Codex 0.171.0
 * driven by this adapter with the budget below (six turns, the third answering 1.5 KB and the fifth 560 bytes; then
 * thread/read, every older page, thread/resume, and a cursor whose Codex position is garbage). Codex pages by turns
 * (`thread/turns/list`); the adapter cuts them into pages of this budget.
 */
import {
  clientRequests,
  Connection,
  createMemoryTransportPair,
  ErrorCode,
  type Item,
  serverNotifications,
  type ThreadHistoryReadResult,
} from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { encodeCursor, itemSize, type PageBudget } from '../store/history-page';
import { useTempDirs } from '../testing/temp-dirs';
import { createCodexAdapter } from './codex-adapter';
import { FIXTURES, readTranscript, ReplayAgent } from './codex-replay-agent';

/** The adapter's data dir (its journal of relayed turns), one per test. */
const tempDir = useTempDirs('tether-codex-adapter-');

const BUDGET: PageBudget = { bytes: 1000, turns: 2 };

/** A client talking to the adapter in front of the replayed fixture, after six turns of one thread. */
async function sixTurns(fixture: string) {
  const [agentSide, upstream] = createMemoryTransportPair();
  const adapter = createCodexAdapter(
    upstream,
    { backendId: 'codex', dataDir: tempDir(), log: () => undefined },
    BUDGET,
  );
  new ReplayAgent(readTranscript(new URL(`codex/${fixture}.jsonl`, FIXTURES)), agentSide);
  const client = new Connection(adapter);
  const completed = new Set<string>();
  client.onNotification('turn/completed', (params) => {
    completed.add(serverNotifications['turn/completed'].parse(params).turn.id);
  });
  await client.request('initialize', { clientInfo: { name: 'tether-test', version: '1.0.0' }, capabilities: {} });
  client.notify('initialized');
  const { thread } = clientRequests['thread/start'].result.parse(await client.request('thread/start', {}));
  for (let n = 1; n <= 6; n++) {
    const { turn } = clientRequests['turn/start'].result.parse(
      await client.request('turn/start', { threadId: thread.id, input: [{ text: `Turn ${n}` }] }),
    );
    for (let i = 0; i < 500 && !completed.has(turn.id); i++) await new Promise((r) => setTimeout(r, 5));
  }
  return { client, threadId: thread.id };
}

/** Holds `page` to the budget: an item alone may be larger; otherwise bytes and turns stay within it. */
function expectWithinBudget(items: Item[]): void {
  const bytes = items.reduce((sum, i) => sum + itemSize(i), 0);
  if (items.length > 1) expect(bytes).toBeLessThanOrEqual(BUDGET.bytes);
  expect(new Set(items.map((i) => i.turnId)).size).toBeLessThanOrEqual(BUDGET.turns);
}

describe('codex adapter history pages', () => {
  it('walks a Codex thread by pages of the budget: every item once, in order, then no cursor', async () => {
    const { client, threadId } = await sixTurns('paging');
    const read = clientRequests['thread/read'].result.parse(await client.request('thread/read', { threadId }));
    expect(read.thread.title).toBe('Turn 1');
    expect(read.olderCursor).toEqual(expect.any(String));
    const pages: Item[][] = [read.items];
    let cursor = read.olderCursor;
    while (cursor) {
      const page: ThreadHistoryReadResult = clientRequests['thread/history/read'].result.parse(
        await client.request('thread/history/read', { threadId, cursor }),
      );
      pages.unshift(page.items);
      cursor = page.olderCursor;
    }
    expect(pages.length).toBe(6);
    for (const page of pages) {
      expect(page.length).toBeGreaterThan(0);
      expectWithinBudget(page);
    }
    // The 1.5 KB answer is larger than a page: it comes alone.
    expect(pages.find((p) => p.length === 1)?.[0]?.content).toMatchObject({ text: expect.stringMatching(/^long /) });
    const all = pages.flat();
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
    expect(all.map((i) => [i.type, i.type === 'userMessage' ? i.content.text : ''])).toEqual(
      [1, 2, 3, 4, 5, 6].flatMap((n) => [
        ['userMessage', `Turn ${n}`],
        ['agentMessage', ''],
      ]),
    );
    expect(new Set(all.map((i) => i.turnId)).size).toBe(6);

    // thread/resume opens on the same latest page.
    const resumed = clientRequests['thread/resume'].result.parse(await client.request('thread/resume', { threadId }));
    expect(resumed.items).toEqual(read.items);
    expect(resumed.olderCursor).toBe(read.olderCursor);
    expect(resumed.activeTurn).toBeUndefined();

    // A position Codex cannot use (here: garbage inside one of our cursors) is -32602 too.
    await expect(
      client.request('thread/history/read', { threadId, cursor: encodeCursor(threadId, 'agent', 1, 'garbage') }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(/Codex no longer knows.*read the thread again for a fresh cursor/),
    });
    client.close();
  });

  it('answers -32602 to a cursor that is garbage, of another thread or of another backend', async () => {
    const { client, threadId } = await sixTurns('paging');
    const bad: Array<[string, RegExp]> = [
      ['from-another-backend', /not a history cursor this server gave out/],
      [encodeCursor('another-thread', 'agent', 0), /belongs to thread another-thread/],
      [encodeCursor(threadId, 'journal', 10), /given out by another backend/],
    ];
    for (const [cursor, why] of bad) {
      await expect(client.request('thread/history/read', { threadId, cursor })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringMatching(why),
        data: { threadId },
      });
    }
    client.close();
  });
});
