import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader';

function collect(max = 100) {
  const lines: string[] = [];
  const oversized: string[] = [];
  const reader = new LineReader(
    {
      line: (chunk, start, end) => lines.push(chunk.toString('utf8', start, end)),
      lineParts: (parts, length) => {
        const whole = Buffer.concat(parts);
        expect(whole.length).toBe(length);
        lines.push(whole.toString());
      },
      oversized: (head) => oversized.push(head.toString()),
    },
    max,
  );
  return { reader, lines, oversized };
}

describe('LineReader', () => {
  it('splits lines across chunks and skips empty ones', () => {
    const { reader, lines } = collect();
    for (const chunk of ['{"a"', ':1}\n\n{"b":2}\n{"c"', '', ':3}']) reader.push(Buffer.from(chunk));
    reader.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('drops a line over the limit once, then goes on with the next line', () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from('{"ok":1}\n0123456'));
    reader.push(Buffer.from('789abcdef'));
    reader.push(Buffer.from('more garbage\n{"ok":2}\n'));
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(oversized).toEqual(['0123456']);
  });

  it('accepts a line of exactly the limit', () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(Buffer.from('0123456789\n'));
    expect(lines).toEqual(['0123456789']);
    expect(oversized).toEqual([]);
  });
});
