/**
 * A running answer cut off because the host or its backend stopped. A restarted host does not know the text it was
 * streaming (only finished items are journaled), so the snapshot after the reconnect lacks it: the panel keeps the
 * elements the reader saw, marked interrupted, with a note saying why and a Retry that sends the turn's input again.
 */
import type { Item, UserInput } from '@tether/protocol';
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
  const note = doc.createElement('div');
  note.className = 'item error interrupted-note';
  const text = doc.createElement('span');
  text.textContent = interruptionText(notice);
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
  list.appendChild(note);
  return { turnId: notice.turnId, nodes: [...running, note] };
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
