/**
 * Threads, turns and items as the thread store journals them, for tests and benchmarks (bench/store.bench.mjs bundles
 * this file): one builder of each record instead of one a file, and a writer of a whole data dir's journal.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Item, Thread, Turn } from '@tether/protocol';

/** An idle, persistent thread named after its id, created and updated at 1 ms; `extra` overrides any field. */
export function testThread(id: string, extra: Partial<Thread> = {}): Thread {
  return {
    id,
    title: id,
    model: 'scripted',
    status: 'idle',
    archived: false,
    ephemeral: false,
    createdAtMs: 1,
    updatedAtMs: 1,
    ...extra,
  };
}

/** What a test item may set besides its id and text. */
export interface TestItemOptions {
  /** Default: agentMessage. */
  readonly type?: 'agentMessage' | 'userMessage';
  /** Default: none (the item is in no turn). */
  readonly turnId?: string;
  /** Default: not set. */
  readonly completedAtMs?: number;
}

/** A completed message item saying `text`, created at 1 ms. */
export function testItem(id: string, text: string, options: TestItemOptions = {}): Item {
  return {
    id,
    type: options.type ?? 'agentMessage',
    status: 'completed',
    createdAtMs: 1,
    ...(options.completedAtMs === undefined ? {} : { completedAtMs: options.completedAtMs }),
    content: { text },
    ...(options.turnId === undefined ? {} : { turnId: options.turnId }),
  };
}

/** One line of a thread's journal after its header. */
export type JournalRecord =
  | { readonly type: 'turn'; readonly turn: Turn }
  | { readonly type: 'item'; readonly item: Item };

/**
 * Writes `thread`'s journal (its header, then `records` in order) and an index naming it into `dataDir`, as the thread
 * store writes them (`grants: []` as for a new thread, files 0600 in a 0700 folder); returns the journal's path.
 */
export function writeThreadJournal(dataDir: string, thread: Thread, records: Iterable<JournalRecord>): string {
  const threads = join(dataDir, 'threads');
  mkdirSync(threads, { recursive: true, mode: 0o700 });
  const lines = [JSON.stringify({ type: 'thread', thread })];
  for (const record of records) lines.push(JSON.stringify(record));
  const file = join(threads, `${thread.id}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  writeFileSync(join(threads, 'index.jsonl'), `${JSON.stringify({ thread, pid: 0, grants: [] })}\n`, { mode: 0o600 });
  return file;
}

/** The journal calls of a store that `runningTurn` makes (structural, so benchmarks can bundle this file alone). */
interface TurnJournal {
  create(thread: Thread): void;
  appendTurn(threadId: string, turn: Turn): void;
  put(thread: Thread): void;
}

/** Journals thread `threadId` with turn `turn_1` running, as a process does just before it dies mid-turn. */
export function startRunningTurn(store: TurnJournal, threadId = 't1'): Turn {
  const turn: Turn = { id: 'turn_1', threadId, status: 'running', input: [{ text: 'x' }], startedAtMs: 1 };
  store.create(testThread(threadId));
  store.appendTurn(threadId, turn);
  store.put(testThread(threadId, { status: 'running' }));
  return turn;
}
