import type { FrameError, MessageTooLargeError } from '../errors';
import { ByteChunks } from './byte-chunks';
import { deliverJsonPayload, type DecodeSink } from './json-payload';
import { checkLimit, DEFAULT_MAX_LINE_BYTES, tooLarge } from './limits';

const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** Options of LineSplitter. */
export interface LineSplitterOptions {
  /** Longest line kept, in bytes without the newline (default 64 MiB); a longer one is reported and skipped. */
  maxLineBytes?: number;
  /** Receives MessageTooLargeError for over-long lines; without it, push() throws the first such error. */
  onError?: (error: FrameError | MessageTooLargeError) => void;
}

/**
 * Splits a byte stream into lines without parsing them: the host's passthrough path.
 * Lines come without "\n" and a trailing "\r"; blank and whitespace-only lines are skipped; a last line without a
 * newline is delivered by end(). A delivered line may be a view into a pushed chunk: do not reuse chunk memory.
 * An over-long line is reported once, then skipped up to the next newline, so memory stays bounded.
 */
export class LineSplitter {
  private readonly pending = new ByteChunks();
  private readonly maxLineBytes: number;
  private readonly onError: ((error: FrameError | MessageTooLargeError) => void) | undefined;
  /** Inside an over-long line: bytes are dropped up to the next newline. */
  private skipping = false;
  private ended = false;

  constructor(
    private readonly onLine: (line: Uint8Array) => void,
    opts: LineSplitterOptions = {},
  ) {
    this.maxLineBytes = checkLimit('maxLineBytes', opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.onError = opts.onError;
  }

  /** Bytes held for an unfinished line; never more than maxLineBytes. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  /** Feeds the next bytes of the stream; delivers every line they complete. */
  push(chunk: Uint8Array): void {
    if (this.ended) throw new Error('LineSplitter.push() was called after end(): create a new splitter per stream');
    let firstError: FrameError | MessageTooLargeError | undefined;
    const report = (error: FrameError | MessageTooLargeError): void => {
      if (this.onError) this.onError(error);
      else firstError ??= error;
    };
    const n = chunk.length;
    let start = 0;
    while (start < n) {
      // On a Node Buffer this is Buffer#indexOf (memchr); on a plain Uint8Array, the typed-array search.
      const nl = chunk.indexOf(NEWLINE, start);
      const stop = nl === -1 ? n : nl;
      if (this.skipping) {
        if (nl === -1) break;
        this.skipping = false;
        start = nl + 1;
        continue;
      }
      const size = this.pending.length + (stop - start);
      if (size > this.maxLineBytes) {
        this.pending.clear();
        if (nl === -1) {
          this.skipping = true;
          report(
            tooLarge('JSONL line', size, this.maxLineBytes, 'no newline yet, so it is at least that long; it is skipped up to the next newline. The peer must write smaller messages, or raise maxLineBytes'),
          );
          break;
        }
        report(tooLarge('JSONL line', size, this.maxLineBytes, 'it was skipped. The peer must write smaller messages, or raise maxLineBytes'));
        start = nl + 1;
        continue;
      }
      if (nl === -1) {
        this.pending.add(start === 0 ? chunk : chunk.subarray(start));
        break;
      }
      const piece = chunk.subarray(start, nl);
      this.emit(this.pending.length > 0 ? this.pending.take(piece) : piece);
      start = nl + 1;
    }
    if (firstError) throw firstError;
  }

  /** The stream ended: delivers a last line that had no newline. Further push() calls throw. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.skipping && this.pending.length > 0) this.emit(this.pending.take());
    this.pending.clear();
  }

  private emit(line: Uint8Array): void {
    let len = line.length;
    if (len > 0 && line[len - 1] === CR) len--;
    if (len === 0) return;
    const first = line[0]!;
    if (first === SPACE || first === TAB || first === CR) {
      let i = 1;
      while (i < len && (line[i] === SPACE || line[i] === TAB || line[i] === CR)) i++;
      if (i === len) return;
    }
    this.onLine(len === line.length ? line : line.subarray(0, len));
  }
}

/** Options of JsonlDecoder. */
export interface JsonlDecoderOptions {
  /** Longest line accepted, in bytes without the newline (default 64 MiB). */
  maxLineBytes?: number;
}

/**
 * Decodes JSONL (one JSON value a line) from a byte stream split at any byte. Errors never stop it:
 * invalid UTF-8 or JSON gives a FrameError for that line, an over-long line a MessageTooLargeError, and decoding
 * resumes at the next line. A line holding a JSON array is a batch: its messages are delivered in order.
 */
export class JsonlDecoder {
  private readonly lines: LineSplitter;

  constructor(sink: DecodeSink, opts: JsonlDecoderOptions = {}) {
    this.lines = new LineSplitter((line) => deliverJsonPayload(line, 'JSONL line', sink), {
      ...(opts.maxLineBytes === undefined ? {} : { maxLineBytes: opts.maxLineBytes }),
      onError: (error) => sink.error(error),
    });
  }

  /** Bytes held for an unfinished line; never more than maxLineBytes. */
  get bufferedBytes(): number {
    return this.lines.bufferedBytes;
  }

  /** Feeds the next bytes of the stream. */
  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  /** The stream ended: decodes a last line that had no newline. */
  end(): void {
    this.lines.end();
  }
}

const encoder = new TextEncoder();

/** One message as a JSONL line: JSON text (which never holds a raw newline) + "\n", UTF-8. */
export function encodeJsonl(message: unknown): Uint8Array {
  return encoder.encode(`${stringifyMessage(message)}\n`);
}

/** JSON.stringify that refuses values with no JSON form (undefined, functions, symbols) instead of writing nothing. */
export function stringifyMessage(message: unknown): string {
  const json = JSON.stringify(message) as string | undefined;
  if (json === undefined) throw new TypeError(`Cannot encode ${typeof message} as a JSON message`);
  return json;
}
