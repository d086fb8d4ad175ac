/** Persistence through the protocol: restarts keep threads and items; ephemeral threads never touch disk. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, runTurn, type Harness } from './testing/harness';

const dirs: string[] = [];
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(dataDir: string): Harness {
  const h = createHarness({ dataDir });
  harnesses.push(h);
  return h;
}

describe('persistence', () => {
  it('keeps threads, items, archive state and allow_session decisions across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-persist-'));
    dirs.push(dataDir);
    const first = open(dataDir);
    const tc = await first.connect();
    tc.client.handle('approval/request', () => ({ decision: 'allow_session' }));
    const { thread } = await tc.client.threadStart({ title: 'kept' });
    await runTurn(tc, thread.id, '/bash echo one');
    const before = await tc.client.threadRead({ threadId: thread.id });
    const other = await tc.client.threadStart({ title: 'archived' });
    await tc.client.threadArchive({ threadId: other.thread.id });
    await first.server.close();

    const second = open(dataDir);
    const tc2 = await second.connect();
    let asked = 0;
    tc2.client.handle('approval/request', () => {
      asked++;
      return { decision: 'deny' };
    });
    expect(await tc2.client.threadRead({ threadId: thread.id })).toEqual(before);
    expect((await tc2.client.threadList({})).threads.map((t) => t.id)).toEqual([thread.id]);
    expect((await tc2.client.threadList({ archived: true })).threads.map((t) => t.id)).toEqual([other.thread.id]);
    const { turn } = await runTurn(tc2, thread.id, '/bash echo one');
    expect(turn.status).toBe('completed');
    expect(asked).toBe(0);
    await runTurn(tc2, thread.id, '/bash echo two');
    expect(asked).toBe(1);
  });

  it('never writes an ephemeral thread to disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-persist-'));
    dirs.push(dataDir);
    const h = open(dataDir);
    const tc = await h.connect();
    const { thread } = await tc.client.threadStart({ title: 'secret', ephemeral: true });
    await runTurn(tc, thread.id, 'private words');
    expect((await tc.client.threadRead({ threadId: thread.id })).items).toHaveLength(2);
    const files = readdirSync(join(dataDir, 'threads'));
    expect(files.filter((f) => f.includes(thread.id))).toEqual([]);
    const index = files.includes('index.jsonl') ? readFileSync(join(dataDir, 'threads', 'index.jsonl'), 'utf8') : '';
    expect(index).not.toContain(thread.id);
    expect(index).not.toContain('private words');
  });

  it('keeps everything in memory when the server has no data dir', async () => {
    const h = createHarness({ persistent: false });
    harnesses.push(h);
    const tc = await h.connect();
    const { thread } = await tc.client.threadStart({ title: 'mem' });
    await runTurn(tc, thread.id, 'hello');
    expect((await tc.client.threadList({})).threads.map((t) => t.id)).toEqual([thread.id]);
    expect((await tc.client.threadRead({ threadId: thread.id })).items).toHaveLength(2);
  });
});

describe('an unusable data dir', () => {
  it('refuses to start with a message naming the folder and what to do', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tether-persist-')), 'not-a-dir');
    dirs.push(join(file, '..'));
    writeFileSync(file, 'x');
    expect(() => createHarness({ dataDir: file })).toThrow(
      new RegExp(
        `^Cannot use the data dir ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*choose another \\(--data-dir DIR, or --memory\\)\\.$`,
      ),
    );
  });
});
