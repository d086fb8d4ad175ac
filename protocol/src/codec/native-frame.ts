import { FrameError, type MessageTooLargeError } from '../errors';
import { ByteChunks, view } from './byte-chunks';
import { encodeWithHeadroom } from './encode';
import { deliverJsonPayload, previewBytes, type DecodeSink } from './json-payload';
import { stringifyMessage } from './jsonl';
import { checkLimit, DEFAULT_MAX_FRAME_BYTES, tooLarge } from './limits';
import { type PayloadSink, wholePayloads } from './payload-sink';

const HEADER_BYTES = 4;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Options of FrameSplitter. */
export interface FrameSplitterOptions {
  /** Largest payload accepted, in bytes (default 64 MiB, what a browser may send). */
  maxFrameBytes?: number;
}

/**
 * Splits a native-messaging byte stream (uint32 little-endian length + payload) into payloads without parsing or
 * copying them: the host's passthrough path. A payload inside one chunk is delivered as that chunk and its offsets,
 * one spanning chunks as the views it is made of (see PayloadSink).
 * Errors: a length above `maxFrameBytes` is rejected from its 4 header bytes, before anything is buffered, with a
 * MessageTooLargeError; a zero length gives a FrameError. After either the stream cannot be resynchronised: the
 * splitter ignores the rest (see `failed`) and the owner should close the connection. A stream that ends inside a
 * frame gives a FrameError from end() naming the missing bytes.
 */
export class FrameSplitter<C extends Uint8Array = Uint8Array> {
  private readonly maxFrameBytes: number;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerBytes = 0;
  /** Payload length of the frame being read; -1 between frames. */
  private expected = -1;
  private readonly body = new ByteChunks<C>();
  private ended = false;
  private isFailed = false;

  constructor(
    private readonly sink: PayloadSink<C>,
    opts: FrameSplitterOptions = {},
  ) {
    this.maxFrameBytes = checkLimit('maxFrameBytes', opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
  }

  /** True once an oversized or zero length was seen: the stream is unrecoverable and further input is ignored. */
  get failed(): boolean {
    return this.isFailed;
  }

  /** Bytes held for an unfinished frame (header included); never more than maxFrameBytes + 4. */
  get bufferedBytes(): number {
    return this.headerBytes + this.body.length;
  }

  /** Feeds the next bytes of the stream (not modified afterwards: payloads are views into it); delivers every payload they complete. */
  push(chunk: C): void {
    if (this.ended) throw new Error('FrameSplitter.push() was called after end(): create a new splitter per stream');
    const n = chunk.length;
    let at = 0;
    while (at < n && !this.isFailed) {
      if (this.expected < 0) {
        let length: number;
        if (this.headerBytes === 0 && n - at >= HEADER_BYTES) {
          length = readUint32LE(chunk, at);
          at += HEADER_BYTES;
          if (length > this.maxFrameBytes || length === 0) this.header.set(chunk.subarray(at - HEADER_BYTES, at));
        } else {
          const take = Math.min(HEADER_BYTES - this.headerBytes, n - at);
          this.header.set(chunk.subarray(at, at + take), this.headerBytes);
          this.headerBytes += take;
          at += take;
          if (this.headerBytes < HEADER_BYTES) break;
          this.headerBytes = 0;
          length = readUint32LE(this.header, 0);
        }
        if (length > this.maxFrameBytes || length === 0) {
          this.isFailed = true;
          this.report(length === 0 ? zeroLength() : this.oversized(length));
          return;
        }
        this.expected = length;
      }
      const need = this.expected - this.body.length;
      if (n - at < need) {
        this.body.add(view(chunk, at, n));
        break;
      }
      const end = at + need;
      const length = this.expected;
      this.expected = -1;
      if (this.body.length === 0) this.sink.message(chunk, at, end);
      else this.sink.messageParts(this.body.takeParts(view(chunk, at, end)), length);
      at = end;
    }
  }

  /** The stream ended: reports a frame cut short. Further push() calls throw. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.isFailed) return;
    let error: FrameError | undefined;
    if (this.headerBytes > 0) {
      error = new FrameError(
        `Input ended in the middle of a native-messaging frame header: got ${this.headerBytes} of ${HEADER_BYTES} length bytes (${HEADER_BYTES - this.headerBytes} missing)`,
      );
    } else if (this.expected >= 0) {
      const got = this.body.length;
      error = new FrameError(
        `Input ended in the middle of a native-messaging frame: got ${got} of ${this.expected} payload bytes (${this.expected - got} missing)`,
      );
    }
    this.body.clear();
    this.headerBytes = 0;
    this.expected = -1;
    if (error) this.report(error);
  }

  private report(error: FrameError | MessageTooLargeError): void {
    if (this.sink.error) this.sink.error(error);
    else throw error;
  }

  /** The error for an oversized length; `this.header` holds its 4 bytes. */
  private oversized(length: number): MessageTooLargeError {
    return tooLarge(
      'Native-messaging frame',
      length,
      this.maxFrameBytes,
      `rejected from its 4 length bytes: the input is not a native-messaging stream (or a message is over the limit), and it cannot be resynchronised: close the connection.${textHint(this.header)}`,
    );
  }
}

/** The error for a zero length: no native-messaging writer sends an empty frame, so the stream is corrupt. */
function zeroLength(): FrameError {
  return new FrameError(
    'Zero-length native-messaging frame: every frame carries a JSON message, so the input is not a native-messaging stream (or lost its place in one), and it cannot be resynchronised: close the connection',
  );
}

/** Why 4 length bytes look wrong, when they read as text: usually a peer that writes text without length prefixes. */
function textHint(header: Uint8Array): string {
  const first = header[0];
  const json = first === OPEN_BRACE || first === OPEN_BRACKET;
  if (!json && !header.every((b) => b >= 0x20 && b <= 0x7e)) return '';
  const what = json ? 'JSON' : 'text';
  return ` The 4 length bytes read as text (${previewBytes(header)}): the peer seems to write ${what} without a length prefix.`;
}

/** Options of NativeFrameDecoder. */
export interface NativeFrameDecoderOptions {
  /** Largest payload accepted, in bytes (default 64 MiB, what a browser may send). */
  maxFrameBytes?: number;
}

/**
 * Decodes native-messaging frames (uint32 LE length + UTF-8 JSON) from a byte stream split at any byte.
 * A frame holding a JSON array is a batch: its messages are delivered in order. Invalid UTF-8/JSON and an empty batch
 * give a FrameError and decoding goes on; an oversized length (MessageTooLargeError) or a zero length (FrameError)
 * ends decoding for good (`failed`); a stream ending inside a frame gives a FrameError from end().
 */
export class NativeFrameDecoder {
  private readonly frames: FrameSplitter;

