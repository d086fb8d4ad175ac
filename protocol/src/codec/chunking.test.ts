import { describe, expect, it } from 'vitest';
import { FrameError, MessageTooLargeError } from '../errors';
import type { BridgeChunkNotification } from '../schema/bridge';
import { ChunkAssembler, splitIntoChunks } from './chunking';
import { BROWSER_MAX_FRAME_BYTES } from './limits';

const enc = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const bytesOf = (s: string) => enc.encode(s).length;

/** A JSON message whose UTF-8 text is exactly `size` bytes. */
function messageOfSize(size: number, filler = 'x'): string {
  const empty = JSON.stringify({ method: 'item/completed', params: { text: '' } });
  const json = JSON.stringify({ method: 'item/completed', params: { text: filler.repeat(size - bytesOf(empty)) } });
  expect(bytesOf(json)).toBe(size);
  return json;
}

function reassemble(texts: string[], assembler = new ChunkAssembler()): string | undefined {
  let out: string | undefined;
  for (const t of texts) {
    const piece = JSON.parse(t) as { method: string; params: BridgeChunkNotification };
    expect(piece.method).toBe('bridge/chunk');
    out = assembler.accept(piece.params);
  }
  return out;
}

function pieces(json: string, maxFrameBytes: number, id = 'm1'): BridgeChunkNotification[] {
  return splitIntoChunks(json, { maxFrameBytes, id }).map(
    (t) => (JSON.parse(t) as { params: BridgeChunkNotification }).params,
  );
}

describe('splitIntoChunks', () => {
  it('leaves a message of exactly the browser limit whole', () => {
    const json = messageOfSize(BROWSER_MAX_FRAME_BYTES);
    expect(splitIntoChunks(json)).toEqual([json]);
  });

  it('splits a message one byte over the limit into pieces that each fit and reassemble to it', () => {
    const json = messageOfSize(BROWSER_MAX_FRAME_BYTES + 1);
    const texts = splitIntoChunks(json);
    expect(texts.length).toBe(2);
    for (const t of texts) expect(bytesOf(t)).toBeLessThanOrEqual(BROWSER_MAX_FRAME_BYTES);
    expect(reassemble(texts)).toBe(json);
  });

  it('accounts for JSON escaping of quotes, backslashes and control characters', () => {
    const json = JSON.stringify({ text: '"\\\n\u0001'.repeat(3000) });
    const texts = splitIntoChunks(json, { maxFrameBytes: 1000 });
    expect(texts.length).toBeGreaterThan(10);
    for (const t of texts) expect(bytesOf(t)).toBeLessThanOrEqual(1000);
    expect(reassemble(texts)).toBe(json);
  });

  it('never splits a surrogate pair and counts multi-byte characters in UTF-8 bytes', () => {
    const json = JSON.stringify({ text: '😀é日'.repeat(2000) });
    for (const max of [200, 201, 202, 203]) {
      const texts = splitIntoChunks(json, { maxFrameBytes: max, id: 'e' });
      for (const t of texts) {
        expect(bytesOf(t)).toBeLessThanOrEqual(max);
        const data = (JSON.parse(t) as { params: { data: string } }).params.data;
        expect(LONE_SURROGATE.test(data)).toBe(false);
      }
      expect(reassemble(texts)).toBe(json);
    }
  });

  it('grows the envelope when the piece count needs more digits', () => {
    const json = 'a'.repeat(3000);
    const texts = splitIntoChunks(json, { maxFrameBytes: 90, id: 'd' });
    expect(texts.length).toBeGreaterThan(100);
    for (const t of texts) expect(bytesOf(t)).toBeLessThanOrEqual(90);
    expect(reassemble(texts)).toBe(json);
  });

  it('refuses a limit too small to carry any piece', () => {
    expect(() => splitIntoChunks('a'.repeat(100), { maxFrameBytes: 60, id: 'x' })).toThrow(RangeError);
  });
});

