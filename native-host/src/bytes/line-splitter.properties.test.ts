/**
 * Properties of the reader of a backend's stdout: however the bytes are cut into chunks, the same lines come out, an
 * over-long line is reported and skipped, and what it holds never passes the line limit.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { LineReader } from './line-reader';
import { cutAt } from '../testing/cut';

/** Feeds `chunks` to a LineReader with `max`, then end(); returns each line as hex, or `oversized`, in order. */
function read(chunks: Buffer[], max: number): string[] {
  const out: string[] = [];
  const reader = new LineReader(
    {
      line: (chunk, start, end) => {
        expect(end - start).toBeGreaterThan(0);
        out.push(chunk.toString('hex', start, end));
      },
      lineParts: (parts, length) => {
        const whole = Buffer.concat(parts);
        expect(whole.length).toBe(length);
        expect(length).toBeGreaterThan(0);
        out.push(whole.toString('hex'));
      },
      oversized: (head, limit) => {
        expect(limit).toBe(max);
        expect(head.length).toBeLessThanOrEqual(200);
        out.push('oversized');
      },
    },
    max,
  );
  for (const chunk of chunks) {
    reader.push(chunk);
    expect(reader.buffered).toBeLessThanOrEqual(max);
  }
  reader.end();
  return out;
}

/** What a reader must deliver for `bytes`, from splitting it whole on newlines. */
function expected(bytes: Buffer, max: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const nl = bytes.indexOf(10, from);
    const line = bytes.subarray(from, nl < 0 ? bytes.length : nl);
    if (line.length > max) out.push('oversized');
    else if (line.length > 0) out.push(line.toString('hex'));
    if (nl < 0) return out;
    from = nl + 1;
  }
}

/** Bytes with many newlines: lines of every length around the limit. */
const stream = fc
  .array(fc.oneof({ weight: 1, arbitrary: fc.constant(10) }, { weight: 6, arbitrary: fc.integer({ min: 0, max: 255 }) }), { maxLength: 1500 })
  .map((a) => Buffer.from(a));

describe('LineReader', () => {
  test.prop([stream, fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 1, max: 40 })], { numRuns: 1000 })(
    'delivers the lines of a whole split, skipping over-long ones, however the bytes are cut into chunks',
    (bytes, points, max) => {
      expect(read(cutAt(bytes, points), max)).toEqual(expected(bytes, max));
    },
  );

  test.prop([fc.array(fc.json({ maxDepth: 3 }), { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 20 })], { numRuns: 500 })(
    'delivers each JSON text of a JSONL stream as one line, byte for byte',
    (texts, points) => {
      const bytes = Buffer.from(texts.map((t) => `${t}\n`).join(''), 'utf8');
      expect(read(cutAt(bytes, points), 1 << 20).map((h) => Buffer.from(h, 'hex').toString('utf8'))).toEqual(texts);
    },
  );
});
