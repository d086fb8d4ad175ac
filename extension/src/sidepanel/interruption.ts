/**
 * A running answer cut off because the host or its backend stopped. A restarted host does not know the text it was
 * streaming (only finished items are journaled), so the snapshot after the reconnect lacks it: the panel keeps the
 * elements the reader saw, marked interrupted, with a note saying why and a Retry that sends the turn's input again.
 * A thread opened later says the same from the server's word: a turn it reports unfinished gets the same mark.
 */
import type { Item, Turn, UserInput } from '@tether/protocol';
import type { Notice } from '../shared/records';

/** A `turn-interrupted` notice. */
export type TurnInterrupted = Extract<Notice, { kind: 'turn-interrupted' }>;

/** Sends the input of an interrupted turn again as a new turn; rejects with what went wrong. */
export type Resend = (text: string) => Promise<unknown>;

/** The cut-off items of one turn and the note after them, as shown. */
export interface Interruption {
  readonly turnId: string;
  readonly nodes: readonly HTMLElement[];
}

const CAUSES: Record<TurnInterrupted['cause'], string> = {
  'host-stopped': 'the host stopped',
  'backend-stopped': 'the backend stopped',
  'backend-switched': 'the backend was switched',
};

/** "Interrupted: the host stopped (Native host has exited.)". */
export function interruptionText(notice: TurnInterrupted): string {
  return `Interrupted: ${CAUSES[notice.cause]} (${notice.reason})`;
}

/** The text of a turn's input, as `turn/send` takes it. */
export function inputText(input: readonly UserInput[]): string {
  return input.map((piece) => piece.text).join('\n');
}

/**
 * Marks the items of `list` still in progress interrupted and appends the note after them; the note's Retry sends
 * `input` again (no Retry without an input to send). What the turn showed from its first unfinished item on (parts
 * continued below a steer message, notes) is kept with it.
 */
export function markInterrupted(
  list: HTMLElement,
  notice: TurnInterrupted,
  input: string | undefined,
  resend: Resend,
): Interruption {
  const doc = list.ownerDocument;
  const running: HTMLElement[] = [];
  for (let el = list.querySelector<HTMLElement>(':scope > .inProgress'); el; ) {
    el.classList.replace('inProgress', 'interrupted');
    running.push(el);
    const next = el.nextElementSibling;
    el = next instanceof HTMLElement ? next : null;
  }
  const note = interruptionNote(doc, notice.turnId, interruptionText(notice), input, resend);
  list.appendChild(note);
  return { turnId: notice.turnId, nodes: [...running, note] };
}

/** "Interrupted: this turn did not finish (why)": how a turn the server reports unfinished is marked. */
export function unfinishedText(turn: Turn): string {
  if (turn.status === 'failed') return `This turn failed: ${turn.error?.message ?? 'no reason given'}`;
  const why = turn.error?.message;
  return `Interrupted: this turn did not finish${why ? ` (${why.replace(/\.$/, '')})` : '.'}`;
}

/**
 * Marks the shown items of a turn the server reports unfinished (all but the user's message) interrupted and puts
 * the note, with a Retry of the turn's input, after its last element. `withNote` false marks the items only (a failed
 * turn whose error is shown already). Returns the note, or undefined when no element of the turn is shown.
 */
export function markUnfinished(
  list: HTMLElement,
  turn: Turn,
  resend: Resend,
  withNote = true,
): HTMLElement | undefined {
  const ofTurn = list.querySelectorAll<HTMLElement>(`:scope > [data-turn-id="${CSS.escape(turn.id)}"]`);
  const last = ofTurn[ofTurn.length - 1];
  if (!last) return undefined;
  for (const el of ofTurn) if (!el.classList.contains('userMessage')) el.classList.add('interrupted');
  if (!withNote) return undefined;
  const input = inputText(turn.input);
  const note = interruptionNote(list.ownerDocument, turn.id, unfinishedText(turn), input || undefined, resend);
  last.after(note);
  return note;
}

