/**
 * The thread index: every persistent thread's metadata in one append-only JSONL file (`index.jsonl`), folded when
 * read (the last line of a thread wins) and compacted when stale lines pile up (at startup and as they are written:
 * each turn writes about three lines, and 5,000 turns had grown it to 3.4 MB). `thread/list` is served from it, so
 * listing never opens a journal; a thread's grants live here too, so a turn never scans its journal for them.
 * Another process sharing the data dir (a second browser's host) appends to the same file: whole lines, so both stay
 * readable, and a change of size we did not cause makes us re-read it.
 */
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Thread } from '@tether/protocol';
import { PRIVATE_FILE_MODE } from '../private-files';
import { JsonlAppender, readJsonlFile, toJsonlLines } from './jsonl-file';

const INDEX_FILE = 'index.jsonl';

/** The agent session a dialect adapter's thread talks to (ACP threads; app-server threads have none). */
export interface SessionRef {
  readonly id: string;
  /** Listed by the agent but never read: its history comes from a `session/load` replay on first read. */
  readonly unread?: boolean;
}

/** What the index keeps of a thread besides its metadata. */
export interface IndexExtras {
  /** Grant keys allowed for the rest of the thread; absent on lines written before grants moved here. */
  readonly grants?: readonly string[];
  readonly session?: SessionRef;
}

/** One index line: the thread's metadata and the process that wrote it (to tell its running turns from crashed ones). */
interface IndexLine extends IndexExtras {
  thread: Thread;
  pid: number;
}

/** Metadata of every persistent thread, kept in memory and appended to disk on each change. */
export class ThreadIndex {
  private threads = new Map<string, IndexLine>();
  private readonly appender: JsonlAppender;
  private lines = 0;
  /** Size and inode of the file as of our last read or write. */
  private known = { size: 0, ino: 0 };

  constructor(
    dir: string,
    private readonly log: (line: string) => void,
  ) {
    this.appender = new JsonlAppender(join(dir, INDEX_FILE), { followReplacement: true, log });
    this.reload();
    if (this.isStale()) {
      this.compact();
      log(`thread index compacted to ${this.lines} thread(s)`);
    }
  }

  /** The thread's metadata, or undefined when it is not persistent or unknown. */
  get(id: string): Thread | undefined {
    const hit = this.threads.get(id);
    if (hit) return hit.thread;
    this.refresh();
    return this.threads.get(id)?.thread;
  }

  /** Every persistent thread (no particular order), including those another process added since. */
  values(): Thread[] {
    this.refresh();
    return [...this.threads.values()].map((l) => l.thread);
  }

  /** The process that last wrote the thread's metadata. */
  writerOf(id: string): number | undefined {
    return this.threads.get(id)?.pid;
  }

  /** The grants and session recorded with the thread (see `get` for when the file is re-read). */
  extrasOf(id: string): IndexExtras | undefined {
    this.get(id);
    return this.threads.get(id);
  }

  /** Records the thread's current metadata (create or update); `extras` given replace those recorded, others stay. */
  put(thread: Thread, extras: IndexExtras = {}): void {
    const previous = this.threads.get(thread.id);
    const grants = 'grants' in extras ? extras.grants : previous?.grants;
    const session = 'session' in extras ? extras.session : previous?.session;
    const line: IndexLine = {
      thread,
      pid: process.pid,
      ...(grants ? { grants } : {}),
      ...(session ? { session } : {}),
    };
    this.threads.set(thread.id, line);
    const before = this.statFile();
    const written = this.appender.append(line);
    this.lines++;
    // Only our own append moved the size: the in-memory map is still the whole file.
    if (before && before.size === this.known.size && before.ino === this.known.ino)
      this.known = { size: before.size + written, ino: before.ino };
    if (this.isStale()) {
      // Lines another process appended since our last read must survive the rewrite.
      this.refresh();
      if (this.isStale()) this.compact();
    }
  }

  /** Rewrites the file with one line per thread, atomically (temp file + rename). */
  compact(): void {
    const tmp = `${this.appender.path}.${process.pid}.tmp`;
    writeFileSync(tmp, toJsonlLines([...this.threads.values()]), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, this.appender.path);
    this.appender.close();
    this.lines = this.threads.size;
    this.known = this.statFile() ?? { size: 0, ino: 0 };
  }

  /** Closes the file. */
  close(): void {
    this.appender.close();
  }

  /** More than twice as many lines as threads (plus slack): rewriting is cheaper than re-reading them. */
  private isStale(): boolean {
    return this.lines > 2 * this.threads.size + 64;
  }

  private refresh(): void {
    const now = this.statFile();
    if (now && (now.size !== this.known.size || now.ino !== this.known.ino)) this.reload();
  }

  private reload(): void {
    const stat = this.statFile();
    const { records, badLines, tornTail } = readJsonlFile(this.appender.path);
    const threads = new Map<string, IndexLine>();
    for (const record of records) {
      const line = parseLine(record);
      if (line) threads.set(line.thread.id, line);
    }
    this.threads = threads;
    this.lines = records.length;
    this.known = stat ?? { size: 0, ino: 0 };
    if (badLines > 0 || tornTail) {
      this.log(
        `thread index ${this.appender.path}: skipped ${badLines} unreadable line(s)${tornTail ? ' and a torn last line' : ''}`,
      );
    }
  }

  private statFile(): { size: number; ino: number } | undefined {
    const s = statSync(this.appender.path, { throwIfNoEntry: false });
    return s ? { size: s.size, ino: s.ino } : undefined;
  }
}

/** An index line as read back; damaged extras are dropped, never trusted. */
function parseLine(record: unknown): IndexLine | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const r = record as Partial<Record<keyof IndexLine, unknown>>;
  const thread = Thread.safeParse(r.thread);
  if (!thread.success) return undefined;
  const grants =
    Array.isArray(r.grants) && r.grants.every((g) => typeof g === 'string') ? (r.grants as string[]) : undefined;
  const s = r.session as Partial<Record<keyof SessionRef, unknown>> | undefined;
  const session =
    typeof s === 'object' && s !== null && typeof s.id === 'string'
      ? { id: s.id, ...(s.unread === true ? { unread: true } : {}) }
      : undefined;
  return {
    thread: thread.data,
    pid: typeof r.pid === 'number' ? r.pid : 0,
    ...(grants ? { grants } : {}),
    ...(session ? { session } : {}),
  };
}
