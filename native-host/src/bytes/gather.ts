/**
 * Collects the bytes of one or more outgoing writes without copying large pieces: small pieces (headers, brackets,
 * short messages) are copied into a shared 64 KiB staging buffer, large ones are kept by reference. Touching fresh
 * memory costs about 13 microseconds per 4 KiB page here, so a staging buffer is reused until it is full and large
 * payloads are never copied at all.
 */

/** Pieces at most this long are copied into the staging buffer; longer ones are referenced. */
export const COPY_LIMIT = 16 * 1024;
const STAGE_BYTES = 64 * 1024;
const EMPTY = Buffer.alloc(0);

/** An output batch: append pieces, then `take()` the buffers to hand to one (vectored) write. */
export class Gather {
  private out: Buffer[] = [];
  private stage: Buffer = EMPTY;
  private start = 0;
  private used = 0;
  /** Bytes appended since the last take(). */
  bytes = 0;

  /** Appends `piece`, copying it when small, referencing it when large (the caller must not reuse its memory). */
  add(piece: Buffer): void {
    if (piece.length <= COPY_LIMIT) this.copy(piece);
    else {
      this.seal();
      this.out.push(piece);
      this.bytes += piece.length;
    }
  }

  /** Appends `buffer[start, end)`: copied when small (without creating a view), referenced when large. */
  addRange(buffer: Buffer, start: number, end: number): void {
    const n = end - start;
    if (n > COPY_LIMIT) {
      this.add(buffer.subarray(start, end));
      return;
    }
    if (n === 0) return;
    this.room(n);
    buffer.copy(this.stage, this.used, start, end);
    this.used += n;
    this.bytes += n;
  }

  /** Appends a copy of `piece`. */
  copy(piece: Uint8Array): void {
    const n = piece.length;
    if (n === 0) return;
    if (n > STAGE_BYTES) {
      this.seal();
      this.out.push(Buffer.from(piece));
      this.bytes += n;
      return;
    }
    this.room(n);
    this.stage.set(piece, this.used);
    this.used += n;
    this.bytes += n;
  }

  /** Appends one byte. */
  byte(value: number): void {
    this.room(1);
    this.stage[this.used++] = value;
    this.bytes += 1;
  }

  /** Appends a 32-bit little-endian unsigned integer (a native-messaging length prefix). */
  uint32le(value: number): void {
    this.room(4);
    this.stage.writeUInt32LE(value, this.used);
    this.used += 4;
    this.bytes += 4;
  }

  /** Returns everything appended as a list of buffers and starts a new batch. */
  take(): Buffer[] {
    this.seal();
    const out = this.out;
    this.out = [];
    this.bytes = 0;
    return out;
  }

  private room(n: number): void {
    if (this.used + n <= this.stage.length) return;
    this.seal();
    // A fresh staging buffer: the old one's bytes may still be queued in a stream, so it is never rewritten.
    this.stage = Buffer.allocUnsafe(STAGE_BYTES);
    this.start = 0;
    this.used = 0;
  }

  private seal(): void {
    if (this.used > this.start) {
      this.out.push(this.stage.subarray(this.start, this.used));
      this.start = this.used;
    }
  }
}

/** Writes `parts` as one vectored write; returns false when the stream asks the writer to wait for 'drain'. */
export function writeParts(stream: NodeJS.WritableStream, parts: readonly Buffer[]): boolean {
  if (parts.length === 1) return stream.write(parts[0]!);
  const writable = stream as NodeJS.WritableStream & { cork?: () => void; uncork?: () => void };
  writable.cork?.();
  let ok = true;
  for (const part of parts) ok = stream.write(part);
  writable.uncork?.();
  return ok;
}