/** The note after a cut-off answer: why, and a Retry that sends `input` again (none without an input). */
function interruptionNote(
  doc: Document,
  turnId: string,
  why: string,
  input: string | undefined,
  resend: Resend,
): HTMLElement {
  const note = doc.createElement('div');
  note.className = 'item error interrupted-note';
  note.dataset.turnId = turnId;
  const text = doc.createElement('span');
  text.textContent = why;
  note.appendChild(text);
  if (input) {
    const retry = doc.createElement('button');
    retry.type = 'button';
    retry.dataset.action = 'retry';
    retry.textContent = 'Retry';
    retry.title = 'Send the same message again as a new turn';
    retry.addEventListener('click', () => {
      retry.disabled = true;
      // Once sent, the new turn is the answer: one Retry per interruption. A failed send can be retried.
      resend(input).then(
        () => retry.remove(),
        () => {
          retry.disabled = false;
        },
      );
    });
    note.append(' ', retry);
  }
  return note;
}

/**
 * Puts a kept interruption back after a snapshot replaced the list: after the last element of its turn, leaving out
 * the items the snapshot now has itself. Returns undefined (forget it) when the snapshot does not show its turn.
 */
export function restoreInterruption(
  list: HTMLElement,
  cut: Interruption,
  items: readonly Item[],
): Interruption | undefined {
  const ofTurn = list.querySelectorAll<HTMLElement>(`[data-turn-id="${CSS.escape(cut.turnId)}"]`);
  const anchor = ofTurn[ofTurn.length - 1];
  if (!anchor) return undefined;
  const known = new Set(items.map((item) => item.id));
  const nodes = cut.nodes.filter((node) => !known.has(node.dataset.itemId ?? ''));
  anchor.after(...nodes);
  return { turnId: cut.turnId, nodes };
}

/** What a `UnfinishedMarks` asks of the transcript it marks. */
export interface MarkDeps {
  /** Whether the view saw the turn cut off live (that mark stays instead). */
  cutLive(turnId: string): boolean;
  /** Whether the failed turn's error is shown already (its items are marked, without a second note). */
  errorTold(turn: Turn): boolean;
  readonly resend: Resend;
}

/**
 * The turns the server reports ended without completing, for one transcript: `mark` marks the shown items of each
 * once (a partial answer reopened after a crash or a stop must not read as finished), however the items came.
 */
export class UnfinishedMarks {
  private readonly turns = new Map<string, Turn>();

  constructor(
    private readonly list: HTMLElement,
    private readonly deps: MarkDeps,
  ) {}

  /** Forgets every turn (a snapshot of another thread, or the same one afresh). */
  clear(): void {
    this.turns.clear();
  }

  /** Remembers more unfinished turns (from a snapshot, an older page or a resume); `mark` shows them. */
  add(turns: readonly Turn[]): void {
    for (const turn of turns) this.turns.set(turn.id, turn);
  }

  /** Marks every remembered turn that has items shown and no mark yet. */
  mark(): void {
    for (const turn of this.turns.values()) {
      if (this.deps.cutLive(turn.id)) continue;
      if (this.list.querySelector(`:scope > .interrupted-note[data-turn-id="${CSS.escape(turn.id)}"]`)) continue;
      markUnfinished(this.list, turn, this.deps.resend, !(turn.status === 'failed' && this.deps.errorTold(turn)));
    }
  }
}

/** The line a transcript shows where the agent's work while the browser was away begins. */
function keptWorkingNote(doc: Document): HTMLElement {
  const note = doc.createElement('div');
  note.className = 'item note kept-working';
  note.textContent = 'The agent kept working while the browser was away.';
  return note;
}

/** Puts the kept-working note before `from`, where the agent's work while the browser was away begins, or last. */
export function noteKeptWorking(list: HTMLElement, from: HTMLElement | undefined): void {
  const note = keptWorkingNote(list.ownerDocument);
  if (from) from.before(note);
  else list.appendChild(note);
}
