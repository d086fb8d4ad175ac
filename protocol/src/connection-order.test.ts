/** Order across messages is part of Connection's contract: synchronous settles, synchronous answers, after-answer hooks. */
import { describe, expect, it } from 'vitest';
import { Connection } from './connection';
import { RpcError, TransportClosedError } from './errors';
import { createMemoryTransportPair } from './memory-transport';
import { clientWithRawServer, rawPeer, ScriptedTransport, serverWithRawClient } from './test-support';

describe('Connection order', () => {
  it('settles a call synchronously when its answer is read, before the next message is handled', async () => {
    const { client, server } = clientWithRawServer();
    const order: string[] = [];
    client.call(
      'model/list',
      {},
      { ok: (r) => order.push(`answer ${r.models.length}`), fail: (e) => order.push(`fail ${e.message}`) },
    );
    client.onNotification('warning', (p) => order.push(`warning ${p.message}`));
    await server.next();
    // One delivery: the answer and the notification after it are handled in one synchronous pass.
    server.send({ id: 1, result: { models: [] } });
    server.send({ method: 'warning', params: { message: 'after' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['answer 0', 'warning after']);
  });

  it('fails a call synchronously with the parsed error, or TransportClosedError once closed', async () => {
    const { client, server } = clientWithRawServer();
    const errors: Error[] = [];
    const settle = { ok: () => undefined, fail: (e: Error) => errors.push(e) };
    client.call('model/list', {}, settle);
    await server.next();
    server.send({ id: 1, error: { code: -32013, message: 'model/list is not supported by the b backend' } });
    await new Promise((r) => setTimeout(r, 0));
    client.close();
    client.call('model/list', {}, settle);
    expect(errors[0]).toBeInstanceOf(RpcError);
    expect(errors[0]).toMatchObject({ code: -32013 });
    expect(errors[1]).toBeInstanceOf(TransportClosedError);
  });

  it('treats id 0 as a request, not a notification, and answers it once', async () => {
    const [a, b] = createMemoryTransportPair();
    const agent = new Connection(a, { jsonrpc: true });
    const peer = rawPeer(b);
    const seen: string[] = [];
    agent.setFallbackRequestHandler((method, _params, ctx) => {
      seen.push(`request ${method} ${String(ctx.id)}`);
      return { fine: true };
    });
    agent.onNotification('*', (_p, method) => seen.push(`notification ${method}`));
    peer.send({ id: 0, method: 'session/request_permission', params: {} });
    peer.send({ method: 'session/update', params: {} });
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 0, result: { fine: true } });
    expect(seen).toEqual(['request session/request_permission 0', 'notification session/update']);
    expect(peer.received).toHaveLength(1);
  });

  it('answers a plain value at once and runs afterAnswer hooks right after the answer, before what they send', async () => {
    const { server, client } = serverWithRawClient();
    server.onRequest('thread/unsubscribe', (p, ctx) => {
      ctx.afterAnswer(() => server.notify('warning', { message: `after ${p.threadId}` }));
      server.notify('warning', { message: 'during' });
      return {};
    });
    client.send({ id: 1, method: 'thread/unsubscribe', params: { threadId: 't' } });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'during' } });
    expect(await client.next()).toEqual({ id: 1, result: {} });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'after t' } });
  });

  it('runs afterAnswer hooks after an async answer and after an error answer, and at once once answered', async () => {
    const { server, client, logs } = serverWithRawClient();
    let late: ((fn: () => void) => void) | undefined;
    server.onRequest('model/list', async (_p, ctx) => {
      late = (fn) => ctx.afterAnswer(fn);
      ctx.afterAnswer(() => server.notify('warning', { message: 'listed' }));
      await new Promise((r) => setTimeout(r, 1));
      return { models: [] };
    });
    server.onRequest('thread/read', (_p, ctx) => {
      ctx.afterAnswer(() => server.notify('warning', { message: 'refused' }));
      ctx.afterAnswer(() => {
        throw new Error('hook broke');
      });
      throw RpcError.threadNotFound('x');
    });
    client.send({ id: 1, method: 'model/list' });
    expect(await client.next()).toEqual({ id: 1, result: { models: [] } });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'listed' } });
    client.send({ id: 2, method: 'thread/read', params: { threadId: 'x' } });
    expect(await client.next()).toMatchObject({ id: 2, error: { code: -32020 } });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'refused' } });
    expect(logs.some((l) => l.includes('after-answer hook of thread/read threw') && l.includes('hook broke'))).toBe(
      true,
    );
    const ran: string[] = [];
    late!(() => ran.push('now'));
    expect(ran).toEqual(['now']);
  });

  it('only logs undecodable input when asked not to answer it (an agent is not argued with on its stdin)', () => {
    const transport = new ScriptedTransport();
    const logs: string[] = [];
    new Connection(transport, { answerDecodeErrors: false, log: (l) => logs.push(l) });
    transport.handlers?.onDecodeError?.(new Error('Unexpected token W in JSON at position 0'));
    expect(transport.sent).toEqual([]);
    expect(logs).toEqual(['undecodable input: Unexpected token W in JSON at position 0']);
  });
});
