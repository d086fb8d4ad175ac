/**
 * Persistent threads on disk: `threads/index.jsonl` (metadata, grants and agent sessions of every thread, see
 * ThreadIndex) and one append-only journal per thread, `threads/<id>.jsonl`, holding its header, turn start/end
 * records, completed items and "allowed for this thread" decisions. The app-server and the ACP adapter's journal both
 * keep their threads here. Reads go by page from the journal's end (see `page`), so opening a thread or starting a
 * turn costs the size of a page, not of the thread; only `fork` and crash recovery read a journal whole.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, Thread, Turn, type Item } from '@tether/protocol';
import { ensurePrivateDir } from '../private-files';
import { readLinesBackward } from './backward-lines';
import {
  decodeCursor,
  encodeCursor,
  invalidCursor,
  PageBuilder,
  type PageBudget,
  type StoredPage,
} from './history-page';
import { isItem } from './item-guard';
import { secrets } from '../secrets';
import { JsonlAppender, readJsonlFile } from './jsonl-file';
import { OpenStreams } from './open-streams';
import { isAlive } from '../process-alive';
import { PendingStreams } from './stream-chunks';
import { type IndexExtras, type SessionRef, ThreadIndex } from './thread-index';
import { TurnEnds } from './turn-ends';

/** One line of a thread journal. ACP journals written before the stores merged hold bare items instead. */
export type JournalRecord =
  | { type: 'thread'; thread: Thread }
  | { type: 'turn'; turn: Turn }
  | { type: 'item'; item: Item }
  | { type: 'allow'; toolName: string; grant?: string }
  /** A streamed item started, and text sent of it since: see OpenStreams. */
  | { type: 'stream'; item: Item }
  | { type: 'text'; itemId: string; text: string };

/** Why a turn is journaled interrupted when its server stopped (or died) while it ran. */
export const SERVER_STOPPED = 'The app-server stopped while this turn was running.';

/** Journal names used as they are; anything else is hashed (see journalName). */
const SAFE_NAME = /^[A-Za-z0-9_-]{1,100}$/;

