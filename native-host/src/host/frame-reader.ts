/**
 * Splits the browser's stdin into native-messaging frames (4-byte little-endian length, then that many bytes) and
 * hands each payload over without copying or parsing it: as a range of the input chunk when it lies in one, else as
 * the list of chunks it spans. Keeping a list of pieces (instead of concatenating on every read) is what keeps a
 * 64 MiB message linear: the quadratic way took over 30 s.
 */
import { FrameError, MessageTooLargeError } from '@tether/protocol/errors';

/** What a FrameReader delivers. */
export interface FrameReaderSink {
  /** One payload held in one chunk: `chunk[start, end)` (no view is created: the hot path). */
  frame(chunk: Buffer, start: number, end: number): void;
  /** One payload spread over several chunks, as views of them (in order); `length` is their total size. */
  frameParts(parts: Buffer[], length: number): void;
  /** The stream cannot be read any further (oversized or zero length); nothing else will be delivered. */
  fatal(error: FrameError | MessageTooLargeError): void;
}

/** Incremental native-messaging frame splitter over Buffers. */
export class FrameReader {
  private readonly header = Buffer.alloc(4);
  private headerBytes = 0;
  /** Payload bytes still missing for the current frame; -1 while reading a header. */
  private remaining = -1;
  private expected = 0;
  private parts: Buffer[] = [];
  private dead = false;

  constructor(
    private readonly sink: FrameReaderSink,
    private readonly maxFrameBytes: number,
  ) {}

  /** True once a fatal error was reported. */
  get failed(): boolean {
    return this.dead;
  }

  /** Bytes of an unfinished frame held right now (header included). */
  get buffered(): number {
    return this.headerBytes + (this.remaining < 0 ? 0 : this.expected - this.remaining);
  }

  /** Feeds the next chunk of stdin. The chunk must not be modified afterwards (payloads are views into it). */
  push(chunk: Buffer): void {
    const n = chunk.length;
    let at = 0;
    while (at < n && !this.dead) {
      if (this.remaining < 0) {
        let length: number;
        if (this.headerBytes === 0 && n - at >= 4) {
          length = chunk.readUInt32LE(at);
          at += 4;
        } else {
          const take = Math.min(4 - this.headerBytes, n - at);
          chunk.copy(this.header, this.headerBytes, at, at + take);
          this.headerBytes += take;
          at += take;
          if (this.headerBytes < 4) return;
          this.headerBytes = 0;
          length = this.header.readUInt32LE(0);
        }
        if (length > this.maxFrameBytes || length === 0) {
          this.dead = true;
          this.sink.fatal(
            length === 0
              ? new FrameError('Received a native-messaging frame of length 0: the input is not a native-messaging stream')
              : tooLarge(length, this.maxFrameBytes),
          );
          return;
        }
        this.expected = length;
        this.remaining = length;
      }
      const take = Math.min(this.remaining, n - at);
      if (take === this.expected) {
        // The whole payload is inside this chunk (the common case for small messages): no view, no list.
        at += take;
        this.remaining = -1;
        this.sink.frame(chunk, at - take, at);
        continue;
      }
      this.parts.push(take === n && at === 0 ? chunk : chunk.subarray(at, at + take));
      at += take;
      this.remaining -= take;
      if (this.remaining === 0) {
        const parts = this.parts;
        this.parts = [];
        this.remaining = -1;
        this.sink.frameParts(parts, this.expected);
      }
    }
  }

  /** Call at end of input; returns an error when the input stopped in the middle of a frame. */
  end(): FrameError | undefined {
    if (this.dead || (this.remaining < 0 && this.headerBytes === 0)) return undefined;
    const got = this.remaining < 0 ? `${this.headerBytes} of 4 header bytes` : `${this.expected - this.remaining} of ${this.expected} bytes`;
    this.parts = [];
    return new FrameError(`Input ended in the middle of a native-messaging frame (${got})`);
  }
}

function tooLarge(length: number, limit: number): MessageTooLargeError {
  const error = new MessageTooLargeError(length, limit, 'Native-messaging frame');
  const ascii = Buffer.alloc(4);
  ascii.writeUInt32LE(length);
  const printable = /^[\x20-\x7e]{4}$/.test(ascii.toString('latin1')) ? ` (the length bytes read as text: "${ascii.toString('latin1')}")` : '';
  error.message +=
    `${printable}: the input is not a native-messaging stream or a browser message is over the 64 MiB limit. ` +
    'The host starts only from a browser (or a test) that writes 4-byte length-prefixed JSON';
  return error;
}
