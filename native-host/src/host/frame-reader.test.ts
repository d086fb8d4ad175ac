import { FrameError, MessageTooLargeError } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { FrameReader } from './frame-reader';

function frame(text: string): Buffer {
  const body = Buffer.from(text);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

function collect(max = 1024) {
  const frames: string[] = [];
  const parts: number[] = [];
  const errors: Error[] = [];
  const reader = new FrameReader(
    {
      frame: (chunk, start, end) => {
        frames.push(chunk.toString('utf8', start, end));
        parts.push(1);
      },
      frameParts: (p, length) => {
        const whole = Buffer.concat(p);
        expect(whole.length).toBe(length);
        frames.push(whole.toString());
        parts.push(p.length);
      },
      fatal: (e) => errors.push(e),
    },
    max,
  );
  return { reader, frames, parts, errors };
}

describe('FrameReader', () => {
  it('splits several frames in one chunk and frames split at every byte', () => {
    const bytes = Buffer.concat([frame('{"a":1}'), frame('{"b":"é"}'), frame('[]')]);
    const whole = collect();
    whole.reader.push(bytes);
    expect(whole.frames).toEqual(['{"a":1}', '{"b":"é"}', '[]']);
    const bytewise = collect();
    for (let i = 0; i < bytes.length; i++) bytewise.reader.push(bytes.subarray(i, i + 1));
    expect(bytewise.frames).toEqual(whole.frames);
    expect(bytewise.reader.end()).toBeUndefined();
  });

  it('hands a large frame over as views of the chunks it spans, without concatenating', () => {
    const big = frame(`"${'x'.repeat(300_000)}"`);
    const { reader, frames, parts } = collect(1_000_000);
    for (let at = 0; at < big.length; at += 65_536) reader.push(big.subarray(at, at + 65_536));
    expect(frames[0]).toHaveLength(300_002);
    expect(parts[0]).toBe(5);
  });

  it('accepts a frame of exactly the limit and refuses one byte more, for good', () => {
    const ok = collect(10);
    ok.reader.push(frame('"12345678"'));
    expect(ok.frames).toEqual(['"12345678"']);
    const over = collect(10);
    over.reader.push(Buffer.concat([frame('"123456789"'), frame('{}')]));
    expect(over.frames).toEqual([]);
    expect(over.errors[0]).toBeInstanceOf(MessageTooLargeError);
    expect(over.reader.failed).toBe(true);
  });

  it('explains a length that is really text, and a zero length', () => {
    const text = collect();
    text.reader.push(Buffer.from('GET / HTTP/1.1'));
    expect(text.errors[0]?.message).toContain('"GET "');
    const zero = collect();
    zero.reader.push(Buffer.alloc(4));
    expect(zero.errors[0]).toBeInstanceOf(FrameError);
  });

  it('reports input that ends inside a frame', () => {
    const { reader } = collect();
    reader.push(frame('{"a":1}').subarray(0, 6));
    expect(reader.end()?.message).toContain('2 of 7 bytes');
  });
});
