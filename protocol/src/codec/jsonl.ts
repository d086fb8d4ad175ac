import type { MessageTooLargeError } from '../errors';
import { ByteChunks, view } from './byte-chunks';
import { encodeWithHeadroom } from './encode';
import { deliverJsonPayload, previewBytes, type DecodeSink } from './json-payload';
import { checkLimit, DEFAULT_MAX_LINE_BYTES, tooLarge } from './limits';
import { type PayloadSink, wholePayloads } from './payload-sink';

const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** Options of LineSplitter. */
export interface LineSplitterOptions {
  /** Longest line kept, in bytes without the newline (default 64 MiB); a longer one is reported and skipped. */
  maxLineBytes?: number;
}

/**
 * Splits a byte stream into lines without parsing or copying them: the host's passthrough path. A line inside one
 * chunk is delivered as that chunk and its offsets, one spanning chunks as the views it is made of (see PayloadSink).
 * Lines come without "\n" and a trailing "\r"; blank and whitespace-only lines are skipped; a last line without a
 * newline is delivered by end(). An over-long line is reported once (a MessageTooLargeError quoting its start), then
 * skipped up to the next newline, so memory stays bounded; splitting goes on after it.
 */
export class LineSplitter<C extends Uint8Array = Uint8Array> {
  private readonly pending = new ByteChunks<C>();
  private readonly maxLineBytes: number;
  /** Inside an over-long line: bytes are dropped up to the next newline. */
  private skipping = false;
  private ended = false;

  constructor(
    private readonly sink: PayloadSink<C>,
    opts: LineSplitterOptions = {},
  ) {
    this.maxLineBytes = checkLimit('maxLineBytes', opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  }

  /** Bytes held for an unfinished line; never more than maxLineBytes. */
  get bufferedBytes(): number {
    return this.pending.length;
  }

  /** Feeds the next bytes of the stream (not modified afterwards: lines are views into it); delivers every line they complete. */
  push(chunk: C): void {
    if (this.ended) throw new Error('LineSplitter.push() was called after end(): create a new splitter per stream');
    let firstError: MessageTooLargeError | undefined;
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
        const head = previewBytes(this.pending.first() ?? chunk.subarray(start, stop));
        this.pending.clear();
        const error =
          nl === -1
            ? tooLarge(
                'JSONL line',
                size,
                this.maxLineBytes,
                `no newline yet, so it is at least that long; it is skipped up to the next newline. The peer must write smaller messages, or raise maxLineBytes. It began ${head}`,
              )
            : tooLarge(
                'JSONL line',
                size,
                this.maxLineBytes,
                `it was skipped. The peer must write smaller messages, or raise maxLineBytes. It began ${head}`,
              );
        if (this.sink.error) this.sink.error(error);
        else firstError ??= error;
        if (nl === -1) {
          this.skipping = true;
          break;
        }
        start = nl + 1;
        continue;
      }
      if (nl === -1) {
        this.pending.add(view(chunk, start, n));
        break;
      }
      if (this.pending.length === 0) this.emit(chunk, start, nl);
      else this.emitPending(nl > start ? view(chunk, start, nl) : undefined);
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
  private emitPending(tail?: C): void {
    const parts = this.pending.takeParts(tail);
    let length = 0;
    for (const p of parts) length += p.length;
    const last = parts[parts.length - 1]!;
    if (last[last.length - 1] === CR) {
      length--;
      if (last.length === 1) parts.pop();
      else parts[parts.length - 1] = view(last, 0, last.length - 1);
    }
    if (length === 0 || parts.every((p) => isBlank(p, 0, p.length))) return;
    if (parts.length === 1) this.sink.message(parts[0]!, 0, length);
    else this.sink.messageParts(parts, length);
  }

  /** Delivers `chunk[start, end)` as one line, without a trailing CR, unless it is blank. */
  private emit(chunk: C, start: number, end: number): void {
    if (end > start && chunk[end - 1] === CR) end--;
    if (end === start || isBlank(chunk, start, end)) return;
    this.sink.message(chunk, start, end);
  }
}

/** Only spaces, tabs and CRs (JSON text never starts with one, so most lines are decided by their first byte). */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
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
    this.lines = new LineSplitter(
      wholePayloads(
        (line) => deliverJsonPayload(line, 'JSONL line', sink),
        (error) => sink.error(error),
      ),
      opts.maxLineBytes === undefined ? {} : { maxLineBytes: opts.maxLineBytes },
    );
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
