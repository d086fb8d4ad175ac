import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item, Thread } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
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
});
