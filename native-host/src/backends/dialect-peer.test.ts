import { createMemoryTransportPair, RpcError, TransportClosedError } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { RpcPeer } from './dialect-peer';

function pair(jsonrpc = false) {
  const [a, b] = createMemoryTransportPair();
  const peer = new RpcPeer(a, { jsonrpc, name: 'agent', log: () => undefined });
  const wire: Record<string, unknown>[] = [];
  b.start({ onMessage: (m) => wire.push(m as Record<string, unknown>), onClose: () => undefined });
  return { peer, other: b, wire };
}
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('dialect peer', () => {
  it('treats id 0 as a request, not a notification, and answers it once', async () => {
    const { peer, other, wire } = pair(true);
    const seen: string[] = [];
    peer.start({
      onRequest: (method, _params, reply) => {
        seen.push(`request ${method} ${String(reply.id)}`);
        reply.ok({ fine: true });
        reply.ok({ twice: true });
      },
      onNotification: (method) => seen.push(`notification ${method}`),
      onClose: () => undefined,
    });
    other.send({ id: 0, method: 'session/request_permission', params: {} });
    other.send({ method: 'session/update', params: {} });
    await tick();
    expect(seen).toEqual(['request session/request_permission 0', 'notification session/update']);
    expect(wire).toEqual([{ jsonrpc: '2.0', id: 0, result: { fine: true } }]);
  });

  it('settles calls synchronously on the answer, maps error answers to RpcError, and fails pending calls on close', async () => {
    const { peer, other, wire } = pair();
    peer.start({ onRequest: () => undefined, onNotification: () => undefined, onClose: () => undefined });
    const order: string[] = [];
    peer.call('a', {}, { ok: (r) => order.push(`ok ${JSON.stringify(r)}`), fail: (e) => order.push(`fail ${e.message}`) });
    const b = peer.request('b', {}).catch((e: unknown) => e);
    const c = peer.request('c').catch((e: unknown) => e);
    await tick();
    expect(wire.map((m) => m.method)).toEqual(['a', 'b', 'c']);
    expect(wire[2]).toEqual({ id: 3, method: 'c' });
    other.send({ id: 1, result: { x: 1 } });
    other.send({ id: 2, error: { code: -32600, message: 'Not initialized' } });
    await tick();
    expect(order).toEqual(['ok {"x":1}']);
    expect(await b).toEqual(new RpcError(-32600, 'Not initialized'));
    other.close();
    expect(await c).toBeInstanceOf(TransportClosedError);
  });

  it('ignores the answer to a forgotten request', async () => {
    const { peer, other } = pair();
    peer.start({ onRequest: () => undefined, onNotification: () => undefined, onClose: () => undefined });
    let settled = false;
    const id = peer.call('slow', {}, { ok: () => (settled = true), fail: () => (settled = true) });
    peer.forget(id);
    other.send({ id, result: {} });
    await tick();
    expect(settled).toBe(false);
  });
});

describe('adapter endpoints', () => {
  it('deliver in order on a microtask, and deliver what was sent before a close', async () => {
    const [a, b] = createMemoryTransportPair({ clone: false });
    const got: unknown[] = [];
    let closed = false;
    b.start({ onMessage: (m) => got.push(m), onClose: () => (closed = true) });
    a.start({ onMessage: () => undefined, onClose: () => undefined });
    const message = { n: 1 };
    a.send(message);
    a.send([{ n: 2 }, { n: 3 }]);
    expect(got).toEqual([]);
    a.close();
    await tick();
    expect(got).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(got[0]).toBe(message);
    expect(closed).toBe(true);
    expect(() => a.send({})).toThrow(TransportClosedError);
  });
});
