/**
 * The thread index: every persistent thread's metadata in one append-only JSONL file (`index.jsonl`), folded at
 * startup (the last line of a thread wins) and compacted when stale lines pile up. `thread/list` is served from it,
 * so listing never opens a journal.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Thread } from '@tether/protocol';
import { JsonlAppender, readJsonlFile, toJsonlLines } from './jsonl-file';

const INDEX_FILE = 'index.jsonl';

/** Metadata of every persistent thread, kept in memory and appended to disk on each change. */
export class ThreadIndex {
  private readonly threads = new Map<string, Thread>();
  private readonly appender: JsonlAppender;
  private lines = 0;

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {
    this.appender = new JsonlAppender(join(dir, INDEX_FILE));
    const { records, badLines, repairedTail } = readJsonlFile(this.appender.path);
    for (const record of records) {
      const parsed = Thread.safeParse((record as { thread?: unknown } | null)?.thread);
      if (parsed.success) this.threads.set(parsed.data.id, parsed.data);
    }
    this.lines = records.length;
    if (badLines > 0 || repairedTail) {
      log(`thread index ${this.appender.path}: skipped ${badLines} unreadable line(s)${repairedTail ? ', cut a torn last line' : ''}`);
    }
    if (this.lines > 2 * this.threads.size + 64) this.compact();
  }

  /** The thread's metadata, or undefined when it is not persistent or unknown. */
  get(id: string): Thread | undefined {
    return this.threads.get(id);
  }

  /** Every persistent thread (no particular order). */
  values(): IterableIterator<Thread> {
    return this.threads.values();
  }

  /** Records the thread's current metadata (create or update). */
  put(thread: Thread): void {
    this.threads.set(thread.id, thread);
    this.appender.append({ thread });
    this.lines++;
  }

  /** Rewrites the file with one line per thread, atomically (temp file + rename). */
  compact(): void {
    this.appender.close();
    const tmp = `${this.appender.path}.tmp`;
    writeFileSync(tmp, toJsonlLines([...this.threads.values()].map((thread) => ({ thread }))));
    renameSync(tmp, this.appender.path);
    this.lines = this.threads.size;
    this.log(`thread index compacted to ${this.lines} thread(s)`);
  }

  /** Closes the file. */
  close(): void {
    this.appender.close();
  }

  /** Folder of the index. */
  get folder(): string {
    return this.dir;
  }
}