  constructor(sink: DecodeSink, opts: NativeFrameDecoderOptions = {}) {
    const what = 'Native-messaging frame';
    this.frames = new FrameSplitter(
      wholePayloads(
        (payload) => deliverJsonPayload(payload, what, sink),
        (error) => sink.error(error),
      ),
      opts.maxFrameBytes === undefined ? {} : { maxFrameBytes: opts.maxFrameBytes },
    );
  }

  /** True once an oversized or zero-length frame made the stream unrecoverable. */
  get failed(): boolean {
    return this.frames.failed;
  }

  /** Bytes held for an unfinished frame; never more than maxFrameBytes + 4. */
  get bufferedBytes(): number {
    return this.frames.bufferedBytes;
  }

  /** Feeds the next bytes of the stream. */
  push(chunk: Uint8Array): void {
    this.frames.push(chunk);
  }

  /** The stream ended: reports a truncated frame. */
  end(): void {
    this.frames.end();
  }
}

/** One message as a native-messaging frame: 4-byte little-endian length + UTF-8 JSON. May be a pool view. */
export function encodeNativeFrame(message: unknown): Uint8Array {
  return frameJson(stringifyMessage(message));
}

/** Frames JSON text that is already serialised (e.g. a `bridge/chunk` piece from splitIntoChunks). */
export function frameJson(json: string): Uint8Array {
  const out = encodeWithHeadroom(json, HEADER_BYTES);
  writeUint32LE(out, 0, out.length - HEADER_BYTES);
  return out;
}

/** The 4-byte little-endian length prefix of a payload of `length` bytes. */
export function frameHeader(length: number): Uint8Array {
  const header = new Uint8Array(HEADER_BYTES);
  writeUint32LE(header, 0, length);
  return header;
}

function readUint32LE(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

function writeUint32LE(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff;
  bytes[at + 1] = (value >>> 8) & 0xff;
  bytes[at + 2] = (value >>> 16) & 0xff;
  bytes[at + 3] = (value >>> 24) & 0xff;
}
