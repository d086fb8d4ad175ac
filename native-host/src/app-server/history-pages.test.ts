/** History pages through the protocol: thread/read and thread/resume answer the latest page, thread/history/read the rest. */
import type { Item } from '@tether/protocol';
import { ErrorCode } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClient } from './testing/harness';
import { createHarness, runTurn, type Harness } from './testing/harness';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
});

/** A server whose pages hold at most `turns` turns. */
async function connect(persistent: boolean, turns: number): Promise<TestClient> {
  const h = createHarness({ persistent, config: { historyPage: { bytes: 1 << 20, turns } } });
  harnesses.push(h);
  return h.connect();
}

/** Every completed item, from the latest page back to the first by cursor. */
async function walk(tc: TestClient, threadId: string): Promise<{ pages: Item[][]; items: Item[] }> {
  const first = await tc.client.threadRead({ threadId });
  const pages = [first.items];
  for (let cursor = first.olderCursor; cursor; ) {
    const page = await tc.client.threadHistoryRead({ threadId, cursor });
    pages.unshift(page.items);
    cursor = page.olderCursor;
  }
  return { pages, items: pages.flat() };
}

describe.each([
  ['a persistent thread', true],
  ['a memory-only thread', false],
])('history pages of %s', (_name, persistent) => {
  it('answers the latest page with a cursor and walks back to the first item, each once and in order', async () => {
    const tc = await connect(persistent, 2);
    const { thread } = await tc.client.threadStart({ title: 'long' });
    for (let i = 0; i < 5; i++) await runTurn(tc, thread.id, `message ${i}`);
    const { pages, items } = await walk(tc, thread.id);
    expect(pages.map((p) => new Set(p.map((i) => i.turnId)).size)).toEqual([1, 2, 2]);
    const users = items.filter((i) => i.type === 'userMessage').map((i) => (i.content as { text: string }).text);
    expect(users).toEqual(['message 0', 'message 1', 'message 2', 'message 3', 'message 4']);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    const resumed = await tc.client.threadResume({ threadId: thread.id });
    expect(resumed.items).toEqual(pages.at(-1));
    expect(resumed.olderCursor).toEqual((await tc.client.threadRead({ threadId: thread.id })).olderCursor);
  });

  it('answers -32602 for a cursor that is not one it gave out or belongs to another thread, saying what to do', async () => {
    const tc = await connect(persistent, 1);
    const a = (await tc.client.threadStart({})).thread.id;
    const b = (await tc.client.threadStart({})).thread.id;
    for (const id of [a, b]) for (let i = 0; i < 2; i++) await runTurn(tc, id, `m${i}`);
    const cursorOfB = (await tc.client.threadRead({ threadId: b })).olderCursor!;
    for (const [cursor, why] of [
      ['garbage', /not a history cursor/],
      [cursorOfB, new RegExp(`belongs to thread ${b}`)],
    ] as const) {
      await expect(tc.client.threadHistoryRead({ threadId: a, cursor })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringMatching(why),
      });
    }
    await expect(tc.client.threadHistoryRead({ threadId: a, cursor: 'garbage' })).rejects.toThrow(
      /read the thread again for a fresh cursor/,
    );
  });
});

describe('a thread that fits one page', () => {
  it('answers without a cursor, as before pages', async () => {
    const tc = await connect(true, 100);
    const { thread } = await tc.client.threadStart({});
    await runTurn(tc, thread.id, 'hello');
    const read = await tc.client.threadRead({ threadId: thread.id });
    expect(read.items).toHaveLength(2);
    expect('olderCursor' in read).toBe(false);
  });
});
