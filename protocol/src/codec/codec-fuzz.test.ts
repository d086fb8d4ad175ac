// Seeded, reproducible fuzzing of the codecs: random messages, random chunk boundaries, random corruption and
// random bytes. A failure prints its seed; rerun with that seed to reproduce it.
import { describe, expect, it } from 'vitest';
import { FrameError, MessageTooLargeError } from '../errors';
import type { BridgeChunkNotification } from '../schema/bridge';
import { ChunkAssembler, splitIntoChunks } from './chunking';
import { encodeJsonl, JsonlDecoder, LineSplitter } from './jsonl';
import { encodeNativeFrame, FrameSplitter, frameHeader, NativeFrameDecoder } from './native-frame';
import type { PayloadSink } from './payload-sink';
import { concatBytes } from '../test-support';

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Random {
  readonly next: () => number;
  constructor(readonly seed: number) {
    this.next = mulberry32(seed);
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** A string mixing ASCII, characters JSON must escape, 2- and 3-byte UTF-8, emoji and (unless wellFormed) lone surrogates. */
  string(maxLength: number, wellFormed = false): string {
    let s = '';
    const n = this.int(maxLength + 1);
    for (let i = 0; i < n; i++) {
      const kind = this.int(10);
      if (kind < 4) s += String.fromCharCode(0x20 + this.int(0x5f));
      else if (kind === 4) s += this.pick(['"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u2028']);
      else if (kind === 5) s += String.fromCharCode(0x80 + this.int(0x780));
      else if (kind === 6) s += String.fromCharCode(0x800 + this.int(0xd000));
      else if (kind === 7) s += String.fromCodePoint(0x10000 + this.int(0xfffff));
      else if (kind === 8 && !wellFormed) s += String.fromCharCode(0xd800 + this.int(0x800));
      else s += 'abc';
    }
    return s;
  }
  /** A JSON value; lone surrogates excluded because UTF-8 cannot carry them. */
  value(depth: number): unknown {
    const kind = this.int(depth > 0 ? 7 : 5);
    if (kind === 0) return null;
    if (kind === 1) return this.next() < 0.5;
    if (kind === 2) return this.int(2_000_000) - 1_000_000;
    if (kind === 3) return this.int(1000) / 8;
    if (kind === 4) return this.string(30, true);
    if (kind === 5) return Array.from({ length: this.int(4) }, () => this.value(depth - 1));
    const o: Record<string, unknown> = {};
    for (let i = this.int(4); i > 0; i--) o[this.string(6, true)] = this.value(depth - 1);
    return o;
  }
  message(): Record<string, unknown> {
    return { id: this.int(1000), method: 'fuzz/test', params: this.value(3) };
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
  /** `bytes` cut at random places: many tiny pieces, some large ones, some empty. */
  chunks(bytes: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < bytes.length) {
      const size = this.pick([0, 1, 2, 3, 5, 17, 100, 1000, 100_000]);
      out.push(bytes.subarray(at, at + size));
      at += size;
    }
    return out;
  }
}

const enc = new TextEncoder();
const SEEDS = Array.from({ length: 40 }, (_, i) => 0x7e7e + i * 7919);

type Decoder = { push(c: Uint8Array): void; end(): void; readonly bufferedBytes: number };

/** Feeds `chunks`, checking that buffering stays bounded after every chunk; returns what the sink got. */
function run(
  make: (sink: { message(m: unknown): void; error(e: FrameError | MessageTooLargeError): void }) => Decoder,
  chunks: Uint8Array[],
  bound: number,
) {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const d = make({ message: (m) => messages.push(m), error: (e) => errors.push(e) });
  for (const c of chunks) {
    d.push(c);
    expect(d.bufferedBytes).toBeLessThanOrEqual(bound);
  }
  d.end();
  for (const e of errors) expect(e instanceof FrameError || e instanceof MessageTooLargeError).toBe(true);
  return { messages, errors };
}

describe('codec fuzzing (seeded)', () => {
  it.each(SEEDS)(
    'JSONL and native frames round-trip random messages and batches over random chunk boundaries (seed %i)',
    (seed) => {
      const r = new Random(seed);
      const sent: unknown[][] = Array.from({ length: 1 + r.int(30) }, () =>
        r.next() < 0.2 ? Array.from({ length: 1 + r.int(4) }, () => r.message()) : [r.message()],
      );
      const expected = sent.flat();
      const wire = (m: unknown[]) => (m.length === 1 ? m[0] : m);
      const jsonl = concatBytes(
        sent.map((m) => {
          const line = encodeJsonl(wire(m));
          // Sometimes CRLF, sometimes blank lines around the message.
          const crlf = r.next() < 0.3 ? concatBytes([line.subarray(0, line.length - 1), enc.encode('\r\n')]) : line;
          return r.next() < 0.2 ? concatBytes([enc.encode(r.pick(['\n', '\r\n', '  \n'])), crlf]) : crlf;
        }),
      );
      const frames = concatBytes(sent.map((m) => encodeNativeFrame(wire(m))));
      const fromJsonl = run((s) => new JsonlDecoder(s, { maxLineBytes: 1 << 20 }), r.chunks(jsonl), 1 << 20);
      expect(fromJsonl).toEqual({ messages: expected, errors: [] });
      const fromFrames = run(
        (s) => new NativeFrameDecoder(s, { maxFrameBytes: 1 << 20 }),
        r.chunks(frames),
        (1 << 20) + 4,
      );
      expect(fromFrames).toEqual({ messages: expected, errors: [] });
    },
  );

  it.each(SEEDS)('the raw splitters pass random payloads through unchanged, whole or as parts (seed %i)', (seed) => {
    const r = new Random(seed);
    // Raw payloads need not be JSON; lines must hold no newline and not be blank.
    const payloads = Array.from({ length: 1 + r.int(20) }, () =>
      concatBytes([enc.encode('x'), r.bytes(r.int(300)).map((b) => (b === 10 || b === 13 ? 32 : b))]),
    );
    const dec = new TextDecoder('latin1');
    const collect = (out: string[]): PayloadSink => ({
      message: (chunk, start, end) => out.push(dec.decode(chunk.subarray(start, end))),
      messageParts: (parts, length) => {
        const joined = concatBytes(parts);
        expect(joined.length).toBe(length);
        out.push(dec.decode(joined));
      },
    });
    const expected = payloads.map((p) => dec.decode(p));
    const fromFrames: string[] = [];
    const f = collect(fromFrames);
    const frames = new FrameSplitter(f, { maxFrameBytes: 400 });
    for (const c of r.chunks(concatBytes(payloads.flatMap((p) => [frameHeader(p.length), p])))) frames.push(c);
    frames.end();
    expect(fromFrames).toEqual(expected);
    const fromLines: string[] = [];
    const l = collect(fromLines);
    const lines = new LineSplitter(l, { maxLineBytes: 400 });
    for (const c of r.chunks(concatBytes(payloads.flatMap((p) => [p, enc.encode(r.next() < 0.3 ? '\r\n' : '\n')]))))
      lines.push(c);
    lines.end();
    expect(fromLines).toEqual(expected);
  });

  it.each(SEEDS)(
    'JSONL reports exactly one error per corrupted or over-long line and keeps every other message (seed %i)',
    (seed) => {
      const r = new Random(seed);
      const max = 200;
      const expected: unknown[] = [];
      let expectedErrors = 0;
      const lines = Array.from({ length: 1 + r.int(40) }, () => {
        const m = r.message();
        const line = encodeJsonl(m);
        const roll = r.next();
        if (roll < 0.15) {
          // Invalid UTF-8 (0xff never appears in UTF-8) plus random non-newline bytes: always an error.
          const bad = line.slice();
          bad[r.int(bad.length - 1)] = 0xff;
          for (let i = r.int(4); i > 0; i--) bad[r.int(bad.length - 1)] = 0x80 + r.int(0x7f);
          expectedErrors++;
          return bad;
        }
        if (roll < 0.25) {
          expectedErrors++;
          return enc.encode(`{"long":"${'x'.repeat(max + r.int(3 * max))}"}\n`);
        }
        if (line.length - 1 > max) {
          expectedErrors++;
          return line;
        }
        expected.push(m);
        return line;
      });
      const { messages, errors } = run(
        (s) => new JsonlDecoder(s, { maxLineBytes: max }),
        r.chunks(concatBytes(lines)),
        max,
      );
      expect(messages).toEqual(expected);
      expect(errors).toHaveLength(expectedErrors);
    },
  );

  it.each(SEEDS)(
    'native frames report corrupted payloads, then stop for good at an oversized, zero-length or truncated frame (seed %i)',
    (seed) => {
      const r = new Random(seed);
      const max = 300;
      const expected: unknown[] = [];
      let expectedErrors = 0;
      let stopped = false;
      const frames: Uint8Array[] = [];
      for (let i = 1 + r.int(30); i > 0; i--) {
        const m = r.message();
        const frame = encodeNativeFrame(m);
        const roll = r.next();
        if (roll < 0.15) {
          const bad = frame.slice();
          bad[4 + r.int(bad.length - 4)] = 0xff;
          frames.push(bad);
          expectedErrors++;
        } else if (roll < 0.2 || frame.length - 4 > max) {
          // An oversized length: reported from the header, and nothing after it is decoded.
          frames.push(
            frame.length - 4 > max ? frame : concatBytes([frameHeader(max + 1 + r.int(1 << 30)), r.bytes(r.int(50))]),
          );
          expectedErrors++;
          stopped = true;
          break;
        } else if (roll < 0.25) {
          // A zero length: the stream is corrupt, so it ends decoding like an oversized length.
          frames.push(concatBytes([frameHeader(0), encodeNativeFrame(r.message())]));
          expectedErrors++;
          stopped = true;
          break;
        } else {
          frames.push(frame);
          expected.push(m);
        }
      }
      if (!stopped && r.next() < 0.3) {
        const last = encodeNativeFrame(r.message());
        if (last.length - 4 <= max) {
          frames.push(last.subarray(0, 1 + r.int(last.length - 1)));
          expectedErrors++;
        }
      }
      const { messages, errors } = run(
        (s) => new NativeFrameDecoder(s, { maxFrameBytes: max }),
        r.chunks(concatBytes(frames)),
        max + 4,
      );
      expect(messages).toEqual(expected);
      expect(errors).toHaveLength(expectedErrors);
    },
  );

  it.each(SEEDS)('random bytes never crash a decoder nor grow its buffer past the limit (seed %i)', (seed) => {
    const r = new Random(seed);
    const max = 1 + r.int(2000);
    const garbage = concatBytes(
      Array.from({ length: 1 + r.int(20) }, () =>
        r.next() < 0.5
          ? r.bytes(r.int(500))
          : enc.encode(r.pick(['{"a":1}\n', '[]\n', '\n', '[1,2]\r\n', r.string(40)])),
      ),
    );
    run((s) => new JsonlDecoder(s, { maxLineBytes: max }), r.chunks(garbage), max);
    run((s) => new NativeFrameDecoder(s, { maxFrameBytes: max }), r.chunks(garbage), max + 4);
  });

  it.each(SEEDS.slice(0, 20))(
    'chunking splits random texts within the limit and reassembles them interleaved (seed %i)',
    (seed) => {
      const r = new Random(seed);
      const max = 120 + r.int(400);
      // JSON texts, and raw strings with control characters and lone surrogates (splitting takes any string).
      const texts = Array.from({ length: 1 + r.int(5) }, () => {
        const raw = r.string(1 + r.int(3000));
        return r.next() < 0.5 ? JSON.stringify(raw) : raw;
      });
      const assembler = new ChunkAssembler({ maxPending: texts.length });
      const done = new Map<number, string>();
      const queues = texts.map((t, i) => {
        const pieces = splitIntoChunks(t, { maxFrameBytes: max, id: `m${i}` });
        if (pieces.length === 1) {
          // It fits: the text itself goes out as one frame.
          expect(pieces[0]).toBe(t);
          done.set(i, t);
          return [];
        }
        for (const piece of pieces) expect(enc.encode(piece).length).toBeLessThanOrEqual(max);
        return pieces;
      });
      while (queues.some((q) => q.length > 0)) {
        const piece = queues[r.int(queues.length)]!.shift();
        if (piece === undefined) continue;
        const { method, params } = JSON.parse(piece) as { method: string; params: BridgeChunkNotification };
        expect(method).toBe('bridge/chunk');
        const whole = assembler.accept(params);
        if (whole !== undefined) done.set(Number(params.id.slice(1)), whole);
      }
      for (const [i, t] of texts.entries()) expect(done.get(i)).toBe(t);
      expect(assembler.pendingBytes).toBe(0);
    },
  );
});
