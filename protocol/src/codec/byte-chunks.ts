/**
 * Pending pieces of one message, concatenated once when the message is complete.
 * Appending to one growing buffer per chunk is quadratic (a 63 MiB message took over 30 s that way).
 */
export class ByteChunks {
  private chunks: Uint8Array[] = [];
  /** Bytes held. */
  length = 0;

  /** Keeps a view of `chunk` (no copy): the caller must not reuse that memory. */
  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Everything held plus `tail`, as one array; empties the list. Copies only when there are several pieces. */
  take(tail?: Uint8Array): Uint8Array {
    const chunks = this.chunks;
    if (tail && tail.length > 0) {
      chunks.push(tail);
      this.length += tail.length;
    }
    let out: Uint8Array;
    if (chunks.length === 1) out = chunks[0]!;
    else {
      out = new Uint8Array(this.length);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
    }
    this.clear();
    return out;
  }

  /** Everything held plus `tail`, as the list of views it is made of (no copy); empties the list. */
  takeParts(tail?: Uint8Array): Uint8Array[] {
    const chunks = this.chunks;
    if (tail && tail.length > 0) chunks.push(tail);
    this.clear();
    return chunks;
  }

  /** Drops everything held. */
  clear(): void {
    this.chunks = [];
    this.length = 0;
  }
}
