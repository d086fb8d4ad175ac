/**
 * The conversation view, driven imperatively: deltas append to the open block of an answer (StreamMarkdown, rendered
 * at most once a frame) or to text nodes (StreamText); ScrollKeeper keeps the reader's place (the bottom, or the line
 * being read) once per layout. Nothing here reads layout per delta. Finished answers are rendered whole once.
 *
 * The list is a polite `role=log` live region: new items are announced, a snapshot or an older page is not (the list
 * is `aria-busy` while it is replaced), and an answer is announced once it is complete, not delta by delta.
 */
import type { Item, Turn } from '@tether/protocol';
import type { ViewEvent } from '../shared/events';
import { FIRST_PAINT, splitFromEnd } from './first-paint';
import { copyFrom, itemView } from './item-view';
import { completeEntry, type Entry } from './item-completion';
import { ScrollKeeper } from './scroll-keeper';
import { continueBelow, PendingSteers } from './steering';
import {
  noteKeptWorking,
  markInterrupted,
  restoreInterruption,
  UnfinishedMarks,
  type Interruption,
  type Resend,
  type TurnInterrupted,
} from './interruption';
import { errorMessage } from '@tether/protocol';

/** How close to the top (px) the reader scrolls before the next older page is asked for. */
const NEAR_TOP_PX = 200;
/** Renders a thread's items into a scrolling container. */
export class Transcript {
  private readonly entries = new Map<string, Entry>();
  private readonly keeper: ScrollKeeper;
  private readonly steers = new PendingSteers();
  /** Turn ids and messages of the errors shown, so a failed turn's error item and its turn/completed show once. */
  private readonly errorsShown = new Set<string>();
  private readonly doc: Document;
  /** Called when the reader scrolls near the top (or the items do not fill the view): time for an older page. */
  onNearTop: () => void = () => undefined;
  /** Sends an interrupted turn's input again (the Retry under an interrupted answer). */
  onRetry: Resend = () => Promise.reject(new Error('Retry is not wired up.'));
  /** Puts the text of a message back in the composer (its Edit button). */
  onEdit: (text: string) => void = () => undefined;
  /** Told when the view starts or stops following the bottom (the jump-to-latest button shows while it does not). */
  onFollowChange: (following: boolean) => void = () => undefined;
  /** Answers cut off by a host or backend stop, kept through the snapshots that do not have them. */
  private interrupted: Interruption[] = [];
  /** The older items of the last snapshot not rendered yet: they are shown as the reader scrolls up. */
  private backlog: Item[] = [];
  /** Turns the server reports ended without completing: their items are marked wherever they are shown. */
  private readonly unfinished: UnfinishedMarks;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly list: HTMLElement,
  ) {
    this.doc = list.ownerDocument;
    this.unfinished = new UnfinishedMarks(list, {
      cutLive: (turnId) => this.interrupted.some((cut) => cut.turnId === turnId),
      errorTold: (turn) => this.errorsShown.has(turn.id) || this.errorsShown.has(turn.error?.message ?? ''),
      resend: (text) => this.onRetry(text),
    });
    this.keeper = new ScrollKeeper(
      scroller,
      list.parentElement ?? list,
      list,
      (el) => (el instanceof HTMLElement ? (el.dataset.itemId ?? el.dataset.part) : undefined),
      (key) => this.entries.get(key)?.root ?? this.list.querySelector(`[data-part="${CSS.escape(key)}"]`) ?? undefined,
      (following) => this.onFollowChange(following),
    );
    scroller.addEventListener('scroll', () => {
      if (scroller.scrollTop < NEAR_TOP_PX) this.showEarlier() || this.onNearTop();
    });
    list.addEventListener('click', (e) => {
      const control = e.target instanceof Element ? e.target.closest('button[data-action]') : null;
      if (control instanceof HTMLButtonElement) this.act(control);
    });
  }

  /** Scrolls to the end and follows it again. */
  jumpToLatest(): void {
    this.keeper.followBottom();
  }

  /** Whether older items of the last snapshot are still to be shown. */
  get hasEarlier(): boolean {
    return this.backlog.length > 0;
  }

  /** The text of the last message the reader sent in this thread, if any. */
  lastUserText(): string | undefined {
    const last = this.list.querySelector<HTMLElement>('.userMessage:nth-last-child(1 of .userMessage) > .body');
    return last?.textContent ?? undefined;
  }

  /** Shows the next chunk of the snapshot's older items above what is shown; false when there is none. */
  showEarlier(): boolean {
    if (this.backlog.length === 0) return false;
    const at = splitFromEnd(this.backlog, FIRST_PAINT.chunkChars, Number.POSITIVE_INFINITY);
    const chunk = this.backlog.slice(at);
    this.backlog = this.backlog.slice(0, at);
    this.prepend(chunk);
    return true;
  }

  private act(control: HTMLButtonElement): void {
    const action = control.dataset.action;
    if (action === 'edit') {
      const text = control.closest('.item')?.querySelector(':scope > .body')?.textContent;
      if (text) this.onEdit(text);
      return;
    }
    copyFrom(control);
  }

  /** Keeps a polite live region from reading out what was already there: the list is busy while it is rebuilt. */
  private quietly(change: () => void): void {
    this.list.setAttribute('aria-busy', 'true');
    change();
    requestAnimationFrame(() => this.list.removeAttribute('aria-busy'));
  }

  /** Puts an older page (and how its unfinished turns ended) above what is shown; the reader's place holds. */
  prepend(items: readonly Item[], unfinishedTurns: readonly Turn[] = []): void {
    this.unfinished.add(unfinishedTurns);
    const page = this.doc.createDocumentFragment();
    for (const item of items) {
      if (this.entries.has(item.id)) continue;
      const entry = this.create(item, true);
      page.appendChild(entry.root);
      this.entries.set(item.id, entry);
    }
    this.quietly(() => this.list.insertBefore(page, this.list.firstChild));
    this.unfinished.mark();
    this.checkFilled();
  }

  /** Shows more of the thread when there is no scrollbar yet: a reader cannot scroll up to ask. */
  private checkFilled(): void {
    requestAnimationFrame(() => {
      if (this.scroller.scrollHeight <= this.scroller.clientHeight + NEAR_TOP_PX)
        this.showEarlier() || this.onNearTop();
    });
  }

  /**
   * Replaces everything with a snapshot's items, marking those of the turns it reports unfinished; with
   * `keptWorkingFrom`, says the agent kept working while the browser was away from that item on.
   */
  reset(all: readonly Item[], unfinishedTurns: readonly Turn[] = [], keptWorkingFrom?: string): void {
    this.unfinished.clear();
    this.unfinished.add(unfinishedTurns);
    this.entries.clear();
    this.steers.clear();
    this.errorsShown.clear();
    this.list.setAttribute('aria-busy', 'true');
    this.list.replaceChildren();
    // The latest items first, for a fast first paint; a running turn's items are all shown (they may still change).
    const running = all.findIndex((item) => item.status === 'inProgress');
    let at = splitFromEnd(all, FIRST_PAINT.chars, FIRST_PAINT.items);
    if (running !== -1) at = Math.min(at, running);
    const away = keptWorkingFrom === undefined ? -1 : all.findIndex((item) => item.id === keptWorkingFrom);
    if (away !== -1) at = Math.min(at, away);
    this.backlog = all.slice(0, at);
    const items = all.slice(at);
    for (const item of items) {
      // An item still being written (a running turn) keeps streaming: its later deltas append to it.
      if (item.status === 'inProgress') this.entries.set(item.id, this.create(item));
      else this.completeItem(item);
    }
    if (away !== -1) noteKeptWorking(this.list, this.entries.get(all[away]!.id)?.root);
    this.interrupted = this.interrupted.flatMap((cut) => restoreInterruption(this.list, cut, all) ?? []);
    this.unfinished.mark();
    this.keeper.followBottom();
    requestAnimationFrame(() => this.list.removeAttribute('aria-busy'));
    this.checkFilled();
  }

  /**
   * Continues the transcript after a reconnect with what came after the last finished item it has: finished items
   * replace their streaming copies or are added once, open ones go on from their text so far (the deltas that follow
   * continue them). `keptWorking` puts a note where the agent's work while the browser was away begins; with no turn
   * `running`, what still streams here was cut off.
   */
  resume(items: readonly Item[], unfinishedTurns: readonly Turn[], running: boolean, keptWorking: boolean): void {
    if (keptWorking) noteKeptWorking(this.list, items[0] && this.entries.get(items[0].id)?.root);
    for (const item of items) {
      if (item.status !== 'inProgress') {
        this.completeItem(item);
        continue;
      }
      const old = this.entries.get(item.id);
      const entry = this.create(item);
      old?.root.replaceWith(entry.root);
      this.entries.set(item.id, entry);
    }
    if (!running) for (const { root } of this.entries.values()) root.classList.replace('inProgress', 'interrupted');
    this.unfinished.add(unfinishedTurns);
    this.unfinished.mark();
  }

  /** Applies one batch of events, in order. Returns the turn changes seen (for the composer's state). */
  apply(events: readonly ViewEvent[]): { started?: Turn; completed?: Turn } {
    const seen: { started?: Turn; completed?: Turn } = {};
    // Consecutive deltas of one item (most of a host batch) become one append: one DOM write per batch, not per delta.
    let run: { itemId: string; reasoning: boolean; parts: string[] } | undefined;
    const flush = (): void => {
      if (run) this.appendDelta(run.itemId, run.parts.join(''), run.reasoning);
      run = undefined;
    };
    for (const e of events) {
      if (e.method === 'item/agentMessage/delta' || e.method === 'item/reasoning/delta') {
        const { itemId, delta } = e.params;
        const reasoning = e.method === 'item/reasoning/delta';
        if (run && (run.itemId !== itemId || run.reasoning !== reasoning)) flush();
        run ??= { itemId, reasoning, parts: [] };
        run.parts.push(delta);
        continue;
      }
      flush();
      try {
        this.applyOne(e, seen);
      } catch (error) {
        // A malformed event from a backend must not stop the rest of the stream.
        this.addNote('error', `Could not show ${e.method}: ${errorMessage(error)}`);
      }
    }
    flush();
    return seen;
  }

  private applyOne(e: ViewEvent, seen: { started?: Turn; completed?: Turn }): void {
    switch (e.method) {
      case 'item/started':
        this.startItem(e.params.item);
        break;
      case 'item/completed':
        this.completeItem(e.params.item);
        break;
      case 'turn/started':
        seen.started = e.params.turn;
        break;
      case 'turn/completed': {
        const { turn } = e.params;
        seen.completed = turn;
        // The backend may have said it already, as an error item or notification of this turn.
        const told = this.errorsShown.has(turn.id) || this.errorsShown.has(turn.error?.message ?? '');
        if (turn.status === 'failed' && !told)
          this.addNote('error', `The turn failed: ${turn.error?.message ?? 'no reason given'}`);
        if (turn.status === 'interrupted') this.addNote('note', 'Stopped.');
        break;
      }
      case 'approval/resolved': {
        const outcome = e.params.decision;
        if (outcome === 'cancelled' || outcome === 'timeout')
          this.addNote('note', `An approval was ${outcome === 'timeout' ? 'timed out' : 'withdrawn'}.`);
        break;
      }
      case 'error':
        this.errorShown(e.params.turnId, e.params.message);
        this.addNote('error', e.params.message);
        break;
      case 'warning':
        this.addNote('note', e.params.message);
        break;
    }
  }

  /** Adds a line that is not part of the thread (a rule decision, an error). */
  addNote(kind: 'note' | 'error' | 'rule', text: string): void {
    const el = this.doc.createElement('div');
    el.className = `item ${kind}`;
    el.textContent = text;
    this.list.appendChild(el);
  }

  /** Marks what the running turn showed as interrupted, says why, and offers to send `input` again. */
  interrupt(notice: TurnInterrupted, input: string | undefined): void {
    const cut = markInterrupted(this.list, notice, input, (text) => this.onRetry(text));
    for (const node of cut.nodes) node.removeAttribute('aria-busy');
    this.interrupted.push(cut);
  }

  /**
   * Shows steering input at the end of the transcript, where the reader sent it: answers still being written go on
   * below it. Returns an undo for a steer the backend refused.
   */
  addSteer(text: string): () => void {
    const root = this.steers.show(this.list, text);
    for (const entry of this.entries.values()) {
      const itemId = entry.root.dataset.itemId;
      if (entry.type !== 'agentMessage' || !entry.stream || !itemId || !entry.root.classList.contains('inProgress'))
        continue;
      const from = (entry.parts?.at(-1)?.from ?? 0) + entry.stream.length;
      const [part, stream] = continueBelow(this.list, itemId, from);
      entry.parts = [...(entry.parts ?? []), part];
      entry.stream = stream;
    }
    return () => this.steers.drop(root);
  }

  private startItem(item: Item): void {
    if (this.entries.has(item.id) || this.adoptSteer(item)) return;
    this.entries.set(item.id, this.create(item));
  }

  /** Makes the steer message shown when it was sent the element of its item; false when `item` is not one. */
  private adoptSteer(item: Item): boolean {
    if (item.type !== 'userMessage') return false;
    const root = this.steers.take(item.content.text);
    if (!root) return false;
    root.className = `item userMessage ${item.status}`;
    root.dataset.itemId = item.id;
    const body = root.querySelector<HTMLElement>('.body') ?? root;
    this.entries.set(item.id, { root, type: item.type, body });
    return true;
  }

  private errorShown(turnId: string | undefined, message: string): void {
    if (turnId) this.errorsShown.add(turnId);
    this.errorsShown.add(message);
  }

  private appendDelta(itemId: string, delta: string, reasoning: boolean): void {
    let entry = this.entries.get(itemId);
    if (!entry) {
      // A delta before its item/started (should not happen, but never lose text).
      const item = { id: itemId, status: 'inProgress', createdAtMs: Date.now(), content: { text: '' } } as const;
      entry = this.create(reasoning ? { ...item, type: 'reasoning' } : { ...item, type: 'agentMessage' });
      this.entries.set(itemId, entry);
    }
    entry.stream?.append(delta);
  }

  private completeItem(item: Item): void {
    if (!this.entries.has(item.id)) this.adoptSteer(item);
    const old = this.entries.get(item.id);
    // A cut-off answer completed later (a crash's partial answer, read back on resume) stays marked as cut off.
    const cut = old?.root.classList.contains('interrupted') === true;
    // What the journal kept of it can be shorter than what was shown (it lags the stream): the reader keeps what they saw.
    const shorter =
      (item.type === 'agentMessage' || item.type === 'reasoning') &&
      item.content.text.length < (old?.stream?.length ?? 0);
    if (cut && shorter) return;
    const done = completeEntry(item, old, (i, complete) => this.create(i, complete));
    if (done) this.entries.set(item.id, done);
    if (cut) this.entries.get(item.id)?.root.classList.add('interrupted');
  }

  private create(item: Item, complete = false): Entry {
    const view = itemView(this.doc, item, complete);
    if (item.type === 'error') this.errorShown(item.turnId, item.content.message);
    this.list.appendChild(view.root);
    return { ...view, type: item.type };
  }
}
