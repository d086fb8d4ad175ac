import { describe, expect, it } from 'vitest';
import { createMemoryTransportPair } from './memory-transport';

function collect(t: ReturnType<typeof createMemoryTransportPair>[number]) {
  const got: unknown[] = [];
  const events: string[] = [];
  t.start({ onMessage: (m) => (got.push(m), events.push('message')), onClose: () => events.push('close') });
  return { got, events };
}

describe('createMemoryTransportPair', () => {
  it('delivers in order, on a microtask, and splits batches', async () => {
    const [a, b] = createMemoryTransportPair();
    const seen = collect(b);
    a.send({ n: 1 });
    a.send([{ n: 2 }, { n: 3 }]);
    expect(seen.got).toEqual([]);
    await Promise.resolve();
    expect(seen.got).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('clones messages by default and hands them over as they are with clone: false', async () => {
    const sent = { n: 1 };
    const [a, b] = createMemoryTransportPair();
    const cloned = collect(b);
    a.send(sent);
    const [c, d] = createMemoryTransportPair({ clone: false });
    const shared = collect(d);
    c.send(sent);
    await Promise.resolve();
    expect(cloned.got[0]).toEqual(sent);
    expect(cloned.got[0]).not.toBe(sent);
    expect(shared.got[0]).toBe(sent);
  });

  it('delivers what was sent before a close, on both ends, and then closes both', async () => {
    const [a, b] = createMemoryTransportPair();
    const atA = collect(a);
    const atB = collect(b);
    b.send('last answer');
    a.send('last request');
    a.close();
    expect(atA.events).toEqual(['message', 'close']);
    await new Promise((r) => setTimeout(r, 0));
    expect(atB.got).toEqual(['last request']);
    expect(atB.events).toEqual(['message', 'close']);
    expect(() => b.send('late')).toThrow(/closed/);
  });
});
