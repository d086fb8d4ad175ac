import { describe, expect, it } from 'vitest';
import { FrameError, MessageTooLargeError } from '../errors';
import { concatBytes, decodeChunks, splitChunks } from '../test-support';
import { encodeNativeFrame, FrameSplitter, frameHeader, frameJson, NativeFrameDecoder } from './native-frame';
import { wholePayloads } from './payload-sink';

const enc = new TextEncoder();
const dec = new TextDecoder();

function frame(payload: string | Uint8Array): Uint8Array {
  const body = typeof payload === 'string' ? enc.encode(payload) : payload;
  const out = new Uint8Array(4 + body.length);
  out.set(frameHeader(body.length));
  out.set(body, 4);
  return out;
}

function decodeAll(chunks: Uint8Array[], opts?: { maxFrameBytes?: number }) {
  const { messages, errors, decoder } = decodeChunks((sink) => new NativeFrameDecoder(sink, opts), chunks);
  return { messages, errors, failed: decoder.failed };
}

describe('NativeFrameDecoder', () => {
  it('decodes frames split at every byte, including inside the header and inside multi-byte characters', () => {
    const a = { id: 0, result: { text: 'naïve 日本 🎉' } };
    const b = { method: 'turn/started', params: {} };
    const bytes = concatBytes([encodeNativeFrame(a), encodeNativeFrame(b)]);
    for (let i = 0; i <= bytes.length; i++) {
      for (const j of [i, Math.min(bytes.length, i + 3)]) {
        const chunks = [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
        expect(decodeAll(chunks)).toEqual({ messages: [a, b], errors: [], failed: false });
      }
    }
  });

  it('delivers the messages of a batch frame in order', () => {
    const batch = [{ id: 1, result: {} }, { method: 'x' }, { id: 2, result: 3 }];
    expect(decodeAll([encodeNativeFrame(batch)]).messages).toEqual(batch);
  });

  it('rejects an empty batch with a FrameError and decodes the next frame', () => {
    const { messages, errors } = decodeAll([concatBytes([frame('[]'), frame('{"a":1}')])]);
    expect(messages).toEqual([{ a: 1 }]);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect(errors[0]!.message).toContain('empty batch');
  });

  it('rejects a length above the limit from the 4 header bytes and stops decoding for good', () => {
    const { messages, errors, failed } = decodeAll([concatBytes([frameHeader(101)]), frame('{"a":1}')], {
      maxFrameBytes: 100,
    });
    expect(messages).toEqual([]);
    expect(failed).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect((errors[0] as MessageTooLargeError).size).toBe(101);
    expect(errors[0]!.message).toContain('cannot be resynchronised');
  });

  it('rejects a 4 GiB length without allocating for it', () => {
    const { errors, failed } = decodeAll([Uint8Array.of(0xff, 0xff, 0xff, 0xff, 1, 2, 3)]);
    expect(failed).toBe(true);
    expect((errors[0] as MessageTooLargeError).size).toBe(0xffffffff);
  });

  it('says the peer forgot the length prefix when the header reads as JSON text', () => {
    const { errors } = decodeAll([enc.encode('{"id":1,"method":"initialize"}\n')]);
    expect(errors[0]!.message).toContain('without a length prefix');
  });

  it('accepts a frame of exactly maxFrameBytes', () => {
    const payload = `"${'a'.repeat(98)}"`;
    expect(decodeAll([frame(payload)], { maxFrameBytes: 100 }).messages).toEqual(['a'.repeat(98)]);
  });

  it('treats a zero-length frame as a corrupt stream: one FrameError, then nothing more is decoded', () => {
    // No browser or host ever writes an empty frame (every frame carries a JSON message): a zero length means the
    // stream is not native messaging or lost its place, so the bytes after it cannot be trusted as frames.
    const { messages, errors, failed } = decodeAll([concatBytes([frame('1'), frameHeader(0), frame('7')]), frame('8')]);
    expect(messages).toEqual([1]);
    expect(failed).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect(errors[0]!.message).toContain('Zero-length');
    expect(errors[0]!.message).toContain('cannot be resynchronised');
  });

  it('reports a stream that ends inside a payload with the number of missing bytes', () => {
    const bytes = frame('{"a":"bcdef"}');
    const { errors } = decodeAll([bytes.subarray(0, 10)]);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect(errors[0]!.message).toContain('got 6 of 13 payload bytes (7 missing)');
  });

  it('reports a stream that ends inside a header', () => {
    const { errors } = decodeAll([Uint8Array.of(5, 0)]);
    expect(errors[0]!.message).toContain('got 2 of 4 length bytes (2 missing)');
  });

  it('reports invalid JSON and invalid UTF-8 as FrameErrors and goes on', () => {
    const { messages, errors } = decodeAll([concatBytes([frame('{nope'), frame(Uint8Array.of(0xc3)), frame('true')])]);
    expect(messages).toEqual([true]);
    expect(errors.map((e) => e.name)).toEqual(['FrameError', 'FrameError']);
  });
});

describe('FrameSplitter', () => {
  it('delivers raw payloads without parsing them', () => {
    const payloads: string[] = [];
    const s = new FrameSplitter(wholePayloads((p) => payloads.push(dec.decode(p))));
    const bytes = concatBytes([frame('not json'), frame('{"a":1}')]);
    s.push(bytes.subarray(0, 5));
    s.push(bytes.subarray(5));
    s.end();
    expect(payloads).toEqual(['not json', '{"a":1}']);
  });

  it('hands a payload inside one chunk over as that chunk and its offsets, one spanning chunks as the views it spans', () => {
    const got: string[] = [];
    const chunks: Uint8Array[] = [];
    const s = new FrameSplitter({
      message: (chunk, start, end) => {
        chunks.push(chunk);
        got.push(`range:${dec.decode(chunk.subarray(start, end))}`);
      },
      messageParts: (views, length) => {
        expect(views.reduce((n, v) => n + v.length, 0)).toBe(length);
        got.push(`parts:${views.map((v) => dec.decode(v)).join('|')}`);
      },
    });
    const bytes = concatBytes([frame('{"long":true}'), frame('2'), frame('3')]);
    s.push(bytes.subarray(0, 8));
    s.push(bytes.subarray(8, 12));
    const last = bytes.subarray(12);
    s.push(last);
    s.end();
    expect(got).toEqual(['parts:{"lo|ng":|true}', 'range:2', 'range:3']);
    expect(chunks).toEqual([last, last]);
    expect(chunks[0]).toBe(last);
  });

  it('keeps the class of the pushed chunks in the views it hands over', () => {
    class Tagged extends Uint8Array {}
    const seen: boolean[] = [];
    const s = new FrameSplitter<Tagged>({
      message: (chunk) => seen.push(chunk instanceof Tagged),
      messageParts: (views) => seen.push(...views.map((v) => v instanceof Tagged)),
    });
    const bytes = concatBytes([frame('"ab"'), frame('1')]);
    s.push(new Tagged(bytes.subarray(0, 6)));
    s.push(new Tagged(bytes.subarray(6)));
    expect(seen).toEqual([true, true, true]);
  });

  it('throws from end() when the stream is truncated and the sink takes no errors', () => {
    const s = new FrameSplitter(wholePayloads(() => {}));
    s.push(frame('abc').subarray(0, 5));
    expect(() => s.end()).toThrow(FrameError);
  });

  it('ignores input after an oversized length', () => {
    const payloads: Uint8Array[] = [];
    const errors: Error[] = [];
    const s = new FrameSplitter(
      wholePayloads(
        (p) => payloads.push(p),
        (e) => errors.push(e),
      ),
      { maxFrameBytes: 8 },
    );
    s.push(concatBytes([frameHeader(9), frame('1'), frame('2')]));
    s.push(frame('3'));
    s.end();
    expect(payloads).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(s.failed).toBe(true);
  });

  it('ignores input after a zero length, whether the header came whole or split', () => {
    for (const cut of [0, 1, 3]) {
      const bytes = concatBytes([frame('1'), frameHeader(0), frame('2')]);
      const { payloads, errors, splitter } = splitChunks(
        (sink) => new FrameSplitter(sink),
        [bytes.subarray(0, 5 + cut), bytes.subarray(5 + cut)],
      );
      expect(payloads).toEqual(['1']);
      expect(errors.map((e) => e.name)).toEqual(['FrameError']);
      expect(splitter.failed).toBe(true);
    }
  });

  it('explains a length that is really text', () => {
    const errors: Error[] = [];
    const s = new FrameSplitter(
      wholePayloads(
        () => {},
        (e) => errors.push(e),
      ),
    );
    s.push(enc.encode('GET / HTTP/1.1'));
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect(errors[0]!.message).toContain('"GET "');
    expect(errors[0]!.message).toContain('the input is not a native-messaging stream');
  });
});

describe('encodeNativeFrame', () => {
  it('writes a little-endian length followed by UTF-8 JSON', () => {
    const bytes = encodeNativeFrame({ s: 'é' });
    expect(Array.from(bytes.subarray(0, 4))).toEqual([10, 0, 0, 0]);
    expect(dec.decode(bytes.subarray(4))).toBe('{"s":"é"}');
  });

  it('gives every small message its own bytes, even though they share a pool', () => {
    const encoded = Array.from({ length: 2000 }, (_, i) => encodeNativeFrame({ i, text: 'é'.repeat(i % 40) }));
    const d = decodeAll([concatBytes(encoded)]);
    expect(d.messages).toEqual(Array.from({ length: 2000 }, (_, i) => ({ i, text: 'é'.repeat(i % 40) })));
  });

  it('frames long texts with the exact UTF-8 length', () => {
    const text = JSON.stringify('日本'.repeat(5000));
    const bytes = frameJson(text);
    const length = bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24);
    expect(length).toBe(enc.encode(text).length);
    expect(bytes.length).toBe(length + 4);
  });
});
