import {
  appendFileSync,
  chmodSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { ThreadStore } from './thread-store';
import { secrets } from '../secrets';
import { startRunningTurn, testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';

const tempDir = useTempDirs('tether-store-');

const item = (id: string, text: string): Item => testItem(id, text, { completedAtMs: 2 });
const noLog = (): void => undefined;

describe('the thread store', () => {
  it('keeps threads, items and allowed tools across reopening', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1'), [item('i1', 'a')]);
    store.appendItem('t1', item('i2', 'b'));
    store.appendGrant('t1', 'bash', 'bash\nls -l');
    store.put(testThread('t1', { title: 'renamed', updatedAtMs: 5 }));
    store.close();
    const again = new ThreadStore(dir, noLog);
    expect(again.get('t1')).toMatchObject({ title: 'renamed', updatedAtMs: 5 });
    expect(again.allItems('t1')).toEqual([item('i1', 'a'), item('i2', 'b')]);
    expect(again.grants('t1')).toEqual(['bash\nls -l']);
  });

  it('marks a turn that was running when the process died as interrupted, and the thread idle', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    startRunningTurn(store);
    // No close(): the process "died" here.
    const logs: string[] = [];
    const again = new ThreadStore(
      dir,
      (l) => logs.push(l),
      () => 99,
    );
    expect(again.get('t1')?.status).toBe('idle');
    const journal = readFileSync(join(dir, 'threads', 't1.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.at(-1)).toMatchObject({
      type: 'turn',
      turn: { id: 'turn_1', status: 'interrupted', completedAtMs: 99 },
    });
    expect(logs.join('\n')).toContain('marked interrupted');
  });

  it('puts back a thread whose index line was lost, from its journal header', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1'), [item('i1', 'a')]);
    store.close();
    writeFileSync(join(dir, 'threads', 'index.jsonl'), '');
    const again = new ThreadStore(dir, noLog);
    expect(again.get('t1')).toMatchObject({ id: 't1', status: 'idle' });
    expect(again.allItems('t1')).toHaveLength(1);
  });

  it('compacts an index full of stale lines when it opens', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1'));
    store.close();
    // As an older version (which compacted only at startup) left it.
    const stale = Array.from(
      { length: 200 },
      (_, i) => `${JSON.stringify({ thread: testThread('t1', { updatedAtMs: i }), pid: 1 })}\n`,
    );
    appendFileSync(join(dir, 'threads', 'index.jsonl'), stale.join(''));
    const again = new ThreadStore(dir, noLog);
    expect(again.get('t1')?.updatedAtMs).toBe(199);
    expect(
      readFileSync(join(dir, 'threads', 'index.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);
  });

  it('keeps the index compact while it writes: 5,000 updates of one thread leave a few dozen lines, the last one winning', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1'));
    store.appendGrant('t1', 'bash', 'bash\nls');
    for (let i = 0; i < 5000; i++) store.put(testThread('t1', { updatedAtMs: i }));
    store.close();
    const lines = readFileSync(join(dir, 'threads', 'index.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.length).toBeLessThanOrEqual(66);
    const again = new ThreadStore(dir, noLog);
    expect(again.get('t1')?.updatedAtMs).toBe(4999);
    expect(again.grants('t1')).toEqual(['bash\nls']);
  });

  it('lists threads from the index alone, without opening any journal', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    for (let i = 0; i < 1000; i++) store.create(testThread(`t${i}`), [item('i', 'x')]);
    store.close();
    for (const name of readdirSync(join(dir, 'threads')))
      if (name !== 'index.jsonl') rmSync(join(dir, 'threads', name));
    const again = new ThreadStore(dir, noLog);
    expect([...again.values()]).toHaveLength(1000);
    expect(existsSync(join(dir, 'threads', 't5.jsonl'))).toBe(false);
  });

  it('sees threads another process sharing the data dir adds, and follows its compaction', () => {
    const dir = tempDir();
    const a = new ThreadStore(dir, noLog);
    const b = new ThreadStore(dir, noLog);
    a.create(testThread('from-a'));
    b.create(testThread('from-b'));
    expect(
      a
        .values()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['from-a', 'from-b']);
    expect(b.get('from-a')?.id).toBe('from-a');
    for (let i = 0; i < 100; i++) a.put(testThread('from-a', { updatedAtMs: i }));
    new ThreadStore(dir, noLog).close(); // a third process starts and compacts the index
    b.put(testThread('from-b', { title: 'after compaction' }));
    const fresh = new ThreadStore(dir, noLog);
    expect(fresh.get('from-b')?.title).toBe('after compaction');
    expect(fresh.get('from-a')?.updatedAtMs).toBe(99);
    expect(a.values().find((t) => t.id === 'from-b')?.title).toBe('after compaction');
  });

  it('keeps what was streamed of an answer cut off by a crash, completed in its turn marked interrupted', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    startRunningTurn(store);
    const done = testItem('a0', 'finished', { turnId: 'turn_1' });
    store.appendStreamStart('t1', { ...testItem('a1', '', { turnId: 'turn_1' }), status: 'inProgress' });
    store.appendStreamStart('t1', { ...done, status: 'inProgress' });
    // Text is journaled in chunks that end a whitespace run, once enough follows them (see PendingStream).
    const sent = Array.from({ length: 400 }, (_, i) => `${i + 1} `);
    for (const delta of sent.slice(0, 200)) store.appendStreamText('t1', 'a1', delta);
    store.appendItem('t1', done);
    for (const delta of sent.slice(200)) store.appendStreamText('t1', 'a1', delta);
    // No close(): the process "died" here.
    const again = new ThreadStore(dir, noLog, () => 99);
    const page = again.page('t1', { bytes: 1 << 20, turns: 10 });
    expect(page.items.map((i) => [i.id, i.status])).toEqual([
      ['a0', 'completed'],
      ['a1', 'completed'],
    ]);
    expect(page.items[0]!.content).toEqual({ text: 'finished' });
    // A prefix of what was sent, short of at most the unjournaled tail, cut after a whole number.
    const kept = (page.items[1]!.content as { text: string }).text;
    expect(sent.join('').startsWith(kept)).toBe(true);
    expect(kept).toMatch(/ $/);
    expect(kept.length).toBeGreaterThan(sent.join('').length - 1024);
    expect(page.items[1]).toMatchObject({ turnId: 'turn_1', completedAtMs: 99 });
    expect(page.unfinishedTurns?.map((t) => [t.id, t.status])).toEqual([['turn_1', 'interrupted']]);
  });

  it('leaves alone a turn that another live process is running', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1'));
    store.appendTurn('t1', { id: 'turn_1', threadId: 't1', status: 'running', input: [{ text: 'x' }] });
    store.close();
    writeFileSync(
      join(dir, 'threads', 'index.jsonl'),
      `${JSON.stringify({ thread: testThread('t1', { status: 'running' }), pid: process.ppid })}\n`,
    );
    const other = new ThreadStore(dir, noLog);
    expect(other.get('t1')?.status).toBe('running');
    expect(readFileSync(join(dir, 'threads', 't1.jsonl'), 'utf8')).not.toContain('interrupted');
  });

  it.runIf(process.platform === 'linux')(
    'marks interrupted a turn whose writer is a zombie not yet reaped (a SIGKILLed daemon)',
    async () => {
      const dir = tempDir();
      const store = new ThreadStore(dir, noLog);
      store.create(testThread('t1'));
      store.appendTurn('t1', { id: 'turn_1', threadId: 't1', status: 'running', input: [{ text: 'x' }] });
      store.close();
      // The child exits after its parent exec'd into `sleep`, which never reaps it: a zombie until sleep ends. (A child
      // that exits at once can be reaped by the shell itself before its exec, and then there is no zombie to find.)
      const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const zombie = Number((await once(parent.stdout, 'data'))[0].toString().trim());
        await waitForZombie(zombie);
        writeFileSync(
          join(dir, 'threads', 'index.jsonl'),
          `${JSON.stringify({ thread: testThread('t1', { status: 'running' }), pid: zombie })}\n`,
        );
        const again = new ThreadStore(dir, noLog);
        expect(again.get('t1')?.status).toBe('idle');
        expect(readFileSync(join(dir, 'threads', 't1.jsonl'), 'utf8')).toContain('"status":"interrupted"');
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('keeps a thread whose id could name another file under a hash of its id, inside threads/', () => {
    const dir = tempDir();
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('../../etc/passwd'), [item('i1', 'a')]);
    store.close();
    const names = readdirSync(join(dir, 'threads'));
    expect(names.filter((n) => n !== 'index.jsonl')).toEqual([expect.stringMatching(/^[0-9a-f]{40}\.jsonl$/)]);
    expect(readdirSync(dir)).toEqual(['threads']);
    expect(new ThreadStore(dir, noLog).allItems('../../etc/passwd')).toEqual([item('i1', 'a')]);
  });

  it('creates the data folder and threads/ 0700 and every journal 0600 under umask 022', () => {
    const dir = join(tempDir(), 'data');
    const previous = process.umask(0o022);
    try {
      const store = new ThreadStore(dir, noLog);
      store.create(testThread('t1'), [item('i1', 'a')]);
      store.appendItem('t1', item('i2', 'b'));
      store.close();
    } finally {
      process.umask(previous);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'threads')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'threads', 't1.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'threads', 'index.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('tightens a threads folder and journals an older version left readable by others when it opens them, and logs it', () => {
    const dir = tempDir();
    const first = new ThreadStore(dir, noLog);
    first.create(testThread('t1'));
    first.close();
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'threads'), 0o755);
    chmodSync(join(dir, 'threads', 't1.jsonl'), 0o644);
    chmodSync(join(dir, 'threads', 'index.jsonl'), 0o644);
    const lines: string[] = [];
    const store = new ThreadStore(dir, (line) => lines.push(line));
    store.appendItem('t1', item('i1', 'a'));
    store.put(testThread('t1', { title: 'x' }));
    store.close();
    for (const d of [dir, join(dir, 'threads')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    for (const f of ['t1.jsonl', 'index.jsonl']) expect(statSync(join(dir, 'threads', f)).mode & 0o777).toBe(0o600);
    expect(lines.filter((l) => l.startsWith('tightened the permissions'))).toHaveLength(4);
  });

  it('never writes a known secret or a key-shaped value to a journal or the index', () => {
    const dir = tempDir();
    secrets.learn(['echoed-known-secret-42']);
    const store = new ThreadStore(dir, noLog);
    store.create(testThread('t1', { title: 'sk-proj-abcdefghijklmnopqrstuvwx' }));
    store.appendItem(
      't1',
      item('i1', 'HTTP 401: invalid key echoed-known-secret-42 for https://u:pw123456@h/v1?api-key=QQQ'),
    );
    store.close();
    const written = readdirSync(join(dir, 'threads'))
      .map((f) => readFileSync(join(dir, 'threads', f), 'utf8'))
      .join('\n');
    for (const leaked of ['echoed-known-secret-42', 'abcdefghijklmnopqrstuvwx', 'pw123456', 'QQQ'])
      expect(written).not.toContain(leaked);
    expect(new ThreadStore(dir, noLog).allItems('t1')[0]!.content).toEqual({
      text: 'HTTP 401: invalid key *** for https://***@h/v1?api-key=***',
    });
  });
});

/** Waits until /proc says `pid` is a zombie. */
async function waitForZombie(pid: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))) return;
    await sleep(10);
  }
  throw new Error(`process ${pid} never became a zombie`);
}
