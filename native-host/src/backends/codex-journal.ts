/**
 * What Tether relayed of Codex's turns, kept so a turn Codex did not finish reads back as far as the browser saw it.
 * Codex keeps its own history (rollouts) but writes an agent message there only once it completes: a Codex process
 * killed mid-answer leaves its turn with the user's message and none of the text already shown. So the adapter
 * journals the turns it relays in the thread store the app-server and the ACP agents use (under
 * `<dataDir>/agents/<backend>/`: lines masked, streamed text in chunks no secret can straddle, files 0600 in 0700
 * folders). When Codex goes away, each turn still running is journaled interrupted with the whole text relayed of its
 * open items (masked whole); a Tether process killed meanwhile keeps the chunks, which the store's recovery completes.
 * A read of a turn Codex did not complete adds what the journal kept of it and Codex's history lacks (by item id, so
 * nothing shows twice when Codex kept it), and marks the turn unfinished.
 */
import type { Item, Thread, Turn } from '@tether/protocol';
import { completedItem } from '../store/items';
import { ThreadStore } from '../store/thread-store';

/** What a read says of a turn whose items it shows: Codex's own account, and whether its newest item is on the page. */
export interface ShownTurn {
  readonly turn: Turn;
  /** False when the turn's newer items are on a newer page: what the journal adds goes there, not here. */
  readonly tail: boolean;
}

/** Why a turn is journaled interrupted when the Codex process ended while it ran. */
export const CODEX_STOPPED = 'Codex stopped while this turn was running.';

const STREAMED: ReadonlySet<Item['type']> = new Set(['agentMessage', 'reasoning']);

/** The journal of one Codex backend, in `dir`. */
export class CodexJournal {
  private store: ThreadStore | undefined;
  /** Turns running now, by id. */
  private readonly running = new Map<string, Turn>();
  /** The text relayed of each open streamed item, by item id. */
  private readonly open = new Map<string, { threadId: string; item: Item; text: string }>();

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Opens the store (closing what a dead process left running). A data dir that cannot be used costs the partial
   * answers of turns Codex did not finish, not Codex: it is logged and nothing is journaled.
   */
  load(): void {
    if (this.store) return;
    try {
      this.store = new ThreadStore(this.dir, this.log, this.now);
    } catch (error) {
      this.log(
        `cannot keep Codex's unfinished answers in ${this.dir} (${String(error)}): a turn Codex does not finish will read back without them. Fix the folder's permissions, or choose another data dir.`,
      );
    }
  }

  /** A turn started on `thread` (ephemeral threads live in Codex's memory only, and are not journaled). */
  turnStarted(turn: Turn, thread: Thread): void {
    const store = this.store;
    if (!store || thread.ephemeral || this.running.has(turn.id)) return;
    const meta = { ...thread, status: 'running' as const };
    if (store.get(thread.id)) store.put(meta);
    else store.create(meta);
    store.appendTurn(thread.id, turn);
    this.running.set(turn.id, turn);
  }

  /** An item of a running turn started: a streamed one is journaled as it grows. */
  itemStarted(threadId: string, item: Item): void {
    if (!this.isRunning(threadId, item.turnId) || !STREAMED.has(item.type)) return;
    this.open.set(item.id, { threadId, item, text: '' });
    this.store!.appendStreamStart(threadId, item);
  }

  /** Text relayed of an open streamed item. */
  delta(threadId: string, itemId: string, delta: string): void {
    const open = this.open.get(itemId);
    if (!open || open.threadId !== threadId) return;
    open.text += delta;
    this.store!.appendStreamText(threadId, itemId, delta);
  }

  /** An item of a running turn completed. */
  itemCompleted(threadId: string, item: Item): void {
    if (!this.isRunning(threadId, item.turnId)) return;
    this.open.delete(item.id);
    this.store!.appendItem(threadId, item);
  }

  /** A turn ended: one that did not complete keeps the text relayed of its open items, completed as it stands. */
  turnEnded(turn: Turn): void {
    const store = this.store;
    if (!store || !this.running.delete(turn.id)) return;
    const at = turn.completedAtMs ?? this.now();
    for (const [id, open] of this.open) {
      if (open.item.turnId !== turn.id) continue;
      this.open.delete(id);
      if (turn.status !== 'completed')
        store.appendItem(turn.threadId, completedItem(textOf(open.item, open.text), 'completed', at));
    }
    store.appendTurn(turn.threadId, turn);
    if ([...this.running.values()].some((t) => t.threadId === turn.threadId)) return;
    const thread = store.get(turn.threadId);
    if (thread) store.put({ ...thread, status: 'idle', updatedAtMs: this.now() });
    store.release(turn.threadId);
  }

  /** Codex went away: every turn still running ended interrupted, with what was relayed of it. */
  agentGone(message = CODEX_STOPPED): void {
    for (const turn of [...this.running.values()])
      this.turnEnded({ ...turn, status: 'interrupted', completedAtMs: this.now(), error: { message } });
  }

  /**
   * `items` (a page of Codex's history, oldest first) with what the journal kept of each shown turn Codex did not
   * complete and does not hold, after that turn's newest item, and the turns shown that did not finish.
   * `active` is the turn running now, which Codex reports in progress and the journal does not end.
   */
  merge(threadId: string, items: readonly Item[], turns: readonly ShownTurn[], active?: string): MergedPage {
    const shownIds = new Set(items.map((i) => i.id));
    const added = new Map<string, Item[]>();
    const unfinished: Turn[] = [];
    for (const { turn, tail } of turns) {
      if (turn.status === 'completed' || turn.id === active) continue;
      const first = items.find((i) => i.turnId === turn.id);
      if (!first) continue;
      const kept = this.store?.get(threadId) ? this.store.readAfter(threadId, first.id) : undefined;
      const missing = (kept?.items ?? []).filter((i) => i.turnId === turn.id && !shownIds.has(i.id));
      if (tail && missing.length > 0) added.set(turn.id, missing);
      // The journal's end says why (Codex may report a turn it lost as still in progress); else Codex's account.
      const ended = kept?.unfinishedTurns.find((t) => t.id === turn.id);
      if (ended) unfinished.push({ ...ended, input: turn.input.length > 0 ? turn.input : ended.input });
      else unfinished.push(turn.status === 'running' ? { ...turn, status: 'interrupted' } : turn);
    }
    if (added.size === 0) return { items: [...items], unfinishedTurns: unfinished };
    const out: Item[] = [];
    for (const [index, item] of items.entries()) {
      out.push(item);
      const turnId = item.turnId;
      if (turnId === undefined || items[index + 1]?.turnId === turnId) continue;
      out.push(...(added.get(turnId) ?? []));
      added.delete(turnId);
    }
    return { items: out, unfinishedTurns: unfinished };
  }

  /** Closes the journal's files. */
  close(): void {
    this.store?.close();
    this.store = undefined;
  }

  private isRunning(threadId: string, turnId: string | undefined): boolean {
    const turn = turnId === undefined ? undefined : this.running.get(turnId);
    return this.store !== undefined && turn?.threadId === threadId;
  }
}

/** A page after `merge`. */
export interface MergedPage {
  readonly items: Item[];
  readonly unfinishedTurns: Turn[];
}

function textOf(item: Item, text: string): Item {
  return { ...item, content: { ...item.content, text } } as Item;
}
