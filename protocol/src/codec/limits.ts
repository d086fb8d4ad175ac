import { MessageTooLargeError } from '../errors';

/** Largest payload Chromium accepts from a native host (host -> browser); a larger frame closes the port. */
export const BROWSER_MAX_FRAME_BYTES = 1_048_576;

/** Largest message the browser sends to a native host (browser -> host); `postMessage` throws above it. */
export const BROWSER_MAX_INBOUND_BYTES = 64 * 1024 * 1024;

/** Default longest JSONL line a decoder buffers before it gives up on that line (excluding the newline). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Default largest native-messaging frame a decoder accepts: what the browser may send. */
export const DEFAULT_MAX_FRAME_BYTES = BROWSER_MAX_INBOUND_BYTES;

/** A MessageTooLargeError whose message also says what happens next and what to do about it. */
export function tooLarge(what: string, size: number, limit: number, detail: string): MessageTooLargeError {
  const error = new MessageTooLargeError(size, limit, what);
  error.message = `${error.message}: ${detail}`;
  return error;
}

/** Checks a size option: a positive safe integer, else a RangeError naming the option. */
export function checkLimit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
