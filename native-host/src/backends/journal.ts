/**
 * The host's own record of the threads of an agent that keeps none Tether can read back (ACP agents), kept in the
 * thread store the app-server uses (see store/thread-store.ts) under `<dataDir>/agents/<backend>/`: the same
 * journals, torn-tail handling, redaction, file modes and pages. What it adds is the agent session each thread talks
 * to, threads the agent listed but Tether never read (`unread`), and ephemeral threads kept in memory only.
 * `thread/read`, `thread/resume` and `thread/list` are answered from it, so history survives host and agent restarts
 * whether or not the agent can replay a session.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Item, Thread, type Turn } from '@tether/protocol';
import { z } from 'zod';
import { memoryPage, type PageBudget, type StoredPage } from '../store/history-page';
import { ThreadStore } from '../store/thread-store';
import { unfinishedOf } from '../app-server/thread-history';

/** A thread as the journal keeps it: the Tether thread plus the agent session it talks to. */
export interface JournalEntry {
  readonly thread: Thread;
  readonly sessionId: string;
  /** Listed by the agent but never read: its history comes from a `session/load` replay on first read. */
  readonly unread?: boolean;
}

/** The index an older host kept (`index.json`, rewritten whole on each change); read once to carry its threads over. */
const LegacyIndex = z.looseObject({
  version: z.literal(1),
  threads: z.array(z.looseObject({ thread: Thread, sessionId: z.string(), unread: z.boolean().optional() })),
});

/** The journal of one backend, in `dir`. */
export class ThreadJournal {
  private store: ThreadStore | undefined;
  private readonly memory = new Map<string, { entry: JournalEntry; items: Item[] }>();

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens the store once (and carries over the threads of an older host's `index.json`). */
  async load(): Promise<void> {
    if (this.store) return;
    this.store = new ThreadStore(this.dir, this.log);
    for (const e of this.readLegacyIndex()) {
      if (!this.store.get(e.thread.id) && !e.thread.ephemeral)
        this.store.put(e.thread, { id: e.sessionId, ...(e.unread ? { unread: true } : {}) });
    }
  }

  /** The entry of a thread, if the journal knows it. */
  get(threadId: string): JournalEntry | undefined {
    const kept = this.memory.get(threadId);
    if (kept) return kept.entry;
    const thread = this.store?.get(threadId);
    if (!thread) return undefined;
    const session = this.store!.sessionOf(threadId);
    return { thread, sessionId: session?.id ?? threadId, ...(session?.unread ? { unread: true } : {}) };
  }

  /** All threads, newest first. */
  threads(): Thread[] {
    const all = [...(this.store?.values() ?? []), ...[...this.memory.values()].map((m) => m.entry.thread)];
    return all.sort((a, b) => b.updatedAtMs - a.updatedAtMs || b.createdAtMs - a.createdAtMs);
  }

  /** Adds a thread, or replaces its metadata and session. */
  put(entry: JournalEntry): void {
    if (entry.thread.ephemeral) {
      this.memory.set(entry.thread.id, { entry, items: this.memory.get(entry.thread.id)?.items ?? [] });
      return;
    }
    const session = { id: entry.sessionId, ...(entry.unread ? { unread: true } : {}) };
    if (this.opened().get(entry.thread.id)) this.opened().put(entry.thread, session);
    else this.opened().create(entry.thread, [], session);
  }

  /** Changes a thread's fields (and its session); undefined when the thread is unknown. */
  update(threadId: string, patch: Partial<Thread>, sessionId?: string): Thread | undefined {
    const entry = this.get(threadId);
    if (!entry) return undefined;
    const thread = { ...entry.thread, ...patch };
    this.put({ thread, sessionId: sessionId ?? entry.sessionId });
    return thread;
  }

  /** Records a finished item of a thread (ephemeral threads keep theirs in memory only). */
  append(threadId: string, item: Item): void {
    const kept = this.memory.get(threadId);
    if (kept) kept.items.push(item);
    else if (this.store?.get(threadId)) this.store.appendItem(threadId, item);
  }

  /** Records a turn as it starts and again as it ends: a read marks the items of one that did not complete. */
  appendTurn(threadId: string, turn: Turn): void {
    if (!this.memory.has(threadId) && this.store?.get(threadId)) this.store.appendTurn(threadId, turn);
  }

  /** The page of a thread's finished items that ends at `cursor` (default: the latest); -32602 for a foreign cursor. */
  page(threadId: string, budget: PageBudget, cursor?: string): StoredPage {
    const kept = this.memory.get(threadId);
    return kept ? memoryPage(kept.items, threadId, budget, cursor) : this.opened().page(threadId, budget, cursor);
  }

  /** Finished items after `itemId`, oldest first, and the turns among theirs that did not complete; undefined when the thread has no such item. */
  itemsAfter(threadId: string, itemId: string): { items: Item[]; unfinishedTurns?: Turn[] } | undefined {
    const kept = this.memory.get(threadId);
    if (!kept) {
      const after = this.opened().readAfter(threadId, itemId);
      return after && { items: after.items, ...unfinishedOf(after.unfinishedTurns) };
    }
    const at = kept.items.findIndex((i) => i.id === itemId);
    return at < 0 ? undefined : { items: kept.items.slice(at + 1) };
  }

  private opened(): ThreadStore {
    if (!this.store) throw new Error('ThreadJournal used before load(): call load() first');
    return this.store;
  }

  private readLegacyIndex(): z.infer<typeof LegacyIndex>['threads'] {
    const path = join(this.dir, 'index.json');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    try {
      return LegacyIndex.parse(JSON.parse(text)).threads;
    } catch (error) {
      this.log(
        `journal index ${path} (from an older version) is unreadable, its threads are not carried over: ${String(error)}`,
      );
      return [];
    }
  }
}
