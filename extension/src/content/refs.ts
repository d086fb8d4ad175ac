/**
 * The ref table of one document: element <-> number, held weakly so the page can still drop its elements. An
 * element keeps its number while it stays connected; a ref whose element is gone, or that carries another frame's
 * prefix, is stale and never resolves to a different element.
 */
import type { StaleRef } from '../shared/agent-contract';

/** What every call says about a ref it cannot use. */
export function staleMessage(ref: string): string {
  return (
    `Ref ${ref} is no longer on the page (the page changed or navigated since the snapshot that showed it). ` +
    'Call page_snapshot again and use a ref from the new snapshot.'
  );
}

/** The reply for a stale or unknown ref. */
export function staleRef(ref: string): StaleRef {
  return { stale: true, error: staleMessage(ref) };
}

/** Dead entries are swept once the table has grown by this many since the last sweep. */
const SWEEP_EVERY = 2000;

/** Numbers elements for one document and one frame prefix. */
export class RefTable {
  private readonly byNumber = new Map<number, WeakRef<Element>>();
  private readonly numbers = new WeakMap<Element, number>();
  private next = 1;
  private sweepAt = SWEEP_EVERY;

  /** `prefix`: `''` for the top frame, `f<frameId>` for a frame (given by the worker). */
  constructor(readonly prefix: string) {}

  /** The element's ref, numbering it on first sight; the same element always gets the same ref. */
  refFor(el: Element): string {
    let n = this.numbers.get(el);
    if (n === undefined) {
      n = this.next++;
      this.numbers.set(el, n);
      this.byNumber.set(n, new WeakRef(el));
      if (this.byNumber.size >= this.sweepAt) this.sweep();
    } else if (!this.byNumber.has(n)) {
      // Swept while detached, then put back by the page (a moved node): it keeps its number.
      this.byNumber.set(n, new WeakRef(el));
    }
    return `${this.prefix}e${n}`;
  }

  /** The ref's element when it is still connected; `undefined` for another prefix, an unknown number or a gone one. */
  resolve(ref: string): Element | undefined {
    if (!ref.startsWith(this.prefix)) return undefined;
    const match = /^e([1-9][0-9]{0,8})$/.exec(ref.slice(this.prefix.length));
    if (!match) return undefined;
    const el = this.byNumber.get(Number(match[1]))?.deref();
    return el?.isConnected ? el : undefined;
  }

  private sweep(): void {
    for (const [n, weak] of this.byNumber) {
      const el = weak.deref();
      if (!el?.isConnected) this.byNumber.delete(n);
    }
    this.sweepAt = this.byNumber.size + SWEEP_EVERY;
  }
}
