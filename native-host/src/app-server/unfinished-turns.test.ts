/**
 * A turn that did not finish says so in every read: thread/read, thread/resume (also from an item on) and
 * thread/history/read report it in `unfinishedTurns`, with why, after the server stopped mid-answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, runTurn } from './testing/harness';

const dirs: string[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(dataDir: string, historyPage?: { bytes: number; turns: number }): Harness {
  const h = createHarness({ dataDir, ...(historyPage ? { config: { historyPage } } : {}) });
  harnesses.push(h);
  return h;
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-unfinished-'));
  dirs.push(dir);
  return dir;
}

describe('a turn cut off when the server stopped', () => {
  it('reads back as interrupted with why, beside its partial answer, in thread/read and thread/resume', async () => {
    const dir = dataDir();
    const first = open(dir);
    const tc = await first.connect();
    const { thread } = await tc.client.threadStart({ title: 'cut off' });
    await runTurn(tc, thread.id, 'a finished turn');
    const { turn } = await tc.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 400 20' }] });
    await tc.rec.waitFor('item/agentMessage/delta', (p) => p.turnId === turn.id);
    await first.server.close();

    const tc2 = await open(dir).connect();
    const read = await tc2.client.threadRead({ threadId: thread.id });
    const partial = read.items.filter((i) => i.turnId === turn.id && i.type === 'agentMessage');
    expect(partial).toHaveLength(1);
    expect(read.unfinishedTurns).toEqual([
      expect.objectContaining({
        id: turn.id,
        status: 'interrupted',
        input: [{ text: '/stream 400 20' }],
        error: { message: 'The app-server stopped while this turn was running.' },
      }),
    ]);
    const resumed = await tc2.client.threadResume({ threadId: thread.id });
    expect(resumed.unfinishedTurns?.map((t) => t.id)).toEqual([turn.id]);
    expect(resumed.activeTurn).toBeUndefined();
  });

  it('leaves unfinishedTurns out when every turn completed, and names a user Stop without a cause', async () => {
    const h = open(dataDir());
    const tc = await h.connect();
    const { thread } = await tc.client.threadStart({});
    await runTurn(tc, thread.id, 'hello');
    expect((await tc.client.threadRead({ threadId: thread.id })).unfinishedTurns).toBeUndefined();
    const { turn } = await tc.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 400 20' }] });
    await tc.rec.waitFor('item/agentMessage/delta', (p) => p.turnId === turn.id);
    await tc.client.turnInterrupt({ threadId: thread.id, turnId: turn.id });
    await tc.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id);
    const [stopped] = (await tc.client.threadRead({ threadId: thread.id })).unfinishedTurns ?? [];
    expect(stopped).toMatchObject({ id: turn.id, status: 'interrupted' });
    expect(stopped?.error).toBeUndefined();
  });

  it('resumes from an item on with the items after it and the unfinished turn of that item', async () => {
    const dir = dataDir();
    const first = open(dir);
    const tc = await first.connect();
    const { thread } = await tc.client.threadStart({});
    const { turn } = await tc.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 400 20' }] });
    const asked = await tc.rec.waitFor('item/completed', (p) => p.item.type === 'userMessage');
    await tc.rec.waitFor('item/agentMessage/delta', (p) => p.turnId === turn.id);
    await first.server.close();

    const tc2 = await open(dir).connect();
    const resumed = await tc2.client.threadResume({ threadId: thread.id, afterItemId: asked.item.id });
    expect(resumed.items.map((i) => i.type)).toEqual(['agentMessage']);
    expect(resumed.unfinishedTurns?.map((t) => [t.id, t.status])).toEqual([[turn.id, 'interrupted']]);
    const none = await tc2.client.threadResume({ threadId: thread.id, afterItemId: resumed.items[0]!.id });
    expect(none.items).toEqual([]);
    expect(none.unfinishedTurns?.map((t) => t.id)).toEqual([turn.id]);
    await expect(tc2.client.threadResume({ threadId: thread.id, afterItemId: 'no-such-item' })).rejects.toThrow();
  });

  it('reports the unfinished turn on the older page that holds its items', async () => {
    const dir = dataDir();
    const first = open(dir, { bytes: 1024 * 1024, turns: 1 });
    const tc = await first.connect();
    const { thread } = await tc.client.threadStart({});
    const { turn } = await tc.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 400 20' }] });
    await tc.rec.waitFor('item/agentMessage/delta', (p) => p.turnId === turn.id);
    await tc.client.turnInterrupt({ threadId: thread.id, turnId: turn.id });
    await tc.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id);
    await runTurn(tc, thread.id, 'a later turn');
    const latest = await tc.client.threadRead({ threadId: thread.id });
    expect(latest.unfinishedTurns).toBeUndefined();
    expect(latest.olderCursor).toBeTruthy();
    const older = await tc.client.threadHistoryRead({ threadId: thread.id, cursor: latest.olderCursor! });
    expect(older.items.every((i) => i.turnId === turn.id)).toBe(true);
    expect(older.unfinishedTurns?.map((t) => t.id)).toEqual([turn.id]);
  });
});
