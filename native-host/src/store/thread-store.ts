/**
 * Persistent threads on disk: `threads/index.jsonl` (metadata of every thread, see ThreadIndex) and one append-only
 * journal per thread, `threads/<id>.jsonl`, holding its header, turn start/end records, completed items and
 * "allowed for this thread" decisions. Items are read only when a thread is read, resumed or run.
 */
import { existsSync, openSync, readSync, closeSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Thread, Turn, type Item } from '@tether/protocol';
import { ensurePrivateDir } from '../private-files';
import { isItem } from './item-guard';
import { JsonlAppender, readJsonlFile } from './jsonl-file';
import { ThreadIndex } from './thread-index';

/** One line of a thread journal. */
export type JournalRecord =
  | { type: 'thread'; thread: Thread }
  | { type: 'turn'; turn: Turn }
  | { type: 'item'; item: Item }
  | { type: 'allow'; toolName: string; grant?: string };

/** A thread's journal, folded. */
export interface LoadedThread {
  /** Completed items, in the order they completed. */
  readonly items: Item[];
  /** What the user allowed for the rest of the thread (`allow_session`): grant keys (see `BuiltinTool.grantKey`). */
  readonly grants: string[];
}

const SAFE_ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Thread metadata and journals under `<dataDir>/threads`. */
export class ThreadStore {
  private readonly dir: string;
  private readonly index: ThreadIndex;
  private readonly appenders = new Map<string, JsonlAppender>();

