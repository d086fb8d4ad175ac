/**
 * Where a streamed item's text may be cut into journal records. Journal lines are masked one at a time (see
 * jsonl-file.ts), so a secret split across two `text` records would reach the disk unmasked: `sk-abc` + `def...`,
 * `Bearer ` + `xyz...`, `API_KEY=` + `value`. So deltas are not journaled as they come: the item's text not yet
 * journaled stays pending, and a chunk of it is journaled only up to a boundary that nothing the masker masks can
 * straddle, now or whatever text comes next. The rest waits for more text; the completed item (masked whole) supersedes
 * it all, and a crash loses at most that unjournaled tail.
 *
 * A boundary follows whitespace and precedes a non-whitespace character (no key shape has whitespace in it; a run of
 * whitespace is never split, so `Bearer\n` + `token` is seen whole), at least LOOKAHEAD characters (and more than the
 * longest known secret) before the pending text's end. It is taken only when masking the two sides separately gives
 * what masking them together gives, also with each of PROBES appended: the continuations that would complete something
 * opened before the boundary (a closing quote of `password="...`, a credential after `Bearer`, a `-p X` after `mysql`).
 */
import type { Redactor } from '@tether/protocol/redact';

/** Text kept after a boundary, to judge what straddles it. */
export const LOOKAHEAD = 256;
/** Pending text is looked at for a boundary once it is this long (and then after each STEP more). */
const FIRST_TRY = 2 * LOOKAHEAD;
const STEP = LOOKAHEAD;
/** Continuations that complete what an open context would mask: none of them may change the masked prefix. */
const PROBES = ['', '"', "'", 'A1b2C3d4E5f6G7h8J9k0', ' -p A1b2C3d4E5f6G7h8J9k0 -a A1b2C3d4E5f6G7h8J9k0'];

/** The text of one streamed item not journaled yet. */
export class PendingStream {
  private text = '';
  private nextTry = FIRST_TRY;

  constructor(private readonly masker: Redactor) {}

  /** Adds a delta; returns the chunk to journal now (the front of the pending text), or undefined. */
  push(delta: string): string | undefined {
    this.text += delta;
    if (this.text.length < this.nextTry) return undefined;
    const cut = this.findCut();
    if (cut === undefined) {
      // Nothing safe yet (an open quote, a long secret-looking run): look again once more has come, less often as it
      // grows, so a stuck stream costs a bounded number of masker passes per character.
      this.nextTry = this.text.length + Math.max(STEP, this.text.length >> 2);
      return undefined;
    }
    const chunk = this.text.slice(0, cut);
    this.text = this.text.slice(cut);
    this.nextTry = this.text.length + STEP;
    return chunk;
  }

  /** The latest safe boundary: after the last newline first, else after the last other whitespace. */
  private findCut(): number | undefined {
    const lookahead = Math.max(LOOKAHEAD, (this.masker.needles[0]?.length ?? 0) + 1);
    const limit = this.text.length - lookahead;
    if (limit <= 0) return undefined;
    const tried = new Set<number>();
    for (const cut of [boundaryBefore(this.text, limit, /\n/), boundaryBefore(this.text, limit, /\s/)]) {
      if (cut === undefined || tried.has(cut)) continue;
      tried.add(cut);
      if (this.separable(cut)) return cut;
    }
    return undefined;
  }

  /** True when masking the text before and after `cut` apart equals masking it whole, whatever PROBE follows. */
  private separable(cut: number): boolean {
    const before = this.masker.text(this.text.slice(0, cut));
    const after = this.text.slice(cut);
    return PROBES.every((probe) => before + this.masker.text(after + probe) === this.masker.text(this.text + probe));
  }
}

/**
 * The last boundary at or before `limit` whose preceding character matches `space`: a position after a whitespace
 * run (the run ending with such a character) and on a non-whitespace character.
 */
function boundaryBefore(text: string, limit: number, space: RegExp): number | undefined {
  for (let at = limit; at > 0; at--) {
    if (/\s/.test(text[at] ?? '') || !/\s/.test(text[at - 1] ?? '')) continue;
    // A run of whitespace (the characters before `at`): a match of `space` in it makes this a boundary of that kind.
    let start = at - 1;
    while (start > 0 && /\s/.test(text[start - 1] ?? '')) start--;
    if (space.test(text.slice(start, at))) return at;
    at = start;
  }
  return undefined;
}

/** The pending text of every open streamed item a store journals, by thread and item. */
export class PendingStreams {
  private readonly open = new Map<string, PendingStream>();

  constructor(private readonly masker: Redactor) {}

  /** A streamed item started. */
  start(threadId: string, itemId: string): void {
    this.open.set(key(threadId, itemId), new PendingStream(this.masker));
  }

  /** Text sent of an open item: the chunk to journal now, or undefined (an unknown item's text is not journaled). */
  push(threadId: string, itemId: string, delta: string): string | undefined {
    return this.open.get(key(threadId, itemId))?.push(delta);
  }

  /** The item completed (its whole text is journaled with it): its pending text is dropped. */
  end(threadId: string, itemId: string): void {
    this.open.delete(key(threadId, itemId));
  }
}

function key(threadId: string, itemId: string): string {
  return `${threadId}\u0000${itemId}`;
}
