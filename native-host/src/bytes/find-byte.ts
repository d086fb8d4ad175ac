/**
 * Byte search tuned for the envelope scanner, which looks for the next quote, colon or comma a few bytes ahead: over
 * such short distances the native search (`Buffer#indexOf`, memchr) costs more in call overhead than a JavaScript loop
 * over the bytes, while long strings still get the native search. (Finding the newline that ends a 150-byte line is
 * the other way round: the loop took 36 ms for 200,000 lines where `indexOf` took 4, so LineSplitter calls indexOf.)
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
