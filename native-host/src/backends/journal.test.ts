import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item, Thread } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { secrets } from '../secrets';
import { DEFAULT_PAGE_BUDGET } from '../store/history-page';
import { testItem, testThread } from '../testing/journal-fixtures';
import { ThreadJournal } from './journal';

/** Every item of a thread, read page by page from the latest back. */
function history(j: ThreadJournal, threadId: string): Item[] {
  let page = j.page(threadId, { ...DEFAULT_PAGE_BUDGET, bytes: 100 });
  const items = page.items;
  while (page.olderCursor) {
    page = j.page(threadId, { ...DEFAULT_PAGE_BUDGET, bytes: 100 }, page.olderCursor);
    items.unshift(...page.items);
  }
  return items;
}

const thread = (id: string, updatedAtMs: number, extra: Partial<Thread> = {}): Thread =>
  testThread(id, { model: '', updatedAtMs, ...extra });

describe('thread journal', () => {
  it('keeps threads and their items across instances, newest thread first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('old', 10), sessionId: 's-old' });
    a.put({ thread: thread('new', 20), sessionId: 's-new' });
    a.append('old', testItem('i1', 'one'));
    a.append('old', testItem('i2', 'two'));
    a.update('old', { title: 'renamed' }, 's-old-2');

    const b = new ThreadJournal(dir, () => undefined);
    await b.load();
    expect(b.threads().map((t) => t.id)).toEqual(['new', 'old']);
    expect(b.get('old')).toMatchObject({ sessionId: 's-old-2', thread: { title: 'renamed' } });
    expect(history(b, 'old').map((i) => i.id)).toEqual(['i1', 'i2']);
    b.append('old', testItem('i3', 'three'));
    expect(history(b, 'old').map((i) => i.id)).toEqual(['i1', 'i2', 'i3']);
  });

  it('skips a torn last line and keeps ephemeral threads off the disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('t', 1), sessionId: 's' });
    a.put({ thread: thread('eph', 2, { ephemeral: true }), sessionId: 'e' });
    a.append('t', testItem('i1', 'fine'));
    a.append('eph', testItem('e1', 'memory only'));
    appendFileSync(join(dir, 'threads', 't.jsonl'), '{"id":"i2","type":"agentMess');
    const index = readFileSync(join(dir, 'threads', 'index.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { thread: Thread });
    expect(index.map((e) => e.thread.id)).toEqual(['t']);
    const logs: string[] = [];
    const b = new ThreadJournal(dir, (l) => logs.push(l));
    await b.load();
    expect(history(b, 't').map((i) => i.id)).toEqual(['i1']);
    expect(logs.join('\n')).toContain('skipped a torn last line');
    expect(history(a, 'eph')).toHaveLength(1);
  });

  it('keeps the first item appended after a crash that left a torn last line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('t', 1), sessionId: 's' });
    a.append('t', testItem('i1', 'before the crash'));
    appendFileSync(join(dir, 'threads', 't.jsonl'), '{"id":"i2","type":"agentMess');
    const b = new ThreadJournal(dir, () => undefined);
    await b.load();
    b.append('t', testItem('i3', 'after the restart'));
    const c = new ThreadJournal(dir, () => undefined);
    await c.load();
    expect(history(c, 't').map((i) => i.id)).toEqual(['i1', 'i3']);
  });

  it('keeps threads another host process added to the index meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    const b = new ThreadJournal(dir, () => undefined);
    await a.load();
    await b.load();
    a.put({ thread: thread('from-a', 1), sessionId: 'a' });
    b.put({ thread: thread('from-b', 2), sessionId: 'b' });
    const c = new ThreadJournal(dir, () => undefined);
    await c.load();
    expect(
      c
        .threads()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['from-a', 'from-b']);
  });

  it('starts empty when the index is damaged, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    await new ThreadJournal(dir, () => undefined).load();
    writeFileSync(join(dir, 'threads', 'index.jsonl'), '{not json\n');
    const logs: string[] = [];
    const j = new ThreadJournal(dir, (l) => logs.push(l));
    await j.load();
    expect(j.threads()).toEqual([]);
    expect(logs.join('\n')).toMatch(/skipped 1 unreadable line/);
  });

  it('carries over the threads of the index.json an older version kept, and says so when it is damaged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    mkdirSync(join(dir, 'threads'), { recursive: true });
    writeFileSync(
      join(dir, 'index.json'),
      JSON.stringify({ version: 1, threads: [{ thread: thread('t1', 5), sessionId: 's1', unread: true }] }),
    );
    writeFileSync(join(dir, 'threads', 't1.jsonl'), `${JSON.stringify(testItem('i1', 'before the merge'))}\n`);
    const j = new ThreadJournal(dir, () => undefined);
    await j.load();
    expect(j.get('t1')).toEqual({ thread: thread('t1', 5), sessionId: 's1', unread: true });
    expect(history(j, 't1').map((i) => i.id)).toEqual(['i1']);
    writeFileSync(join(dir, 'index.json'), '{not json');
    const logs: string[] = [];
    await new ThreadJournal(dir, (l) => logs.push(l)).load();
    expect(logs.join('\n')).toMatch(/index\.json \(from an older version\) is unreadable/);
  });

  it('creates its folders 0700 and its files 0600 under umask 022, and never writes a known secret', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tether-journal-')), 'agents', 'acp');
    secrets.learn(['acp-echoed-secret-99']);
    const previous = process.umask(0o022);
    try {
      const j = new ThreadJournal(dir, () => undefined);
      await j.load();
      j.put({ thread: thread('t1', 1, { title: 'key acp-echoed-secret-99' }), sessionId: 's1' });
      j.append('t1', testItem('i1', `the agent said: token=acp-echoed-secret-99 and AIza${'b'.repeat(35)}`));
    } finally {
      process.umask(previous);
    }
    for (const d of [dir, join(dir, 'threads')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    const files = readdirSync(join(dir, 'threads')).map((f) => join(dir, 'threads', f));
    expect(files.map((f) => f.slice(dir.length))).toEqual(
      expect.arrayContaining(['/threads/index.jsonl', '/threads/t1.jsonl']),
    );
    for (const f of files) {
      expect(statSync(f).mode & 0o777).toBe(0o600);
      expect(readFileSync(f, 'utf8')).not.toContain('acp-echoed-secret-99');
      expect(readFileSync(f, 'utf8')).not.toContain('b'.repeat(35));
    }
  });

  it('tightens a journal folder and items file an older version left readable by others, and logs it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    mkdirSync(join(dir, 'threads'), { recursive: true });
    writeFileSync(join(dir, 'threads', 't1.jsonl'), '');
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'threads'), 0o755);
    chmodSync(join(dir, 'threads', 't1.jsonl'), 0o644);
    const lines: string[] = [];
    const j = new ThreadJournal(dir, (line) => lines.push(line));
    await j.load();
    j.put({ thread: thread('t1', 1), sessionId: 's1' });
    j.append('t1', testItem('i1', 'one'));
    for (const d of [dir, join(dir, 'threads')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'threads', 't1.jsonl')).mode & 0o777).toBe(0o600);
    expect(lines.filter((l) => l.startsWith('tightened the permissions'))).toHaveLength(3);
  });
});
