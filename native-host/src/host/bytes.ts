/**
 * Byte search tuned for the host's traffic: most messages are around 100 bytes, where the native `Buffer.indexOf`
 * costs more in call overhead than a JavaScript loop over the bytes; large messages still get memchr.
 */

/** Bytes searched by the JavaScript loop before handing over to the native search. */
const INLINE_SEARCH_BYTES = 256;

/** Index of the first `value` in `b[from, end)`, or -1. */
export function findByte(b: Uint8Array, value: number, from: number, end: number = b.length): number {
  const stop = Math.min(end, from + INLINE_SEARCH_BYTES);
  for (let i = from; i < stop; i++) if (b[i] === value) return i;
  if (stop >= end) return -1;
  const i = (b as Buffer).indexOf(value, stop);
  return i < 0 || i >= end ? -1 : i;
}
