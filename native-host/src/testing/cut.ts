/** Test helper for the readers of untrusted bytes: one input cut into the chunks a stream might deliver. */

/** `bytes` cut into consecutive chunks at `points` (each taken modulo the length + 1; empty chunks included). */
export function cutAt(bytes: Buffer, points: readonly number[]): Buffer[] {
  const cuts = points.map((p) => p % (bytes.length + 1)).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const c of cuts) {
    chunks.push(bytes.subarray(from, c));
    from = c;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}
