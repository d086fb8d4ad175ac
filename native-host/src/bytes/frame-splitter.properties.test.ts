/**
 * Properties of the host's stdin reader, the protocol's FrameSplitter fed Buffers as `tether host` feeds it: however
 * the browser's bytes are cut into chunks, the same frames come out; arbitrary bytes end in one error at worst (a
 * fatal one, or a frame cut short at the end), never in an exception; what it holds stays under the frame limit.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { FrameSplitter } from '@tether/protocol/codec';
import { describe, expect } from 'vitest';
import { cutAt } from '../testing/cut';

const RUNS = { numRuns: 500 };

/** What a splitter delivered: each payload as hex, then `fatal:` or `end:` and the error's name if any. */
type Outcome = string[];

/** Feeds `chunks` to a FrameSplitter with `max`; returns what it delivered and checks its bounds after each chunk. */
function read(chunks: Buffer[], max: number): Outcome {
  const out: Outcome = [];
  let dead = false;
  let ending = false;
  const frames = new FrameSplitter<Buffer>(
    {
      message: (chunk, start, end) => {
        expect(dead).toBe(false);
        expect(chunk).toBeInstanceOf(Buffer);
        expect(end - start).toBeGreaterThan(0);
        expect(end - start).toBeLessThanOrEqual(max);
        out.push(chunk.toString('hex', start, end));
      },
      messageParts: (parts, length) => {
        expect(dead).toBe(false);
        for (const p of parts) expect(p).toBeInstanceOf(Buffer);
        const whole = Buffer.concat(parts);
        expect(whole.length).toBe(length);
        expect(length).toBeLessThanOrEqual(max);
        out.push(whole.toString('hex'));
      },
      error: (error) => {
        expect(dead).toBe(false);
        dead = true;
        expect(frames.failed).toBe(!ending);
        out.push(`${ending ? 'end' : 'fatal'}:${error.name}`);
      },
    },
    { maxFrameBytes: max },
  );
  for (const chunk of chunks) {
    frames.push(chunk);
    expect(frames.bufferedBytes).toBeLessThanOrEqual(max + 4);
  }
  ending = true;
  frames.end();
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

describe('FrameSplitter on the host stdin', () => {
  test.prop([fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 10 }), cuts], RUNS)(
    'delivers the same frames however the stream is cut into chunks',
    (payloads, points) => {
      const bytes = framed(payloads);
      expect(read(cutAt(bytes, points), 300)).toEqual(payloads.map((p) => Buffer.from(p).toString('hex')));
    },
  );

  test.prop([fc.uint8Array({ maxLength: 2000 }), cuts, fc.integer({ min: 1, max: 64 })], { numRuns: 1000 })(
    'turns arbitrary bytes into the same frames, then at most one error, whatever the cuts, never throwing',
    (raw, points, max) => {
      const bytes = Buffer.from(raw);
      const whole = read([bytes], max);
      expect(read(cutAt(bytes, points), max)).toEqual(whole);
      expect(whole.filter((o) => o.startsWith('fatal:') || o.startsWith('end:')).length).toBeLessThanOrEqual(1);
    },
  );

  test.prop(
    [fc.array(fc.uint8Array({ minLength: 1, maxLength: 100 }), { minLength: 1, maxLength: 5 }), fc.nat(), cuts],
    RUNS,
  )(
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

  test.prop(
    [
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 50 }), { maxLength: 5 }),
      fc.uint8Array({ maxLength: 50 }),
      cuts,
    ],
    RUNS,
  )('stops for good at a zero length, after every frame before it, whatever follows', (payloads, rest, points) => {
    const bytes = Buffer.concat([framed(payloads), Buffer.alloc(4), Buffer.from(rest)]);
    expect(read(cutAt(bytes, points), 100)).toEqual([
      ...payloads.map((p) => Buffer.from(p).toString('hex')),
      'fatal:FrameError',
    ]);
  });
});
