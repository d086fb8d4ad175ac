import type { FrameError, MessageTooLargeError } from '../errors';
import { ByteChunks } from './byte-chunks';
import { encodeWithHeadroom } from './encode';
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
  /**
   * When set, a line that spans several chunks comes here as the views it is made of, not copied into one array
   * (the passthrough path writes them as they are); lines inside one chunk still go to onLine. Order is kept.
   */
  onParts?: (parts: Uint8Array[], byteLength: number) => void;
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
  private readonly onParts: ((parts: Uint8Array[], byteLength: number) => void) | undefined;
  /** Inside an over-long line: bytes are dropped up to the next newline. */
  private skipping = false;
  private ended = false;

  constructor(
    private readonly onLine: (line: Uint8Array) => void,
    opts: LineSplitterOptions = {},
  ) {
    this.maxLineBytes = checkLimit('maxLineBytes', opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.onError = opts.onError;
    this.onParts = opts.onParts;
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
      if (this.pending.length === 0) this.emit(piece);
      else this.emitPending(piece);
      start = nl + 1;
    }
    if (firstError) throw firstError;
  }

  /** The stream ended: delivers a last line that had no newline. Further push() calls throw. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.skipping && this.pending.length > 0) this.emitPending();
    this.pending.clear();
  }

  /** Delivers the pending pieces plus `tail` as one line. */
  private emitPending(tail?: Uint8Array): void {
    if (!this.onParts) {
      this.emit(this.pending.take(tail));
      return;
    }
    const parts = this.pending.takeParts(tail);
    let length = 0;
    for (const p of parts) length += p.length;
    const last = parts[parts.length - 1]!;
    if (last[last.length - 1] === CR) {
      length--;
      if (last.length === 1) parts.pop();
      else parts[parts.length - 1] = last.subarray(0, last.length - 1);
    }
    if (length === 0 || parts.every(isBlank)) return;
    if (parts.length === 1) this.onLine(parts[0]!);
    else this.onParts(parts, length);
  }

  private emit(line: Uint8Array): void {
    let len = line.length;
    if (len > 0 && line[len - 1] === CR) len--;
    if (len === 0) return;
    const trimmed = len === line.length ? line : line.subarray(0, len);
    if (isBlank(trimmed)) return;
    this.onLine(trimmed);
  }
}

/** Only spaces, tabs and CRs (JSON text never starts with one, so most lines are decided by their first byte). */
function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return true;
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

/** One message as a JSONL line: JSON text (which never holds a raw newline) + "\n", UTF-8. May be a pool view. */
export function encodeJsonl(message: unknown): Uint8Array {
  return encodeWithHeadroom(stringifyMessage(message), 0, NEWLINE);
}

/** JSON.stringify that refuses values with no JSON form (undefined, functions, symbols) instead of writing nothing. */
export function stringifyMessage(message: unknown): string {
  const json = JSON.stringify(message) as string | undefined;
  if (json === undefined) throw new TypeError(`Cannot encode ${typeof message} as a JSON message`);
  return json;
}
