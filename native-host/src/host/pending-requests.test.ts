import type { RpcError } from '@tether/protocol/errors';
import { describe, expect, it } from 'vitest';
import { scanEnvelope } from './envelope-scan';
import { MAX_PENDING, PendingRequests } from './pending-requests';

const envelope = (message: unknown) => scanEnvelope(Buffer.from(JSON.stringify(message)));

function failAll(pending: PendingRequests): Array<[string, RpcError]> {
  const replies: Array<[string, RpcError]> = [];
  pending.failAll('a', 'it crashed', { code: 1, signal: null }, (rawId, error) => replies.push([rawId, error]));
  return replies;
}

describe('PendingRequests', () => {
  it('tracks requests only, forgets those answered (alone or in a batch), and fails the rest with -32050 naming the method', () => {
    const pending = new PendingRequests();
    pending.track(envelope({ id: 1, method: 'thread/start' }));
    pending.track(envelope({ id: 'two', method: 'turn/start' }));
    pending.track(envelope({ id: 3, method: 'model/list' }));
    pending.track(envelope({ method: 'initialized' }));
    pending.track(envelope({ id: 9, result: {} }));
    expect(pending.size).toBe(3);
    pending.settle(envelope({ id: 1, result: {} }));
    pending.settle(envelope({ id: 'two', method: 'approval/request', params: {} }));
    pending.settleBatch(Buffer.from('[{"method":"x"},{"id":3,"error":{"code":1,"message":"no"}}]'));
    const replies = failAll(pending);
    expect(replies.map(([id, e]) => [id, e.code, e.message, e.data])).toEqual([
      [
        '"two"',
        -32050,
        'Backend unavailable: turn/start was not answered: it crashed',
        { backend: 'a', method: 'turn/start', code: 1, signal: null },
      ],
    ]);
    expect(pending.size).toBe(0);
    expect(failAll(pending)).toEqual([]);
  });

  it(`remembers at most ${MAX_PENDING} requests, forgetting the oldest first`, () => {
    const pending = new PendingRequests();
    for (let i = 0; i <= MAX_PENDING; i++) pending.track(envelope({ id: i, method: 'x' }));
    expect(pending.size).toBe(MAX_PENDING);
    const ids = failAll(pending).map(([id]) => id);
    expect(ids[0]).toBe('1');
    expect(ids.at(-1)).toBe(String(MAX_PENDING));
  });
});