describe('ChunkAssembler', () => {
  it('reassembles interleaved messages', () => {
    const a = pieces('a'.repeat(500), 100, 'a');
    const b = pieces('b'.repeat(500), 100, 'b');
    const assembler = new ChunkAssembler();
    const done: string[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      for (const p of [a[i], b[i]]) {
        const whole = p && assembler.accept(p);
        if (whole) done.push(whole);
      }
    }
    expect(done.sort()).toEqual(['a'.repeat(500), 'b'.repeat(500)]);
    expect(assembler.pendingCount).toBe(0);
    expect(assembler.pendingBytes).toBe(0);
  });

  it('reports a gap, drops the message and ignores its later pieces', () => {
    const p = pieces('a'.repeat(500), 100);
    const assembler = new ChunkAssembler();
    assembler.accept(p[0]!);
    expect(() => assembler.accept(p[2]!)).toThrow(/gap: expected piece 1, got 2/);
    for (const rest of p.slice(3)) expect(assembler.accept(rest)).toBeUndefined();
    expect(assembler.pendingCount).toBe(0);
  });

  it('drops a message with an empty piece, which would otherwise grow its piece list for free', () => {
    const assembler = new ChunkAssembler();
    assembler.accept({ id: 'm', index: 0, count: 1_000_000, data: 'x' });
    expect(() => assembler.accept({ id: 'm', index: 1, count: 1_000_000, data: '' })).toThrow(
      /piece 1 of 1000000 is empty/,
    );
    expect(assembler.pendingCount).toBe(0);
    expect(assembler.pendingBytes).toBe(0);
  });

  it('reports a duplicate piece', () => {
    const p = pieces('a'.repeat(500), 100);
    const assembler = new ChunkAssembler();
    assembler.accept(p[0]!);
    assembler.accept(p[1]!);
    expect(() => assembler.accept(p[1]!)).toThrow(/duplicate piece 1/);
  });

  it('reports a count that changes between pieces', () => {
    const p = pieces('a'.repeat(500), 100);
    const assembler = new ChunkAssembler();
    assembler.accept(p[0]!);
    expect(() => assembler.accept({ ...p[1]!, count: p[1]!.count + 1 })).toThrow(FrameError);
  });

  it('reports a message whose first piece is missing', () => {
    const p = pieces('a'.repeat(500), 100);
    expect(() => new ChunkAssembler().accept(p[1]!)).toThrow(/without piece 0/);
  });

  it('limits the number of partial messages', () => {
    const assembler = new ChunkAssembler({ maxPending: 2 });
    assembler.accept({ id: 'a', index: 0, count: 2, data: 'x' });
    assembler.accept({ id: 'b', index: 0, count: 2, data: 'x' });
    expect(() => assembler.accept({ id: 'c', index: 0, count: 2, data: 'x' })).toThrow(/already being reassembled/);
    expect(assembler.accept({ id: 'a', index: 1, count: 2, data: 'y' })).toBe('xy');
  });

  it('limits the bytes buffered over all partial messages and frees them when it drops one', () => {
    const assembler = new ChunkAssembler({ maxTotalBytes: 10 });
    assembler.accept({ id: 'a', index: 0, count: 3, data: 'é'.repeat(3) });
    expect(assembler.pendingBytes).toBe(6);
    expect(() => assembler.accept({ id: 'a', index: 1, count: 3, data: 'xxxxx' })).toThrow(MessageTooLargeError);
    expect(assembler.pendingBytes).toBe(0);
    expect(assembler.accept({ id: 'b', index: 0, count: 1, data: 'ok' })).toBe('ok');
  });

  it('rejects params that are not a chunk', () => {
    const assembler = new ChunkAssembler();
    expect(() => assembler.accept({ id: 'a', index: 2, count: 2, data: '' })).toThrow(/Invalid bridge\/chunk params/);
    expect(() => assembler.accept(null as unknown as BridgeChunkNotification)).toThrow(FrameError);
  });
});
