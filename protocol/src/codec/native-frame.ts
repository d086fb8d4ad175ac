import { FrameError, type MessageTooLargeError } from '../errors';
import { ByteChunks } from './byte-chunks';
import { encodeWithHeadroom } from './encode';
import { deliverJsonPayload, previewBytes, type DecodeSink } from './json-payload';
import { stringifyMessage } from './jsonl';
import { checkLimit, DEFAULT_MAX_FRAME_BYTES, tooLarge } from './limits';

const HEADER_BYTES = 4;

/** Options of FrameSplitter. */
export interface FrameSplitterOptions {
  /** Largest payload accepted, in bytes (default 64 MiB, what a browser may send). */
  maxFrameBytes?: number;
  /** Receives framing errors; without it, push()/end() throw the first one. */
  onError?: (error: FrameError | MessageTooLargeError) => void;
  /**
   * When set, a payload that spans several chunks comes here as the views it is made of, not copied into one array
   * (the passthrough path writes them as they are); payloads inside one chunk still go to onFrame. Order is kept.
   */
  onParts?: (parts: Uint8Array[], byteLength: number) => void;
}

/**
 * Splits a native-messaging byte stream (uint32 little-endian length + payload) into payloads without parsing them:
 * the host's passthrough path. A delivered payload may be a view into a pushed chunk: do not reuse chunk memory.
 * Errors: a zero-length frame gives a FrameError and decoding goes on; a length above `maxFrameBytes` is rejected
 * from its 4 header bytes, before anything is buffered, with a MessageTooLargeError, and then the stream cannot be
 * resynchronised: the splitter ignores the rest (see `failed`) and the owner should close the connection.
 * A stream that ends inside a frame gives a FrameError naming the missing bytes.
 */
export class FrameSplitter {
  private readonly maxFrameBytes: number;
  private readonly onError: ((error: FrameError | MessageTooLargeError) => void) | undefined;
  private readonly onParts: ((parts: Uint8Array[], byteLength: number) => void) | undefined;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerBytes = 0;
  /** Payload length of the frame being read; -1 between frames. */
  private expected = -1;
  private readonly body = new ByteChunks();
  private ended = false;
  private isFailed = false;

  constructor(
    private readonly onFrame: (payload: Uint8Array) => void,
    opts: FrameSplitterOptions = {},
  ) {
    this.maxFrameBytes = checkLimit('maxFrameBytes', opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.onError = opts.onError;
    this.onParts = opts.onParts;
  }

  /** True once an oversized length was seen: the stream is unrecoverable and further input is ignored. */
  get failed(): boolean {
    return this.isFailed;
  }

  /** Bytes held for an unfinished frame (header included); never more than maxFrameBytes + 4. */
  get bufferedBytes(): number {
    return this.headerBytes + this.body.length;
  }

  /** Feeds the next bytes of the stream; delivers every payload they complete. */
  push(chunk: Uint8Array): void {
    if (this.ended) throw new Error('FrameSplitter.push() was called after end(): create a new splitter per stream');
    let firstError: FrameError | MessageTooLargeError | undefined;
    const report = (error: FrameError | MessageTooLargeError): void => {
      if (this.onError) this.onError(error);
      else firstError ??= error;
    };
    const n = chunk.length;
    let at = 0;
    while (at < n && !this.isFailed) {
      if (this.expected < 0) {
        let length: number;
        if (this.headerBytes === 0 && n - at >= HEADER_BYTES) {
          length = readUint32LE(chunk, at);
          at += HEADER_BYTES;
          if (length > this.maxFrameBytes) this.header.set(chunk.subarray(at - HEADER_BYTES, at));
        } else {
          const take = Math.min(HEADER_BYTES - this.headerBytes, n - at);
          this.header.set(chunk.subarray(at, at + take), this.headerBytes);
          this.headerBytes += take;
          at += take;
          if (this.headerBytes < HEADER_BYTES) break;
          this.headerBytes = 0;
          length = readUint32LE(this.header, 0);
        }
        if (length > this.maxFrameBytes) {
          this.isFailed = true;
          report(this.oversized(length));
          break;
        }
        if (length === 0) {
          report(new FrameError('Zero-length native-messaging frame: every frame must carry a JSON message; it was skipped'));
          continue;
        }
        this.expected = length;
      }
      const need = this.expected - this.body.length;
      if (n - at < need) {
        this.body.add(at === 0 ? chunk : chunk.subarray(at));
        break;
      }
      const piece = chunk.subarray(at, at + need);
      at += need;
      const length = this.expected;
      this.expected = -1;
      if (this.body.length === 0) this.onFrame(piece);
      else if (this.onParts) this.onParts(this.body.takeParts(piece), length);
      else this.onFrame(this.body.take(piece));
    }
    if (firstError) throw firstError;
  }

  /** The stream ended: reports a frame cut short. Further push() calls throw. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.isFailed) return;
    let error: FrameError | undefined;
    if (this.headerBytes > 0) {
      error = new FrameError(
        `Stream ended inside a native-messaging frame header: got ${this.headerBytes} of ${HEADER_BYTES} length bytes (${HEADER_BYTES - this.headerBytes} missing)`,
      );
    } else if (this.expected >= 0) {
      const got = this.body.length;
      error = new FrameError(
        `Stream ended inside a native-messaging frame: got ${got} of ${this.expected} payload bytes (${this.expected - got} missing)`,
      );
    }
    this.body.clear();
    this.headerBytes = 0;
    this.expected = -1;
    if (!error) return;
    if (this.onError) this.onError(error);
    else throw error;
  }

  /** The error for an oversized length; `this.header` holds its 4 bytes. */
  private oversized(length: number): MessageTooLargeError {
    // A header that reads as text usually means the peer writes JSON lines to a native-messaging stream.
    const first = this.header[0];
    const hint =
      first === 0x7b || first === 0x5b
        ? ` The 4 length bytes read as text (${previewBytes(this.header)}): the peer seems to write JSON without a length prefix.`
        : '';
    return tooLarge(
      'native-messaging frame',
      length,
      this.maxFrameBytes,
      `rejected from its length header. The stream cannot be resynchronised: close the connection.${hint}`,
    );
  }
}

/** Options of NativeFrameDecoder. */
export interface NativeFrameDecoderOptions {
  /** Largest payload accepted, in bytes (default 64 MiB, what a browser may send). */
  maxFrameBytes?: number;
}

/**
 * Decodes native-messaging frames (uint32 LE length + UTF-8 JSON) from a byte stream split at any byte.
 * A frame holding a JSON array is a batch: its messages are delivered in order. Invalid UTF-8/JSON, an empty batch
 * and a zero-length frame give a FrameError and decoding goes on; an oversized length gives a MessageTooLargeError
 * and ends decoding for good (`failed`); a stream ending inside a frame gives a FrameError from end().
 */
export class NativeFrameDecoder {
  private readonly frames: FrameSplitter;

  constructor(sink: DecodeSink, opts: NativeFrameDecoderOptions = {}) {
    const what = 'Native-messaging frame';
    this.frames = new FrameSplitter((payload) => deliverJsonPayload(payload, what, sink), {
      ...(opts.maxFrameBytes === undefined ? {} : { maxFrameBytes: opts.maxFrameBytes }),
      onError: (error) => sink.error(error),
    });
  }

  /** True once an oversized frame made the stream unrecoverable. */
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