/** Thread metadata and journals under `<dataDir>/threads`. */
export class ThreadStore {
  private readonly dir: string;
  private readonly index: ThreadIndex;
  private readonly appenders = new Map<string, JsonlAppender>();
  private readonly pending = new PendingStreams(secrets);

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
    for (const thread of this.index.values()) this.recover(thread.id);
  }

  /** Metadata of a persistent thread, or undefined. */
  get(id: string): Thread | undefined {
    return this.index.get(id);
  }

  /** Every persistent thread's metadata (no particular order). */
  values(): Thread[] {
    return this.index.values();
  }

  /** Records changed metadata of an existing thread (and, when given, its agent session). */
  put(thread: Thread, session?: SessionRef): void {
    this.index.put(thread, session ? { session } : {});
  }

  /** The agent session recorded with a thread (dialect adapters), or undefined. */
  sessionOf(threadId: string): SessionRef | undefined {
    return this.index.extrasOf(threadId)?.session;
  }

  /** Creates a thread: its journal (header and `items`, e.g. a fork's history), then its index entry. */
  create(thread: Thread, items: readonly Item[] = [], session?: SessionRef): void {
    this.appender(thread.id).append(
      { type: 'thread', thread } satisfies JournalRecord,
      ...items.map((item) => ({ type: 'item', item }) satisfies JournalRecord),
    );
    // Journals stay open only while a turn writes to them: a thousand idle threads must not hold a thousand fds.
    this.release(thread.id);
    const extras: IndexExtras = { grants: [], ...(session ? { session } : {}) };
    this.index.put(thread, extras);
  }

  /** Appends a completed item; returns its size in the journal (what it weighs against a page's budget). */
  appendItem(threadId: string, item: Item): number {
    this.pending.end(threadId, item.id);
    return this.appender(threadId).append({ type: 'item', item } satisfies JournalRecord);
  }

  /** Appends a turn record (written when the turn starts and again when it ends). */
  appendTurn(threadId: string, turn: Turn): void {
    this.appender(threadId).append({ type: 'turn', turn } satisfies JournalRecord);
  }

  /** Journals a streamed item as it starts (see OpenStreams: a crash then keeps what was sent of it). */
  appendStreamStart(threadId: string, item: Item): void {
    this.pending.start(threadId, item.id);
    this.appender(threadId).append({ type: 'stream', item } satisfies JournalRecord);
  }

  /** Notes text sent of an open streamed item: journaled in chunks no secret can straddle (see PendingStream). */
  appendStreamText(threadId: string, itemId: string, delta: string): void {
    const text = this.pending.push(threadId, itemId, delta);
    if (text !== undefined) this.appender(threadId).append({ type: 'text', itemId, text } satisfies JournalRecord);
  }

  /** Records that `grant` (a call of `toolName`, see `BuiltinTool.grantKey`) is allowed for the rest of the thread. */
  appendGrant(threadId: string, toolName: string, grant: string): void {
    const grants = new Set(this.grants(threadId));
    this.appender(threadId).append({ type: 'allow', toolName, grant } satisfies JournalRecord);
    grants.add(grant);
    const thread = this.index.get(threadId);
    if (thread) this.index.put(thread, { grants: [...grants] });
  }

  /** What the user allowed for the rest of the thread (`allow_session`): grant keys (see `BuiltinTool.grantKey`). */
  grants(threadId: string): string[] {
    const recorded = this.index.extrasOf(threadId)?.grants;
    if (recorded) return [...recorded];
    // Threads from before grants moved to the index: their journal is read once, and the index remembers.
    const grants = this.scan(threadId).grants;
    const thread = this.index.get(threadId);
    if (thread) this.index.put(thread, { grants });
    return grants;
  }

  /**
   * The page of completed items that ends where `cursor` points (default: the journal's end), within `budget`,
   * read backwards from there. -32602 for a cursor that does not point into this thread's journal.
   */
  page(threadId: string, budget: PageBudget, cursor?: string): StoredPage {
    const path = this.journalPath(threadId);
    const end = cursor === undefined ? undefined : decodeCursor(cursor, threadId, 'journal');
    if (end !== undefined && !isLineStart(path, end))
      throw invalidCursor(threadId, 'it points to no line of its journal');
    const page = new PageBuilder(budget);
    const ends = new TurnEnds();
    let olderAt: number | undefined;
    let oldestTaken: number | undefined;
    for (const line of readLinesBackward(path, end)) {
      if (isStreamRecord(line.bytes)) continue;
      const record = parseLine(line.bytes);
      if (record === undefined)
        this.log(`journal ${path}: skipped ${line.terminated ? 'an unreadable line' : 'a torn last line'}`);
      ends.note(record);
      const item = itemOf(record);
      if (!item) continue;
      if (!page.offer(item, line.bytes.length + 1)) {
        // The older page starts right before this page's oldest item, so it holds the turn records between the two
        // (the end of a turn whose items it shows is journaled after them).
        olderAt = oldestTaken ?? line.start + line.bytes.length + 1;
        break;
      }
      oldestTaken = line.start;
    }
    const items = page.items();
    const unfinishedTurns = ends.unfinished(items);
    return {
      items,
      sizes: page.sizes(),
      olderCursor: olderAt === undefined ? null : encodeCursor(threadId, 'journal', olderAt),
      ...(unfinishedTurns.length > 0 ? { unfinishedTurns } : {}),
    };
  }

  /** The completed items after `itemId`, oldest first (read backwards until it is found); undefined when it is not there. */
  itemsAfter(threadId: string, itemId: string): Item[] | undefined {
    return this.readAfter(threadId, itemId)?.items;
  }

  /** `itemsAfter`, with the turns of those items and of `itemId` that ended without completing (see TurnEnds). */
  readAfter(threadId: string, itemId: string): { items: Item[]; unfinishedTurns: Turn[] } | undefined {
    const newestFirst: Item[] = [];
    const ends = new TurnEnds();
    for (const line of readLinesBackward(this.journalPath(threadId))) {
      if (isStreamRecord(line.bytes)) continue;
      const record = parseLine(line.bytes);
      ends.note(record);
      const item = itemOf(record);
      if (!item) continue;
      if (item.id === itemId) {
        const items = newestFirst.reverse();
        // The turn of `itemId` itself may have ended since, with nothing after it (cut off before its answer).
        return { items, unfinishedTurns: ends.unfinished([item, ...items]) };
      }
      newestFirst.push(item);
    }
    return undefined;
  }

  /** Every completed item of a thread, oldest first: the whole journal is read (a fork copies all of it anyway). */
  allItems(threadId: string): Item[] {
    return this.scan(threadId).items;
  }

  /**
   * Closes what a dead process left open: when the index says the thread was running and no live process is writing
   * it, every turn whose last record says `running` gets an `interrupted` end record and the thread becomes idle.
   * Cheap when nothing crashed (the index alone says so).
   */
  recover(threadId: string): void {
    const thread = this.index.get(threadId);
    if (!thread || (thread.status !== 'running' && thread.status !== 'waitingOnApproval')) return;
    if (this.inUseElsewhere(threadId)) return;
    const { turns, streams } = this.scan(threadId);
    for (const turn of turns.values()) {
      if (turn.status !== 'running') continue;
      // What was streamed of its answer is kept, completed as a live server completes it when it interrupts a turn.
      for (const item of streams.completed(turn.id, this.now())) this.appendItem(threadId, item);
      this.appendTurn(threadId, {
        ...turn,
        status: 'interrupted',
        completedAtMs: this.now(),
        error: { message: SERVER_STOPPED },
      });
    }
    this.index.put({ ...thread, status: 'idle', updatedAtMs: this.now() });
    this.release(threadId);
    this.log(`thread ${threadId}: the turn that was running when the server stopped is now marked interrupted`);
  }

  /** The whole journal, folded: for fork, crash recovery and grants recorded before the index kept them. */
  private scan(threadId: string): { items: Item[]; grants: string[]; turns: Map<string, Turn>; streams: OpenStreams } {
    const path = this.journalPath(threadId);
    const { records, badLines, tornTail } = readJsonlFile(path);
    if (badLines > 0 || tornTail) {
      this.log(`journal ${path}: skipped ${badLines} unreadable line(s)${tornTail ? ' and a torn last line' : ''}`);
    }
    const items: Item[] = [];
    const allowed = new Set<string>();
    const turns = new Map<string, Turn>();
    const streams = new OpenStreams();
    for (const record of records) {
      streams.note(record);
      const item = itemOf(record);
      if (item) {
        items.push(item);
        continue;
      }
      const r = record as Partial<Record<'type' | 'turn' | 'toolName' | 'grant', unknown>> | null;
      if (r?.type === 'turn') {
        const turn = Turn.safeParse(r.turn);
        if (turn.success) turns.set(turn.data.id, turn.data);
      } else if (r?.type === 'allow' && typeof r.toolName === 'string') {
        // Records before grants had keys name the tool only: that still matches a tool-wide grant, and never a
        // command-scoped one (`bash` now grants one command line), so an old "any command" grant is not honoured.
        allowed.add(typeof r.grant === 'string' ? r.grant : r.toolName);
      }
    }
    return { items, grants: [...allowed], turns, streams };
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
    return join(this.dir, `${journalName(threadId)}.jsonl`);
  }

  /** A journal whose index line was lost (crash between the two writes) is put back in the index from its header. */
  private adoptOrphanJournals(): void {
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.jsonl') || name === 'index.jsonl') continue;
      const id = name.slice(0, -'.jsonl'.length);
      if (this.index.get(id) || !SAFE_NAME.test(id)) continue;
      const header = readFirstLine(join(this.dir, name));
      const parsed = header
        ? Thread.safeParse((safeJson(header) as { thread?: unknown } | undefined)?.thread)
        : undefined;
      if (parsed?.success && parsed.data.id === id) {
        // Marked running so the recovery pass of the constructor closes any turn the crash left open.
        this.index.put({ ...parsed.data, status: 'running' });
        this.log(`thread ${id}: journal had no index entry; restored it from the journal header`);
      }
    }
  }
}

