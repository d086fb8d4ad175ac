import type { FrameError, MessageTooLargeError } from '../errors';
import { concatParts } from './byte-chunks';

/**
 * Where a splitter (FrameSplitter, LineSplitter) delivers the payloads it cuts out of a byte stream, without copying
 * them. `C` is the class of the pushed chunks (a Node Buffer stays a Buffer); delivered bytes are views into pushed
 * chunks, so their memory must not be reused.
 */
export interface PayloadSink<C extends Uint8Array = Uint8Array> {
  /** One payload lying in one pushed chunk: `chunk[start, end)` (no view is created: the hot path). */
  message(chunk: C, start: number, end: number): void;
  /** One payload spread over several pushed chunks, as views of them in order; `length` is their total size. */
  messageParts(parts: C[], length: number): void;
  /** A framing error (each splitter says which ones end the stream); without it, push() and end() throw the first. */
  error?(error: FrameError | MessageTooLargeError): void;
}

/** A PayloadSink for consumers that want each payload as one array: parts are concatenated once, ranges become views. */
export function wholePayloads(
  onPayload: (payload: Uint8Array) => void,
  onError?: (error: FrameError | MessageTooLargeError) => void,
): PayloadSink {
  return {
    message: (chunk, start, end) => onPayload(chunk.subarray(start, end)),
    messageParts: (parts, length) => onPayload(concatParts(parts, length)),
    ...(onError ? { error: onError } : {}),
  };
}
