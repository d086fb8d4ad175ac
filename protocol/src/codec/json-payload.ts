import { FrameError, type MessageTooLargeError } from '../errors';
import { decodeUtf8 } from './utf8';
import { errorMessage } from '../errors';

/** What a decoder hands its consumer: whole messages, or errors it recovered from (or that ended the stream). */
export interface DecodeSink {
  /** One decoded JSON value; a batch (JSON array) arrives as its messages, in order. */
  message(value: unknown): void;
  /** Input that could not be decoded (see each decoder for whether decoding goes on after it). */
  error(error: FrameError | MessageTooLargeError): void;
}

const lossy = new TextDecoder('utf-8');
const PREVIEW_CHARS = 60;

/**
 * Decodes one whole line or frame (UTF-8 JSON) and delivers it; a JSON array is a batch whose messages are
 * delivered in order. Decoding whole payloads (never bare chunks) is what makes a split multi-byte character safe.
 */
export function deliverJsonPayload(bytes: Uint8Array, what: string, sink: DecodeSink): void {
  let value: unknown;
  try {
    value = parseJsonPayload(bytes, what);
  } catch (error) {
    sink.error(error instanceof FrameError ? error : new FrameError(String(error), { cause: error }));
    return;
  }
  if (!Array.isArray(value)) {
    sink.message(value);
    return;
  }
  if (value.length === 0) {
    sink.error(new FrameError(`${what} holds an empty batch ([]): a batch must carry at least one message`));
    return;
  }
  for (const m of value) sink.message(m);
}

/**
 * The JSON value of one whole payload, decoded as strict UTF-8 (as every Tether peer reads it, so that a message
 * with invalid UTF-8 is refused the same way everywhere); throws FrameError naming `what` and which step failed.
 */
export function parseJsonPayload(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (cause) {
    throw invalidUtf8(what, bytes.length, cause);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const reason = errorMessage(cause);
    throw new FrameError(`${what} is not valid JSON (${reason}); it starts with ${preview(text)}`, { cause });
  }
}

function invalidUtf8(what: string, byteLength: number, cause: unknown): FrameError {
  return new FrameError(`${what} of ${byteLength} bytes is not valid UTF-8: the peer must write UTF-8 JSON`, { cause });
}

/** The start of `bytes` as text, for error messages about input that is not what it should be. */
export function previewBytes(bytes: Uint8Array): string {
  return preview(lossy.decode(bytes.subarray(0, PREVIEW_CHARS * 4)));
}

function preview(text: string): string {
  return JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}...` : text);
}
