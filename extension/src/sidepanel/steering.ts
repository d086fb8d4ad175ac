/**
 * Steering shown where it was sent. A steer message is recorded by the backend only when the model reads it (the
 * scripted model at its next check, a real one at its next step), as an item after the answer it changes; the reader
 * sent it at a point of that answer, so the panel shows it there at once and the answer goes on below it, in a
 * continuation of the same item. The backend's userMessage item, when it comes, takes over the element shown.
 */
import { StreamMarkdown } from './stream-markdown';

/** A part of an answer written after a steer message: its element and the offset in the item's text it starts at. */
export interface Continuation {
  readonly root: HTMLElement;
  readonly from: number;
}

/** Steer messages shown but not yet recorded by the backend, in the order they were sent. */
export class PendingSteers {
  private readonly pending: { readonly text: string; readonly root: HTMLElement }[] = [];

  /** Shows `text` at the end of `list` as a steer message waiting for its item; returns its element. */
  show(list: HTMLElement, text: string): HTMLElement {
    const doc = list.ownerDocument;
    const root = doc.createElement('div');
    root.className = 'item userMessage steer pending';
    const body = doc.createElement('div');
    body.className = 'body';
    body.textContent = text;
    root.appendChild(body);
    list.appendChild(root);
    this.pending.push({ text, root });
    return root;
  }

  /** The element shown for the first pending steer message with this text, no longer pending; undefined if none. */
  take(text: string): HTMLElement | undefined {
    const at = this.pending.findIndex((p) => p.text === text);
    if (at === -1) return undefined;
    const [taken] = this.pending.splice(at, 1);
    return taken?.root;
  }

  /** Forgets (and removes) a steer message the backend refused. */
  drop(root: HTMLElement): void {
    const at = this.pending.findIndex((p) => p.root === root);
    if (at !== -1) this.pending.splice(at, 1);
    root.remove();
  }

  /** Forgets every pending steer message (a new snapshot replaced what was shown). */
  clear(): void {
    this.pending.length = 0;
  }
}

/**
 * Starts a continuation of streaming item `itemId` at the end of `list`, beginning at offset `from` of its text;
 * returns it and where later deltas go (markdown rendered as it streams, like the part above).
 */
export function continueBelow(list: HTMLElement, itemId: string, from: number): [Continuation, StreamMarkdown] {
  const doc = list.ownerDocument;
  const root = doc.createElement('div');
  root.className = 'item continuation inProgress';
  root.dataset.part = `${itemId}@${from}`;
  root.setAttribute('aria-busy', 'true');
  const body = doc.createElement('div');
  body.className = 'body markdown streaming';
  root.appendChild(body);
  list.appendChild(root);
  return [{ root, from }, new StreamMarkdown(body)];
}

/** `text` cut where the continuations start: the first piece is the part above the first steer message. */
export function splitAt(text: string, continuations: readonly Continuation[]): string[] {
  const cuts = continuations.map((c) => Math.min(c.from, text.length));
  return [0, ...cuts].map((start, i) => text.slice(start, cuts[i] ?? text.length));
}
