/**
 * Properties of the reader of a backend's stdout, the protocol's LineSplitter fed Buffers as a command backend feeds
 * it: however the bytes are cut into chunks, the same lines come out (without a trailing CR, blank ones skipped), an
 * over-long line is reported and skipped, and what it holds never passes the line limit.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { LineSplitter } from '@tether/protocol/codec';
import { MessageTooLargeError } from '@tether/protocol/errors';
import { describe, expect } from 'vitest';
import { cutAt } from '../testing/cut';

/** Feeds `chunks` to a LineSplitter with `max`, then end(); returns each line as hex, or `oversized`, in order. */
function read(chunks: Buffer[], max: number): string[] {
  const out: string[] = [];
  const lines = new LineSplitter<Buffer>(
    {
      message: (chunk, start, end) => {
        expect(chunk).toBeInstanceOf(Buffer);
        expect(end - start).toBeGreaterThan(0);
        out.push(chunk.toString('hex', start, end));
      },
      messageParts: (parts, length) => {
        for (const p of parts) expect(p).toBeInstanceOf(Buffer);
        const whole = Buffer.concat(parts);
        expect(whole.length).toBe(length);
        expect(length).toBeGreaterThan(0);
        out.push(whole.toString('hex'));
      },
      error: (error) => {
        expect(error).toBeInstanceOf(MessageTooLargeError);
        expect(error instanceof MessageTooLargeError && error.limit).toBe(max);
        expect(error.message.length).toBeLessThan(600);
        out.push('oversized');
      },
    },
    { maxLineBytes: max },
  );
  for (const chunk of chunks) {
    lines.push(chunk);
    expect(lines.bufferedBytes).toBeLessThanOrEqual(max);
  }
  lines.end();
  return out;
}

/** Only spaces, tabs and CRs. */
const blank = (line: Buffer): boolean => line.every((b) => b === 32 || b === 9 || b === 13);

/** What a splitter must deliver for `bytes`, from splitting it whole on newlines. */
function expected(bytes: Buffer, max: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const nl = bytes.indexOf(10, from);
    let line = bytes.subarray(from, nl < 0 ? bytes.length : nl);
    if (line.length > max) out.push('oversized');
    else {
      if (line.at(-1) === 13) line = line.subarray(0, -1);
      if (line.length > 0 && !blank(line)) out.push(line.toString('hex'));
    }
    if (nl < 0) return out;
    from = nl + 1;
  }
}

/** Bytes with many newlines, CRs and spaces: lines of every length around the limit, blank ones, CRLF endings. */
const stream = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(10, 13, 32) },
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    { maxLength: 1500 },
  )
  .map((a) => Buffer.from(a));

describe('LineSplitter on a backend stdout', () => {
  test.prop([stream, fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 1, max: 40 })], { numRuns: 1000 })(
    'delivers the lines of a whole split, skipping over-long and blank ones, however the bytes are cut into chunks',
    (bytes, points, max) => {
      expect(read(cutAt(bytes, points), max)).toEqual(expected(bytes, max));
    },
  );

  test.prop([fc.array(fc.json({ maxDepth: 3 }), { maxLength: 10 }), fc.array(fc.nat(), { maxLength: 20 })], {
    numRuns: 500,
  })('delivers each JSON text of a JSONL stream as one line, byte for byte', (texts, points) => {
    const bytes = Buffer.from(texts.map((t) => `${t}\n`).join(''), 'utf8');
    expect(read(cutAt(bytes, points), 1 << 20).map((h) => Buffer.from(h, 'hex').toString('utf8'))).toEqual(texts);
  });
});
