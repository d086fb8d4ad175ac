import { describe, expect, it } from 'vitest';
import { FrameError, MessageTooLargeError } from '../errors';
import { decodeChunks, splitChunks } from '../test-support';
import { encodeJsonl, JsonlDecoder, LineSplitter } from './jsonl';
import { wholePayloads } from './payload-sink';

const enc = new TextEncoder();
const dec = new TextDecoder();

function decodeAll(chunks: Uint8Array[], opts?: { maxLineBytes?: number }) {
  const { messages, errors } = decodeChunks((sink) => new JsonlDecoder(sink, opts), chunks);
  return { messages, errors };
}

/** Every way to cut `bytes` in two. */
function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [];
  for (let i = 0; i <= bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return out;
}

describe('JsonlDecoder', () => {
  it('decodes a message split across chunks at every byte, including inside multi-byte characters', () => {
    const message = { id: 1, method: 'item/agentMessage/delta', params: { delta: 'héllo — 日本 👋🏽' } };
    const bytes = encodeJsonl(message);
    for (const chunks of everySplit(bytes)) {
      expect(decodeAll(chunks)).toEqual({ messages: [message], errors: [] });
    }
  });

  it('decodes a stream fed one byte at a time', () => {
    const bytes = enc.encode('{"a":1}\n{"b":"ü"}\n');
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(decodeAll(chunks).messages).toEqual([{ a: 1 }, { b: 'ü' }]);
  });

  it('accepts CRLF line endings and skips blank and whitespace-only lines', () => {
    const { messages, errors } = decodeAll([enc.encode('{"a":1}\r\n\r\n\n   \n\t\r\n{"b":2}\r\n')]);
    expect(messages).toEqual([{ a: 1 }, { b: 2 }]);
    expect(errors).toEqual([]);
  });

  it('delivers a last line without a newline when the stream ends', () => {
    expect(decodeAll([enc.encode('{"a":1}\n{"b"'), enc.encode(':2}')]).messages).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('delivers the messages of a batch line in order and rejects an empty batch', () => {
    const { messages, errors } = decodeAll([enc.encode('[{"id":1},{"id":2}]\n[]\n{"id":3}\n')]);
    expect(messages).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect(errors[0]!.message).toContain('empty batch');
  });

  it('reports invalid JSON as a FrameError quoting the line and goes on with the next line', () => {
    const { messages, errors } = decodeAll([enc.encode('{"a":\nnot json\n{"ok":true}\n')]);
    expect(messages).toEqual([{ ok: true }]);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof FrameError)).toBe(true);
    expect(errors[1]!.message).toContain('"not json"');
  });

  it('reports invalid UTF-8 as a FrameError', () => {
    const { messages, errors } = decodeAll([Uint8Array.of(0x22, 0xff, 0x22, 0x0a), enc.encode('1\n')]);
    expect(messages).toEqual([1]);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect(errors[0]!.message).toContain('not valid UTF-8');
  });

  it('rejects a line over maxLineBytes and resynchronises at the next newline', () => {
    const long = `{"x":"${'a'.repeat(100)}"}`;
    const { messages, errors } = decodeAll([enc.encode(`{"a":1}\n${long}\n{"b":2}\n`)], { maxLineBytes: 50 });
    expect(messages).toEqual([{ a: 1 }, { b: 2 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect((errors[0] as MessageTooLargeError).size).toBe(long.length);
    expect(errors[0]!.message).toContain('limit of 50 bytes');
  });

  it('reports an over-long line as soon as it passes the limit, without buffering the rest of it', () => {
    const errors: Error[] = [];
    const messages: unknown[] = [];
    const d = new JsonlDecoder(
      { message: (m) => messages.push(m), error: (e) => errors.push(e) },
      { maxLineBytes: 10 },
    );
    d.push(enc.encode('{"a":"aaaaaaaaa'));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('at least');
    for (let i = 0; i < 1000; i++) d.push(enc.encode('a'.repeat(1000)));
    d.push(enc.encode('"}\n{"b":2}\n'));
    d.end();
    expect(errors).toHaveLength(1);
    expect(messages).toEqual([{ b: 2 }]);
  });

  it('accepts a line of exactly maxLineBytes and rejects one byte more', () => {
    const line = '{"x":"aaaa"}';
    expect(decodeAll([enc.encode(`${line}\n`)], { maxLineBytes: line.length }).messages).toEqual([{ x: 'aaaa' }]);
    expect(decodeAll([enc.encode(`${line}\n`)], { maxLineBytes: line.length - 1 }).errors).toHaveLength(1);
  });
});

describe('LineSplitter', () => {
  it('delivers raw lines without newline or trailing CR and never parses them', () => {
    const lines: string[] = [];
    const s = new LineSplitter(wholePayloads((l) => lines.push(dec.decode(l))));
    s.push(enc.encode('not json\r\n{"a"'));
    s.push(enc.encode(':1}\n\nlast'));
    s.end();
    expect(lines).toEqual(['not json', '{"a":1}', 'last']);
  });

  it('throws the over-long line error from push() when the sink takes no errors, and keeps splitting', () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      wholePayloads((l) => lines.push(dec.decode(l))),
      { maxLineBytes: 3 },
    );
    expect(() => s.push(enc.encode('abcdef\nok\n'))).toThrow(MessageTooLargeError);
    s.push(enc.encode('yes\n'));
    expect(lines).toEqual(['ok', 'yes']);
  });

  it('reports an over-long line once, quoting its start, skips it up to its newline and accepts a line of exactly the limit', () => {
    const { payloads: lines, errors } = splitChunks(
      (sink) => new LineSplitter(sink, { maxLineBytes: 10 }),
      ['{"ok":1}\n0123456', '789abcdef', 'more garbage\n{"ok":2}\n0123456789\n'].map((t) => enc.encode(t)),
    );
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}', '0123456789']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect(errors[0]!.message).toContain('It began "0123456"');
  });

  it('hands a line spanning chunks over as uncopied views, without its trailing CR, and a line in one chunk as offsets', () => {
    const got: string[] = [];
    const a = enc.encode('{"a":');
    const b = enc.encode('1}\r');
    const s = new LineSplitter({
      message: (chunk, start, end) => got.push(`range:${dec.decode(chunk.subarray(start, end))}`),
      messageParts: (parts, length) => {
        expect(parts[0]!.buffer).toBe(a.buffer);
        expect(parts.reduce((n, p) => n + p.length, 0)).toBe(length);
        got.push(`parts:${parts.map((p) => dec.decode(p)).join('|')}`);
      },
    });
    s.push(a);
    s.push(b);
    s.push(enc.encode('\n{"b":2}\n{"c"'));
    s.push(enc.encode('\r'));
    s.push(enc.encode('\n  '));
    s.push(enc.encode(' \r\n'));
    s.end();
    expect(got).toEqual(['parts:{"a":|1}', 'range:{"b":2}', 'range:{"c"']);
  });

  it('refuses push() after end()', () => {
    const s = new LineSplitter(wholePayloads(() => {}));
    s.end();
    expect(() => s.push(enc.encode('x'))).toThrow(/after end/);
  });
});

describe('encodeJsonl', () => {
  it('writes one line of UTF-8 JSON even when strings hold newlines', () => {
    const bytes = encodeJsonl({ text: 'a\nb', emoji: '👋' });
    const text = dec.decode(bytes);
    expect(text.indexOf('\n')).toBe(text.length - 1);
    expect(JSON.parse(text)).toEqual({ text: 'a\nb', emoji: '👋' });
  });

  it('encodes long messages (outside the small-message pool) exactly, whether ASCII or not', () => {
    for (const s of ['a'.repeat(9000), 'é"\n'.repeat(5000), `${'a'.repeat(9000)}😀日`, '😀'.repeat(4000)]) {
      const message = { text: s };
      expect(dec.decode(encodeJsonl(message))).toBe(`${JSON.stringify(message)}\n`);
    }
  });

  it('refuses a value that has no JSON form', () => {
    expect(() => encodeJsonl(undefined)).toThrow(TypeError);
  });
});
