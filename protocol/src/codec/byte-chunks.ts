/**
 * Pending pieces of one message, kept as views of the chunks they came in and handed over as that list: appending
 * to one growing buffer per chunk is quadratic (a 63 MiB message took over 30 s that way).
 */
export class ByteChunks<C extends Uint8Array = Uint8Array> {
  private chunks: C[] = [];
  /** Bytes held. */
  length = 0;

  /** Keeps `chunk` by reference (no copy): the caller must not reuse that memory. */
  add(chunk: C): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first piece held, if any (for error messages that quote the start of a message). */
  first(): C | undefined {
    return this.chunks[0];
  }

  /** Everything held plus `tail`, as the list of views it is made of (no copy); empties the list. */
  takeParts(tail?: C): C[] {
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

/**
 * `chunk[start, end)` as a view of the same class as `chunk` (a Node Buffer stays a Buffer), or `chunk` itself when
 * the range is all of it.
 */
export function view<C extends Uint8Array>(chunk: C, start: number, end: number): C {
  if (start === 0 && end === chunk.length) return chunk;
  // subarray() builds its result with the array's species constructor, so it has the class of `chunk`; TypeScript
  // types it as the base Uint8Array only.
  return chunk.subarray(start, end) as C;
}

/** `parts` (of `length` bytes in all) as one array; copies only when there are several. */
export function concatParts(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
