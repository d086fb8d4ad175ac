const encoder = new TextEncoder();

/** Short texts are encoded into a shared pool: one TextEncoder.encode() per small message costs 3x more. */
const POOL_BYTES = 64 * 1024;
const POOLED_MAX_CHARS = 2048;
let pool = new Uint8Array(POOL_BYTES);
let poolUsed = 0;

/**
 * UTF-8 of `text` with `head` bytes reserved in front (left for the caller to fill) and an optional `tail` byte after
 * it, in one allocation. Small results are views into a shared pool, as Node's Buffer.from does: read them through
 * byteOffset/length and never transfer or detach their `buffer`.
 */
export function encodeWithHeadroom(text: string, head: number, tail?: number): Uint8Array {
  const extra = head + (tail === undefined ? 0 : 1);
  if (text.length <= POOLED_MAX_CHARS) {
    if (POOL_BYTES - poolUsed < text.length * 3 + extra) {
      // The old pool stays alive as long as views into it do.
      pool = new Uint8Array(POOL_BYTES);
      poolUsed = 0;
    }
    const start = poolUsed;
    const { written } = encoder.encodeInto(text, pool.subarray(start + head));
    let end = start + head + written;
    if (tail !== undefined) pool[end++] = tail;
    poolUsed = end;
    return pool.subarray(start, end);
  }
  // Most JSON is ASCII or close to it: encode straight into a buffer with 1/8 to spare (one allocation, no copy).
  // Text that needs more room continues into a larger buffer; only then is the encoded prefix copied.
  const room = text.length + (text.length >>> 3);
  let out = new Uint8Array(extra + room);
  let { read, written } = encoder.encodeInto(text, out.subarray(head, head + room));
  if (read < text.length) {
    const rest = text.slice(read);
    const bigger = new Uint8Array(extra + written + rest.length * 3);
    bigger.set(out.subarray(0, head + written));
    written += encoder.encodeInto(rest, bigger.subarray(head + written, bigger.length - (extra - head))).written;
    out = bigger;
  }
  if (tail !== undefined) out[head + written] = tail;
  return out.subarray(0, extra + written);
}
