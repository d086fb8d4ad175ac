/**
 * The host's own record of the threads of an agent that keeps none Tether can read back (ACP agents): an index of
 * threads and, per thread, a JSONL file of its finished items. `thread/read`, `thread/resume` and `thread/list` are
 * answered from it, so history survives host and agent restarts whether or not the agent can replay a session.
 */
import { createHash } from 'node:crypto';
import { appendFile, open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Item, Thread } from '@tether/protocol';
import { z } from 'zod';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile } from '../private-files';
import { secrets } from '../secrets';

/** A thread as the journal keeps it: the Tether thread plus the agent session it talks to. */
export const JournalEntry = z.looseObject({
  thread: Thread,
  sessionId: z.string(),
  /** Listed by the agent but never read: its history comes from a `session/load` replay on first read. */
  unread: z.boolean().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

const IndexFile = z.looseObject({ version: z.literal(1), threads: z.array(JournalEntry) });

/**
 * The journal of one backend, in `dir`. Writes are queued in order; reads wait for the writes before them. What is
 * written is redacted (see `secrets`); folders are 0700 and files 0600, and older, looser ones are tightened.
 */
export class ThreadJournal {
  private readonly entries = new Map<string, JournalEntry>();
  private readonly items = new Map<string, Item[]>();
  private writes: Promise<void> = Promise.resolve();
  private loaded: Promise<void> | undefined;
  /** Item files whose end this process has checked for a torn line (see endsMidLine). */
  private readonly checkedEnds = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads the index once (a missing or unreadable index starts empty; the damage is logged). */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      ensurePrivateDir(this.dir, this.log);
      ensurePrivateDir(join(this.dir, 'threads'), this.log);
      for (const e of await this.readIndex()) if (!this.entries.has(e.thread.id)) this.entries.set(e.thread.id, e);
    })();
    return this.loaded;
  }

  /** The entry of a thread, if the journal knows it. */
  get(threadId: string): JournalEntry | undefined {
    return this.entries.get(threadId);
  }

  /** All threads, newest first. */
  threads(): Thread[] {
    return [...this.entries.values()].map((e) => e.thread).sort((a, b) => b.updatedAtMs - a.updatedAtMs || b.createdAtMs - a.createdAtMs);
  }

  /** Adds or replaces a thread. */
  put(entry: JournalEntry): void {
    this.entries.set(entry.thread.id, entry);
    if (!this.items.has(entry.thread.id) && !entry.thread.ephemeral) this.items.set(entry.thread.id, []);
    this.saveIndex();
  }

  /** Changes a thread's fields (and its session) and saves the index. */
  update(threadId: string, patch: Partial<Thread>, sessionId?: string): Thread | undefined {
    const entry = this.entries.get(threadId);
    if (!entry) return undefined;
    const next = { thread: { ...entry.thread, ...patch }, sessionId: sessionId ?? entry.sessionId };
    this.entries.set(threadId, next);
    if (!next.thread.ephemeral) this.saveIndex();
    return next.thread;
  }

  /** Records a finished item of a thread (ephemeral threads are kept in memory only). */
  append(threadId: string, item: Item): void {
    const entry = this.entries.get(threadId);
    const list = this.items.get(threadId);
    if (list) list.push(item);
    if (!entry || entry.thread.ephemeral) {
      if (!list) this.items.set(threadId, [item]);
      return;
    }
    const file = this.itemsPath(threadId);
    this.queue(async () => {
      // A crash may have left a torn last line: appending to it would glue this item onto it and lose it too.
      let start = '';
      if (!this.checkedEnds.has(file)) {
        start = (await endsMidLine(file)) ? '\n' : '';
        tightenFile(file, this.log);
        this.checkedEnds.add(file);
      }
      await appendFile(file, `${start}${secrets.json(JSON.stringify(item))}\n`, { mode: PRIVATE_FILE_MODE });
    });
  }

  /** The finished items of a thread, oldest first. */
  async history(threadId: string): Promise<Item[]> {
    const cached = this.items.get(threadId);
    if (cached) return [...cached];
    await this.writes;
    let text = '';
    try {
      text = await readFile(this.itemsPath(threadId), 'utf8');
    } catch {
      // No items yet.
    }
    const items: Item[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        items.push(Item.parse(JSON.parse(line)));
      } catch {
        // A torn last line after a crash: the rest of the history is still good.
        this.log(`journal ${this.itemsPath(threadId)}: skipped an unreadable line`);
      }
    }
    this.items.set(threadId, items);
    return [...items];
  }

  /** Resolves when everything written so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  private get indexPath(): string {
    return join(this.dir, 'index.json');
  }

  private itemsPath(threadId: string): string {
    // Session ids come from the agent: never trust them as file names.
    const safe = /^[A-Za-z0-9_-]{1,100}$/.test(threadId) ? threadId : createHash('sha256').update(threadId).digest('hex').slice(0, 40);
    return join(this.dir, 'threads', `${safe}.jsonl`);
  }

  private saveIndex(): void {
    this.queue(async () => {
      // Another host process (a second browser window) may have added threads since we read the index: keep them.
      const onDisk = await this.readIndex();
      const merged = new Map(onDisk.map((e) => [e.thread.id, e]));
      for (const e of this.entries.values()) if (!e.thread.ephemeral) merged.set(e.thread.id, e);
      for (const [id, e] of merged) if (!this.entries.has(id)) this.entries.set(id, e);
      const tmp = `${this.indexPath}.${process.pid}.tmp`;
      await writeFile(tmp, secrets.json(JSON.stringify({ version: 1, threads: [...merged.values()] })), { mode: PRIVATE_FILE_MODE });
      await rename(tmp, this.indexPath);
    });
  }

  private async readIndex(): Promise<JournalEntry[]> {
    let text: string;
    try {
      text = await readFile(this.indexPath, 'utf8');
    } catch {
      return [];
    }
    try {
      return IndexFile.parse(JSON.parse(text)).threads;
    } catch (error) {
      this.log(`journal index ${this.indexPath} is unreadable, starting a new one: ${String(error)}`);
      return [];
    }
  }

  private queue(write: () => Promise<unknown>): void {
    this.writes = this.writes
      .then(() => this.load())
      .then(write)
      .then(
        () => undefined,
        (error: unknown) => this.log(`journal write in ${this.dir} failed: ${String(error)}`),
      );
  }
}

/** True when the file exists, is not empty and does not end with a newline. */
async function endsMidLine(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
