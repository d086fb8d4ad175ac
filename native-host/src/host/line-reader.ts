/**
 * Splits a backend's stdout into lines without parsing or copying them: a range of the input chunk when the line lies
 * in one, else the list of chunks it spans. JSON text never holds a raw newline, so one line is one message. A line over the limit is dropped
 * (reported once, with its first bytes) and reading resumes after its newline: a backend writing a runaway line
 * never makes the host buffer without bound.
 */
import { findByte } from './bytes';

/** What a LineReader delivers. */
export interface LineReaderSink {
  /** One line held in one chunk, without its newline: `chunk[start, end)` (no view is created: the hot path). */
  line(chunk: Buffer, start: number, end: number): void;
  /** One line spread over several chunks, as views of them; `length` is their total size. */
  lineParts(parts: Buffer[], length: number): void;
  /** A line passed `maxLineBytes`: it is skipped up to its newline; `head` is its first bytes. */
  oversized(head: Buffer, limit: number): void;
}

/** Incremental newline splitter over Buffers. */
export class LineReader {
  private parts: Buffer[] = [];
  private length = 0;
  private skipping = false;

  constructor(
    private readonly sink: LineReaderSink,
    private readonly maxLineBytes: number,
  ) {}

  /** Bytes of an unfinished line held right now (never more than `maxLineBytes`). */
  get buffered(): number {
    return this.length;
  }

  /** Feeds the next chunk. The chunk must not be modified afterwards (lines are views into it). */
  push(chunk: Buffer): void {
    let at = 0;
    const n = chunk.length;
    while (at < n) {
      const nl = findByte(chunk, 10, at);
      const end = nl < 0 ? n : nl;
      if (!this.skipping) {
        const size = end - at;
        if (this.length + size > this.maxLineBytes) {
          const head = this.parts.length > 0 ? this.parts[0]! : chunk.subarray(at, end);
          this.sink.oversized(head.subarray(0, 200), this.maxLineBytes);
          this.parts = [];
          this.length = 0;
          this.skipping = true;
        } else if (nl >= 0 && this.parts.length === 0) {
          if (size > 0) this.sink.line(chunk, at, nl);
        } else if (size > 0) {
          this.parts.push(chunk.subarray(at, end));
          this.length += size;
        }
      }
      if (nl < 0) return;
      if (!this.skipping && this.parts.length > 0) this.flush();
      this.skipping = false;
      at = nl + 1;
    }
  }

  /** Call at end of input: delivers a last line that had no newline. */
  end(): void {
    if (!this.skipping && this.parts.length > 0) this.flush();
    this.parts = [];
    this.length = 0;
    this.skipping = false;
  }

  private flush(): void {
    const parts = this.parts;
    const length = this.length;
    this.parts = [];
    this.length = 0;
    this.sink.lineParts(parts, length);
  }
}