  /** Opens (creating when needed) the store and repairs what a crash left: orphan journals, turns left running. */
  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(dataDir, 'threads');
    // Journals hold page text, command output and what servers echoed: no one else may read them.
    ensurePrivateDir(dataDir, log);
    ensurePrivateDir(this.dir, log);
    this.index = new ThreadIndex(this.dir, log);
    this.adoptOrphanJournals();
    for (const thread of this.index.values()) {
      if (thread.status === 'running' || thread.status === 'waitingOnApproval') {
        if (this.inUseElsewhere(thread.id)) continue;
        this.load(thread.id, { closeOpenTurns: true });
        this.index.put({ ...thread, status: 'idle', updatedAtMs: this.now() });
        this.release(thread.id);
        log(`thread ${thread.id}: the turn that was running when the server stopped is now marked interrupted`);
      }
    }
  }

  /** Metadata of a persistent thread, or undefined. */
  get(id: string): Thread | undefined {
    return this.index.get(id);
  }

  /** Every persistent thread's metadata (no particular order). */
  values(): Thread[] {
    return this.index.values();
  }

  /** Records changed metadata of an existing thread. */
  put(thread: Thread): void {
    this.index.put(thread);
  }

  /** Creates a thread: its journal (header and `items`, e.g. a fork's history), then its index entry. */
  create(thread: Thread, items: readonly Item[] = []): void {
    this.appender(thread.id).append(
      { type: 'thread', thread } satisfies JournalRecord,
      ...items.map((item) => ({ type: 'item', item }) satisfies JournalRecord),
    );
    // Journals stay open only while a turn writes to them: a thousand idle threads must not hold a thousand fds.
    this.release(thread.id);
    this.index.put(thread);
  }

  /** Appends a completed item. */
  appendItem(threadId: string, item: Item): void {
    this.appender(threadId).append({ type: 'item', item } satisfies JournalRecord);
  }

  /** Appends a turn record (written when the turn starts and again when it ends). */
  appendTurn(threadId: string, turn: Turn): void {
    this.appender(threadId).append({ type: 'turn', turn } satisfies JournalRecord);
  }

  /** Records that `grant` (a call of `toolName`, see `BuiltinTool.grantKey`) is allowed for the rest of the thread. */
  appendGrant(threadId: string, toolName: string, grant: string): void {
    this.appender(threadId).append({ type: 'allow', toolName, grant } satisfies JournalRecord);
  }

  /**
   * Reads a thread's journal. With `closeOpenTurns` (the thread has no turn running in this process), a turn whose
   * last record says `running` was cut by a crash: it gets an `interrupted` end record.
   */
  load(threadId: string, opts: { closeOpenTurns: boolean }): LoadedThread {
    const path = this.journalPath(threadId);
    const { records, badLines, tornTail } = readJsonlFile(path);
    if (badLines > 0 || tornTail) {
      this.log(`journal ${path}: skipped ${badLines} unreadable line(s)${tornTail ? ' and a torn last line' : ''}`);
    }
    const items: Item[] = [];
    const allowed = new Set<string>();
    const turns = new Map<string, Turn>();
    for (const record of records) {
      const r = record as Partial<Record<'type' | 'item' | 'turn' | 'toolName' | 'grant', unknown>> | null;
      if (r?.type === 'item') {
        if (isItem(r.item)) items.push(r.item);
      } else if (r?.type === 'turn') {
        const turn = Turn.safeParse(r.turn);
        if (turn.success) turns.set(turn.data.id, turn.data);
      } else if (r?.type === 'allow' && typeof r.toolName === 'string') {
        // Records before grants had keys name the tool only: that still matches a tool-wide grant, and never a
        // command-scoped one (`bash` now grants one command line), so an old "any command" grant is not honoured.
        allowed.add(typeof r.grant === 'string' ? r.grant : r.toolName);
      }
    }
    if (opts.closeOpenTurns && !this.inUseElsewhere(threadId)) {
      for (const turn of turns.values()) {
        if (turn.status !== 'running') continue;
        this.appendTurn(threadId, {
          ...turn,
          status: 'interrupted',
          completedAtMs: this.now(),
          error: { message: 'The app-server stopped while this turn was running.' },
        });
      }
    }
    return { items, grants: [...allowed] };
  }

  /** True when another live process (a second host sharing this data dir) last wrote the thread: its turns are not crashes. */
  private inUseElsewhere(threadId: string): boolean {
    const writer = this.index.writerOf(threadId);
    return writer !== undefined && writer !== 0 && writer !== process.pid && isAlive(writer);
  }

  /** Closes the thread's journal file (it reopens on the next append). */
  release(threadId: string): void {
    this.appenders.get(threadId)?.close();
    this.appenders.delete(threadId);
  }

  /** Closes every file. */
  close(): void {
    for (const a of this.appenders.values()) a.close();
    this.appenders.clear();
    this.index.close();
  }

  private appender(threadId: string): JsonlAppender {
    let a = this.appenders.get(threadId);
    if (!a) {
      a = new JsonlAppender(this.journalPath(threadId), { log: this.log });
      this.appenders.set(threadId, a);
    }
    return a;
  }

  private journalPath(threadId: string): string {
    // Ids reach here only from the index or from our own factory; the check keeps a bad id from naming another file.
    if (!SAFE_ID.test(threadId)) throw new Error(`Unsafe thread id for a file name: ${JSON.stringify(threadId)}`);
    return join(this.dir, `${threadId}.jsonl`);
  }

  /** A journal whose index line was lost (crash between the two writes) is put back in the index from its header. */
  private adoptOrphanJournals(): void {
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.jsonl') || name === 'index.jsonl') continue;
      const id = name.slice(0, -'.jsonl'.length);
      if (this.index.get(id) || !SAFE_ID.test(id)) continue;
      const header = readFirstLine(join(this.dir, name));
      const parsed = header ? Thread.safeParse((safeJson(header) as { thread?: unknown } | undefined)?.thread) : undefined;
      if (parsed?.success) {
        // Marked running so the recovery pass of the constructor closes any turn the crash left open.
        this.index.put({ ...parsed.data, status: 'running' });
        this.log(`thread ${id}: journal had no index entry; restored it from the journal header`);
      }
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readFirstLine(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(256 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const end = text.indexOf('\n');
    return end < 0 ? undefined : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
