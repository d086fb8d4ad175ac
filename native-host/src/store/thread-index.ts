/**
 * The thread index: every persistent thread's metadata in one append-only JSONL file (`index.jsonl`), folded when
 * read (the last line of a thread wins) and compacted at startup when stale lines pile up. `thread/list` is served
 * from it, so listing never opens a journal. Another process sharing the data dir (a second browser's host) appends
 * to the same file: whole lines, so both stay readable, and a change of size we did not cause makes us re-read it.
 */
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Thread } from '@tether/protocol';
import { PRIVATE_FILE_MODE } from '../private-files';
import { JsonlAppender, readJsonlFile, toJsonlLines } from './jsonl-file';

const INDEX_FILE = 'index.jsonl';

/** One index line: the thread's metadata and the process that wrote it (to tell its running turns from crashed ones). */
interface IndexLine {
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
    if (this.lines > 2 * this.threads.size + 64) this.compact();
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

  /** Records the thread's current metadata (create or update). */
  put(thread: Thread): void {
    const line: IndexLine = { thread, pid: process.pid };
    this.threads.set(thread.id, line);
    const before = this.statFile();
    const written = this.appender.append(line);
    this.lines++;
    // Only our own append moved the size: the in-memory map is still the whole file.
    if (before && before.size === this.known.size && before.ino === this.known.ino) this.known = { size: before.size + written, ino: before.ino };
  }

  /** Rewrites the file with one line per thread, atomically (temp file + rename). */
  compact(): void {
    const tmp = `${this.appender.path}.${process.pid}.tmp`;
    writeFileSync(tmp, toJsonlLines([...this.threads.values()]), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, this.appender.path);
    this.appender.close();
    this.lines = this.threads.size;
    this.known = this.statFile() ?? { size: 0, ino: 0 };
    this.log(`thread index compacted to ${this.lines} thread(s)`);
  }

  /** Closes the file. */
  close(): void {
    this.appender.close();
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
      const r = record as Partial<IndexLine> | null;
      const parsed = Thread.safeParse(r?.thread);
      if (parsed.success) threads.set(parsed.data.id, { thread: parsed.data, pid: typeof r?.pid === 'number' ? r.pid : 0 });
    }
    this.threads = threads;
    this.lines = records.length;
    this.known = stat ?? { size: 0, ino: 0 };
    if (badLines > 0 || tornTail) {
      this.log(`thread index ${this.appender.path}: skipped ${badLines} unreadable line(s)${tornTail ? ' and a torn last line' : ''}`);
    }
  }

  private statFile(): { size: number; ino: number } | undefined {
    const s = statSync(this.appender.path, { throwIfNoEntry: false });
    return s ? { size: s.size, ino: s.ino } : undefined;
  }
}
