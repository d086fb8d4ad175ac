/**
 * Properties of `bridge/chunk`: any text split with splitIntoChunks reassembles to itself, whatever the cut and however
 * the pieces of several messages interleave; pieces out of order, repeated or missing, and garbage params, give a
 * FrameError (or MessageTooLargeError), never a wrong text or another exception; what is held stays within its limits.
 *
 * A failure prints its seed and path. To replay it, pass them to the property that failed:
 * `test.prop([...], { seed: 123, path: '0:1', endOnFailure: true })`, or set `fc.configureGlobal({ seed: 123 })` at
 * the top of this file.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { FrameError, MessageTooLargeError } from '../errors';
import type { BridgeChunkNotification } from '../schema/bridge';
import { ChunkAssembler, splitIntoChunks } from './chunking';

const RUNS = { numRuns: 500 };

/** Any UTF-16 text: lone surrogates, control characters and characters that JSON escapes included. */
const text = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('"', '\\', '\n', '😀', 'é'),
  ),
  maxLength: 400,
});
const maxFrameBytes = fc.integer({ min: 90, max: 300 });

/** The pieces of `json` as an assembler receives them, or undefined when it fits in one frame and is sent whole. */
function piecesOf(json: string, max: number, id: string): BridgeChunkNotification[] | undefined {
  const texts = splitIntoChunks(json, { maxFrameBytes: max, id });
  if (texts.length === 1 && texts[0] === json) return undefined;
  return texts.map((t) => {
    expect(Buffer.byteLength(t, 'utf8')).toBeLessThanOrEqual(max);
    const message = JSON.parse(t) as { method: string; params: BridgeChunkNotification };
    expect(message.method).toBe('bridge/chunk');
    return message.params;
  });
}

/** Calls accept; returns its result, or the error it threw, which must be one of the two it documents. */
function accept(assembler: ChunkAssembler, params: unknown): string | undefined | Error {
  try {
    return assembler.accept(params as BridgeChunkNotification);
  } catch (error) {
    expect(error instanceof FrameError || error instanceof MessageTooLargeError, `unexpected ${String(error)}`).toBe(
      true,
    );
    return error as Error;
  }
}

describe('bridge/chunk split and reassembly', () => {
  test.prop(
    [fc.array(text, { minLength: 1, maxLength: 4 }), maxFrameBytes, fc.array(fc.nat(), { maxLength: 300 })],
    RUNS,
  )(
    'gives back every message, whatever the cuts and however the pieces of several messages interleave',
    (texts, max, picks) => {
      const chunked = texts.map((t, k) => piecesOf(t, max, `m${k}`));
      const queues = chunked.map((pieces) => [...(pieces ?? [])]);
      const assembler = new ChunkAssembler();
      const done = new Map<string, string>();
      let turn = 0;
      for (let live = queues.filter((q) => q.length > 0); live.length > 0; live = queues.filter((q) => q.length > 0)) {
        const piece = live[(picks[turn++] ?? 0) % live.length]!.shift()!;
        const whole = accept(assembler, piece);
        expect(whole).not.toBeInstanceOf(Error);
        if (typeof whole === 'string') done.set(piece.id, whole);
      }
      for (const [k, t] of texts.entries()) expect(done.get(`m${k}`)).toBe(chunked[k] ? t : undefined);
      expect(assembler.pendingCount).toBe(0);
      expect(assembler.pendingBytes).toBe(0);
    },
  );

  test.prop([text, maxFrameBytes, fc.nat(), fc.nat(), fc.constantFrom('move', 'drop', 'repeat')], RUNS)(
    'answers pieces out of order, missing or repeated with a FrameError, never a wrong text, and then reassembles the next message',
    (json, max, from, to, how) => {
      const pieces = piecesOf(json, max, 'm');
      if (!pieces || pieces.length < 2) return;
      const i = from % pieces.length;
      const j = to % pieces.length;
      const sent = [...pieces];
      if (how === 'drop') sent.splice(i, 1);
      else if (how === 'repeat') sent.splice(j, 0, pieces[i]!);
      else sent.splice(j, 0, ...sent.splice(i, 1));
      const assembler = new ChunkAssembler();
      const results = sent.map((p) => accept(assembler, p));
      const intact = sent.every((p, k) => p.index === k) && sent.length === pieces.length;
      for (const r of results) if (typeof r === 'string') expect(r).toBe(json);
      if (!intact)
        expect(results.some((r) => r instanceof FrameError) || results.every((r) => r === undefined)).toBe(true);
      const next = piecesOf(json, max, 'next')!;
      expect(next.map((p) => accept(assembler, p)).at(-1)).toBe(json);
    },
  );

  const garbage = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({
      id: fc.oneof(fc.constantFrom('a', 'b'), fc.jsonValue({ maxDepth: 1 })),
      index: fc.oneof(fc.integer({ min: -1, max: 4 }), fc.double(), fc.jsonValue({ maxDepth: 1 })),
      count: fc.oneof(
        fc.integer({ min: -1, max: 4 }),
        fc.constant(Number.MAX_SAFE_INTEGER),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      data: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
    }),
  );

  test.prop([fc.array(garbage, { maxLength: 40 })], { numRuns: 1000 })(
    'answers garbage params with FrameError or MessageTooLargeError only, within its limits',
    (params) => {
      const assembler = new ChunkAssembler({ maxPending: 2, maxTotalBytes: 40 });
      for (const p of params) {
        accept(assembler, p);
        expect(assembler.pendingCount).toBeLessThanOrEqual(2);
        expect(assembler.pendingBytes).toBeLessThanOrEqual(40);
      }
    },
  );

  it('answers params nested 100,000 deep with a FrameError, not a stack overflow', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => new ChunkAssembler().accept(deep as BridgeChunkNotification)).toThrow(FrameError);
  });
});
