import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { splitFromEnd } from './first-paint';

const message = (id: string, chars: number): Item => ({
  id,
  type: 'agentMessage',
  status: 'completed',
  createdAtMs: 0,
  content: { text: 'x'.repeat(chars) },
});

describe('splitFromEnd', () => {
  const items = [message('a', 1000), message('b', 1000), message('c', 1000), message('d', 1000)];

  it('keeps the latest items up to the budget, the item that crosses it included', () => {
    expect(splitFromEnd(items, 1500, 40)).toBe(2);
    expect(splitFromEnd(items, 2000, 40)).toBe(2);
  });

  it('keeps at least one item, however long, and at most `max`', () => {
    expect(splitFromEnd([message('huge', 100_000)], 10, 40)).toBe(0);
    expect(splitFromEnd(items, 1_000_000, 3)).toBe(1);
  });

  it('keeps everything when the whole fits', () => {
    expect(splitFromEnd(items, 10_000, 40)).toBe(0);
    expect(splitFromEnd([], 10_000, 40)).toBe(0);
  });
});