/**
 * A journal's file name: the id itself when it is a plain name (every id our factory makes), else a hash of it. Agents
 * choose ACP session ids: none of them may name another file.
 */
function journalName(threadId: string): string {
  return SAFE_NAME.test(threadId) ? threadId : createHash('sha256').update(threadId).digest('hex').slice(0, 40);
}

/** A completed item from a journal record: `{type: 'item', item}`, or a bare item (ACP journals before the merge). */
function itemOf(record: unknown): Item | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const r = record as { type?: unknown; item?: unknown };
  if (r.type === 'item') return isItem(r.item) ? r.item : undefined;
  return isItem(record) ? record : undefined;
}

/** What a streamed item's records begin with: readers of pages skip them unparsed (only crash recovery reads them). */
const STREAM_RECORD_HEADS = ['{"type":"text"', '{"type":"stream"'].map((head) => Buffer.from(head));

function isStreamRecord(bytes: Buffer): boolean {
  return STREAM_RECORD_HEADS.some(
    (head) => bytes.length >= head.length && bytes.compare(head, 0, head.length, 0, head.length) === 0,
  );
}

/** A journal line's record; undefined for a damaged line (a torn last one included), which readers skip. */
function parseLine(bytes: Buffer): unknown {
  return safeJson(bytes.toString('utf8'));
}

/** True when `offset` starts a line of the file (the byte before it is a newline) and is not past its end. */
function isLineStart(path: string, offset: number): boolean {
  if (offset === 0 || !existsSync(path)) return offset === 0;
  const fd = openSync(path, 'r');
  try {
    if (offset > fstatSync(fd).size) return false;
    const before = Buffer.alloc(1);
    readSync(fd, before, 0, 1, offset - 1);
    return before[0] === 0x0a;
  } finally {
    closeSync(fd);
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

/** The data dir cannot be used (not writable, not a folder, ...). */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** Opens the journal in `dataDir`, or throws a DataDirError saying what to do. */
export function openThreadStore(dataDir: string, log: (line: string) => void, now: () => number): ThreadStore {
  try {
    return new ThreadStore(dataDir, log, now);
  } catch (error) {
    throw new DataDirError(
      `Cannot use the data dir ${dataDir}: ${errorMessage(error)}. Fix its permissions, or choose another (--data-dir DIR, or --memory).`,
      { cause: error },
    );
  }
}
