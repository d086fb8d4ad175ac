/**
 * The refs a model sees. Each frame's agent numbers its own elements (`e1`, `e2`, ... per document); the worker gives
 * every (frame, document, local ref) one ref of its own per tab, never reused while the worker lives, so a ref from
 * a page that has since navigated can only be stale, never another element. Pure: the worker owns one per tab.
 */

/** Where a model-facing ref points: the frame, the document the agent reported there, and the agent's own ref. */
export interface RefTarget {
  readonly frameId: number;
  readonly docId: string;
  readonly local: string;
}

/** The error a stale or unknown ref gets, the same wherever it is found. */
export function staleRefMessage(ref: string): string {
  return `Ref ${ref} is not on the page any more (the page changed or navigated since the snapshot that showed it). Call page_snapshot again and use a ref from the new snapshot.`;
}

const LOCAL_REF = /\[ref=(e\d+)\]/g;

/** Most refs kept per tab; past it the oldest documents' refs are forgotten (they answer "snapshot again"). */
const MAX_REFS = 50_000;

/** One tab's refs. */
export class RefTable {
  private next = 1;
  private readonly byRef = new Map<string, RefTarget>();
  private readonly byTarget = new Map<string, string>();

  /** The model-facing ref of a frame's local ref, minted on first sight. */
  refFor(frameId: number, docId: string, local: string): string {
    const key = `${frameId}|${docId}|${local}`;
    const known = this.byTarget.get(key);
    if (known) return known;
    const ref = `e${this.next++}`;
    this.byTarget.set(key, ref);
    this.byRef.set(ref, { frameId, docId, local });
    if (this.byRef.size > MAX_REFS) this.forgetOldest();
    return ref;
  }

  /** Where `ref` points, or undefined when this worker never gave it out (or forgot it). */
  resolve(ref: string): RefTarget | undefined {
    return this.byRef.get(ref);
  }

  /** Rewrites the `[ref=eN]` marks in one frame's lines to model-facing refs. */
  rewrite(lines: readonly string[], frameId: number, docId: string): string[] {
    return lines.map((line) =>
      line.includes('[ref=')
        ? line.replace(LOCAL_REF, (_, local: string) => `[ref=${this.refFor(frameId, docId, local)}]`)
        : line,
    );
  }

  /** A frame now shows another document: the old document's refs stay stale and stop taking room. */
  forgetDocument(frameId: number, keepDocId: string): void {
    for (const [ref, t] of this.byRef) {
      if (t.frameId !== frameId || t.docId === keepDocId) continue;
      this.byRef.delete(ref);
      this.byTarget.delete(`${t.frameId}|${t.docId}|${t.local}`);
    }
  }

  private forgetOldest(): void {
    // Map iteration is insertion order: the first entries are the oldest refs.
    const drop = this.byRef.size - Math.floor(MAX_REFS * 0.9);
    let n = 0;
    for (const [ref, t] of this.byRef) {
      if (n++ >= drop) break;
      this.byRef.delete(ref);
      this.byTarget.delete(`${t.frameId}|${t.docId}|${t.local}`);
    }
  }
}
