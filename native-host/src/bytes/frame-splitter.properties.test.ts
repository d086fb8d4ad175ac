/**
 * Properties of the host's stdin reader: however the browser's bytes are cut into chunks, the same frames come out;
 * arbitrary bytes end in the fatal path at worst, never in an exception; what it holds stays under the frame limit.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { FrameReader } from './frame-reader';
import { cutAt } from '../testing/cut';

const RUNS = { numRuns: 500 };

/** What a reader delivered: each payload as hex, then the fatal error's name if any. */
type Outcome = string[];

/** Feeds `chunks` to a FrameReader with `max`; returns what it delivered and checks its bounds after each chunk. */
function read(chunks: Buffer[], max: number): Outcome {
  const out: Outcome = [];
  let dead = false;
  const reader = new FrameReader(
    {
      frame: (chunk, start, end) => {
        expect(dead).toBe(false);
        expect(end - start).toBeGreaterThan(0);
        expect(end - start).toBeLessThanOrEqual(max);
        out.push(chunk.toString('hex', start, end));
      },
      frameParts: (parts, length) => {
        expect(dead).toBe(false);
        const whole = Buffer.concat(parts);
        expect(whole.length).toBe(length);
        expect(length).toBeLessThanOrEqual(max);
        out.push(whole.toString('hex'));
      },
      fatal: (error) => {
        expect(dead).toBe(false);
        dead = true;
        out.push(`fatal:${error.name}`);
      },
    },
    max,
  );
  for (const chunk of chunks) {
    reader.push(chunk);
    expect(reader.buffered).toBeLessThanOrEqual(max + 4);
  }
  const end = reader.end();
  if (end) out.push(`end:${end.name}`);
  return out;
}

function framed(payloads: Uint8Array[]): Buffer {
  return Buffer.concat(
    payloads.flatMap((p) => {
      const header = Buffer.alloc(4);
      header.writeUInt32LE(p.length);
      return [header, Buffer.from(p)];
    }),
  );
}

const cuts = fc.array(fc.nat(), { maxLength: 20 });

describe('FrameReader', () => {
  test.prop([fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 10 }), cuts], RUNS)(
    'delivers the same frames however the stream is cut into chunks',
    (payloads, points) => {
      const bytes = framed(payloads);
      expect(read(cutAt(bytes, points), 300)).toEqual(payloads.map((p) => Buffer.from(p).toString('hex')));
    },
  );

  test.prop([fc.uint8Array({ maxLength: 2000 }), cuts, fc.integer({ min: 1, max: 64 })], { numRuns: 1000 })(
    'turns arbitrary bytes into the same frames, then at most one fatal error, whatever the cuts, never throwing',
    (raw, points, max) => {
      const bytes = Buffer.from(raw);
      const whole = read([bytes], max);
      expect(read(cutAt(bytes, points), max)).toEqual(whole);
      expect(whole.filter((o) => o.startsWith('fatal:') || o.startsWith('end:')).length).toBeLessThanOrEqual(1);
    },
  );

  test.prop([fc.array(fc.uint8Array({ minLength: 1, maxLength: 100 }), { minLength: 1, maxLength: 5 }), fc.nat(), cuts], RUNS)(
    'reports a stream that stops inside a frame at end(), after every whole frame before it',
    (payloads, at, points) => {
      const bytes = framed(payloads);
      const stop = 1 + (at % (bytes.length - 1 || 1));
      const out = read(cutAt(bytes.subarray(0, stop), points), 100);
      const boundaries = payloads.map((_, k) => framed(payloads.slice(0, k + 1)).length);
      const complete = boundaries.filter((b) => b <= stop).length;
      const tail = boundaries.includes(stop) ? [] : ['end:FrameError'];
      expect(out).toEqual([...payloads.slice(0, complete).map((p) => Buffer.from(p).toString('hex')), ...tail]);
    },
  );
});
