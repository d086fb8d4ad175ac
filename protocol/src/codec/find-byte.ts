/**
 * Byte search tuned for the host's traffic: most messages are around 100 bytes, where the native search
 * (`Buffer#indexOf`, memchr) costs more in call overhead than a JavaScript loop over the bytes; large messages still
 * get the native search.
 */

/** Bytes searched by the JavaScript loop before handing over to the native search. */
const INLINE_SEARCH_BYTES = 256;

/** Index of the first `value` in `bytes[from, end)`, or -1. */
export function findByte(bytes: Uint8Array, value: number, from: number, end: number = bytes.length): number {
  const stop = Math.min(end, from + INLINE_SEARCH_BYTES);
  for (let i = from; i < stop; i++) if (bytes[i] === value) return i;
  if (stop >= end) return -1;
  // On a Node Buffer this is Buffer#indexOf (memchr); on a plain Uint8Array, the typed-array search.
  const i = bytes.indexOf(value, stop);
  return i < 0 || i >= end ? -1 : i;
}
