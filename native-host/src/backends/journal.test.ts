import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item, Thread } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { secrets } from '../secrets';
import { ThreadJournal } from './journal';

const thread = (id: string, updatedAtMs: number, extra: Partial<Thread> = {}): Thread => ({
  id,
  title: id,
  model: '',
  status: 'idle',
  archived: false,
  ephemeral: false,
  createdAtMs: 1,
  updatedAtMs,
  ...extra,
});
const item = (id: string, text: string): Item => ({ id, type: 'agentMessage', status: 'completed', createdAtMs: 1, content: { text } });

describe('thread journal', () => {
  it('keeps threads and their items across instances, newest thread first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('old', 10), sessionId: 's-old' });
    a.put({ thread: thread('new', 20), sessionId: 's-new' });
    a.append('old', item('i1', 'one'));
    a.append('old', item('i2', 'two'));
    a.update('old', { title: 'renamed' }, 's-old-2');
    await a.flush();

    const b = new ThreadJournal(dir, () => undefined);
    await b.load();
    expect(b.threads().map((t) => t.id)).toEqual(['new', 'old']);
    expect(b.get('old')).toMatchObject({ sessionId: 's-old-2', thread: { title: 'renamed' } });
    expect((await b.history('old')).map((i) => i.id)).toEqual(['i1', 'i2']);
    b.append('old', item('i3', 'three'));
    expect((await b.history('old')).map((i) => i.id)).toEqual(['i1', 'i2', 'i3']);
  });

  it('skips a torn last line and keeps ephemeral threads off the disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('t', 1), sessionId: 's' });
    a.put({ thread: thread('eph', 2, { ephemeral: true }), sessionId: 'e' });
    a.append('t', item('i1', 'fine'));
    a.append('eph', item('e1', 'memory only'));
    await a.flush();
    appendFileSync(join(dir, 'threads', 't.jsonl'), '{"id":"i2","type":"agentMess');
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { threads: Array<{ thread: Thread }> };
    expect(index.threads.map((e) => e.thread.id)).toEqual(['t']);
    const logs: string[] = [];
    const b = new ThreadJournal(dir, (l) => logs.push(l));
    await b.load();
    expect((await b.history('t')).map((i) => i.id)).toEqual(['i1']);
    expect(logs.join('\n')).toContain('unreadable line');
    expect(await a.history('eph')).toHaveLength(1);
  });

  it('keeps the first item appended after a crash that left a torn last line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    await a.load();
    a.put({ thread: thread('t', 1), sessionId: 's' });
    a.append('t', item('i1', 'before the crash'));
    await a.flush();
    appendFileSync(join(dir, 'threads', 't.jsonl'), '{"id":"i2","type":"agentMess');
    const b = new ThreadJournal(dir, () => undefined);
    await b.load();
    b.append('t', item('i3', 'after the restart'));
    await b.flush();
    const c = new ThreadJournal(dir, () => undefined);
    await c.load();
    expect((await c.history('t')).map((i) => i.id)).toEqual(['i1', 'i3']);
  });

  it('keeps threads another host process added to the index meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const a = new ThreadJournal(dir, () => undefined);
    const b = new ThreadJournal(dir, () => undefined);
    await a.load();
    await b.load();
    a.put({ thread: thread('from-a', 1), sessionId: 'a' });
    await a.flush();
    b.put({ thread: thread('from-b', 2), sessionId: 'b' });
    await b.flush();
    const c = new ThreadJournal(dir, () => undefined);
    await c.load();
    expect(c.threads().map((t) => t.id).sort()).toEqual(['from-a', 'from-b']);
  });

  it('starts empty when the index is damaged, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    await new ThreadJournal(dir, () => undefined).load();
    writeFileSync(join(dir, 'index.json'), '{not json');
    const logs: string[] = [];
    const j = new ThreadJournal(dir, (l) => logs.push(l));
    await j.load();
    expect(j.threads()).toEqual([]);
    expect(logs[0]).toMatch(/unreadable, starting a new one/);
  });

  it('creates its folders 0700 and its files 0600 under umask 022, and never writes a known secret', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tether-journal-')), 'agents', 'acp');
    secrets.learn(['acp-echoed-secret-99']);
    const previous = process.umask(0o022);
    try {
      const j = new ThreadJournal(dir, () => undefined);
      await j.load();
      j.put({ thread: thread('t1', 1, { title: 'key acp-echoed-secret-99' }), sessionId: 's1' });
      j.append('t1', item('i1', 'the agent said: token=acp-echoed-secret-99 and AIza' + 'b'.repeat(35)));
      await j.flush();
    } finally {
      process.umask(previous);
    }
    for (const d of [dir, join(dir, 'threads')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    const files = [join(dir, 'index.json'), ...readdirSync(join(dir, 'threads')).map((f) => join(dir, 'threads', f))];
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
    j.append('t1', item('i1', 'one'));
    await j.flush();
    for (const d of [dir, join(dir, 'threads')]) expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'threads', 't1.jsonl')).mode & 0o777).toBe(0o600);
    expect(lines.filter((l) => l.startsWith('tightened the permissions'))).toHaveLength(3);
  });
});
