import { describe, expect, it } from 'vitest';
import { Connection, clientInbound, serverInbound } from './connection';
import { TransportClosedError } from './errors';
import { createMemoryTransportPair } from './memory-transport';
import { NotificationRecorder } from './notification-recorder';
import { approval, clientWithRawServer, serverWithRawClient, thread, threadFields } from './test-support';

/** A client connection with a recorder attached, as tests and `tether debug` use it. */
function recordedClient(options: { limit?: number } = {}) {
  const setup = clientWithRawServer();
  const recorder = new NotificationRecorder(setup.client, { ...options, log: (l) => setup.logs.push(l) });
  return { ...setup, recorder };
}

describe('NotificationRecorder', () => {
  it('keeps notifications that arrive around a response for a later waitFor', async () => {
    const { client, server, recorder } = recordedClient();
    const pending = client.request('thread/start', {});
    await server.next();
    server.send({ id: 1, result: { thread } });
    server.send({ method: 'thread/started', params: { thread } });
    await pending;
    await new Promise((r) => setTimeout(r, 0));
    expect(recorder.size).toBe(1);
    const started = await recorder.waitFor('thread/started');
    expect(started.thread.id).toBe('thread_1');
    expect(recorder.size).toBe(0);
  });

  it('resolves a waiter from what was recorded by predicate and leaves earlier entries for next()', async () => {
    const { server, recorder } = recordedClient();
    for (const status of ['running', 'waitingOnApproval', 'idle'] as const) {
      server.send({ method: 'thread/status/changed', params: { threadId: 't', status } });
    }
    await new Promise((r) => setTimeout(r, 0));
    const idle = await recorder.waitFor('thread/status/changed', (p) => p.status === 'idle');
    expect(idle.status).toBe('idle');
    expect(await recorder.next()).toEqual({
      method: 'thread/status/changed',
      params: { threadId: 't', status: 'running' },
    });
    expect((await recorder.next()).params).toMatchObject({ status: 'waitingOnApproval' });
  });

  it('resolves a live waiter even when subscribers see the same notification', async () => {
    const { client, server, recorder } = recordedClient();
    const seen: string[] = [];
    client.onNotification('warning', (p) => seen.push(p.message));
    const waiting = recorder.waitFor('warning', (p) => p.message === 'b');
    server.send({ method: 'warning', params: { message: 'a' } });
    server.send({ method: 'warning', params: { message: 'b' } });
    expect((await waiting).message).toBe('b');
    expect(seen).toEqual(['a', 'b']);
  });

  it('drops the oldest notification when it holds its limit', async () => {
    const { server, logs, recorder } = recordedClient({ limit: 2 });
    for (const message of ['1', '2', '3']) server.send({ method: 'warning', params: { message } });
    await new Promise((r) => setTimeout(r, 0));
    expect(recorder.size).toBe(2);
    expect((await recorder.next()).params).toEqual({ message: '2' });
    expect(logs.some((l) => l.includes('backlog full'))).toBe(true);
  });

  it('rejects waiters when the connection closes, and on timeout or abort', async () => {
    const { client, recorder } = recordedClient();
    const timedOut = recorder.waitFor('warning', undefined, { timeoutMs: 5 });
    await expect(timedOut).rejects.toThrow('No warning notification arrived within 5 ms');
    const controller = new AbortController();
    const aborted = recorder.next({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    const waiting = recorder.waitFor('turn/completed');
    client.close();
    await expect(waiting).rejects.toBeInstanceOf(TransportClosedError);
    await expect(recorder.next()).rejects.toBeInstanceOf(TransportClosedError);
  });
});

describe('Connection notifications', () => {
  it('delivers to method and wildcard subscribers, in order, until unsubscribed', async () => {
    const { client, server } = clientWithRawServer();
    const exact: string[] = [];
    const all: string[] = [];
    const off = client.onNotification('item/agentMessage/delta', (p) => exact.push(p.delta));
    client.onNotification('*', (_p, method) => all.push(method));
    const delta = { threadId: 't', turnId: 'u', itemId: 'i' };
    server.send({ method: 'item/agentMessage/delta', params: { ...delta, delta: 'Hel' } });
    server.send({ method: 'item/agentMessage/delta', params: { ...delta, delta: 'lo' } });
    server.send({ method: 'warning', params: { message: 'careful' } });
    await new Promise((r) => setTimeout(r, 0));
    off();
    server.send({ method: 'item/agentMessage/delta', params: { ...delta, delta: '!' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(exact).toEqual(['Hel', 'lo']);
    expect(all).toEqual(['item/agentMessage/delta', 'item/agentMessage/delta', 'warning', 'item/agentMessage/delta']);
  });

  it('drops (and logs) a notification whose params do not match its schema', async () => {
    const { server, logs, recorder } = recordedClient();
    server.send({ method: 'turn/started', params: { turn: 'nope' } });
    server.send({ method: 'custom/extension', params: { anything: 1 } });
    const next = await recorder.next();
    expect(next).toEqual({ method: 'custom/extension', params: { anything: 1 } });
    expect(logs.some((l) => l.includes('dropped invalid turn/started'))).toBe(true);
  });

  it('sends notifications without params as {method}', async () => {
    const { client, server } = clientWithRawServer();
    client.notify('initialized');
    expect(await server.next()).toEqual({ method: 'initialized' });
  });
});

describe('Connection jsonrpc option', () => {
  it('omits "jsonrpc" on output by default and accepts it on input', async () => {
    const { server, client } = serverWithRawClient();
    server.onRequest('model/list', () => ({ models: [] }));
    client.send({ jsonrpc: '2.0', id: 1, method: 'model/list' });
    expect(await client.next()).toEqual({ id: 1, result: { models: [] } });
  });

  it('emits "jsonrpc":"2.0" on every kind of output when asked', async () => {
    const { server, client } = serverWithRawClient({ jsonrpc: true });
    server.onRequest('model/list', () => ({ models: [] }));
    client.send({ id: 1, method: 'model/list' });
    client.send({ id: 2, method: 'unknown' });
    server.notify('warning', { message: 'w' });
    void server.request('approval/request', approval).catch(() => {});
    const out = [await client.next(), await client.next(), await client.next(), await client.next()];
    expect(out).toContainEqual({ jsonrpc: '2.0', id: 1, result: { models: [] } });
    expect(out).toContainEqual({ jsonrpc: '2.0', method: 'warning', params: { message: 'w' } });
    expect(out).toContainEqual({ jsonrpc: '2.0', id: 1, method: 'approval/request', params: approval });
    expect(out.every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    server.close();
  });
});

describe('Connection typing', () => {
  it('types handlers, requests and waits from the rows, and keeps literal results', () => {
    const [a, b] = createMemoryTransportPair();
    const server = new Connection(a, { inbound: serverInbound, outbound: clientInbound });
    const untyped = new Connection(b);
    server.onRequest('thread/start', (p) => ({ thread: { ...threadFields, title: p.title ?? '', status: 'running' } }));
    server.onRequest('thread/unsubscribe', () => {});
    // @ts-expect-error thread/start must answer a thread
    server.onRequest('thread/start', () => {});
    // @ts-expect-error approval/request needs its params
    void server.request('approval/request').catch(() => {});
    void server
      .request('approval/request', { ...approval, choices: ['allow'] })
      .then((r) => r.decision satisfies string)
      .catch(() => {});
    const method: string = 'vendor/anything';
    void untyped.request(method, { free: 'form' }).catch(() => {});
    server.onNotification('initialized', () => {});
    server.close();
    untyped.close();
  });
});
