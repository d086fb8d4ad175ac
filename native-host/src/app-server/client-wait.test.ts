import { describe, expect, it } from 'vitest';
import { ClientWaits } from './client-wait';
import type { Peer } from './peer';

const peer = { id: 7 } as Peer;

describe('ClientWaits', () => {
  it('answers at once with a client that is there, without waiting', async () => {
    const waits = new ClientWaits();
    expect(await waits.wait(() => peer, 60_000, new AbortController().signal)).toBe(peer);
    expect(waits.size).toBe(0);
  });

  it('fails at once when the wait is 0, as an engine outside the daemon does', async () => {
    const waits = new ClientWaits();
    expect(await waits.wait(() => undefined, 0, new AbortController().signal)).toBeUndefined();
  });

  it('resolves with the client that arrives while it waits, on the change that brought it', async () => {
    const waits = new ClientWaits();
    let arrived: Peer | undefined;
    const waiting = waits.wait(() => arrived, 60_000, new AbortController().signal);
    waits.changed();
    expect(waits.size).toBe(1);
    arrived = peer;
    waits.changed();
    expect(await waiting).toBe(peer);
    expect(waits.size).toBe(0);
  });

  it('gives up after its time, and when the turn ends first', async () => {
    const waits = new ClientWaits();
    expect(await waits.wait(() => undefined, 30, new AbortController().signal)).toBeUndefined();
    const turn = new AbortController();
    const waiting = waits.wait(() => undefined, 60_000, turn.signal);
    turn.abort();
    expect(await waiting).toBeUndefined();
    expect(waits.size).toBe(0);
  });
});
