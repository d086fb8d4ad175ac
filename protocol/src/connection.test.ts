import { describe, expect, it } from 'vitest';
import { Connection, clientInbound, serverInbound } from './connection';
import { ErrorCode, RequestTimeoutError, RpcError, TransportClosedError } from './errors';
import { createMemoryTransportPair } from './memory-transport';
import { approval, clientWithRawServer, ScriptedTransport, serverWithRawClient, thread } from './test-support';

describe('Connection requests', () => {
  it('numbers requests from 1 and resolves concurrent requests answered out of order', async () => {
    const { client, server } = clientWithRawServer();
    const first = client.request('thread/read', { threadId: 'a' });
    const second = client.request('thread/read', { threadId: 'b' });
    const m1 = (await server.next()) as { id: number; params: { threadId: string } };
    const m2 = (await server.next()) as { id: number; params: { threadId: string } };
    expect([m1.id, m2.id]).toEqual([1, 2]);
    expect(m1).toEqual({ id: 1, method: 'thread/read', params: { threadId: 'a' } });
    server.send({ id: 2, result: { thread: { ...thread, id: 'b' }, items: [] } });
    server.send({ id: 1, result: { thread: { ...thread, id: 'a' }, items: [] } });
    expect((await second).thread.id).toBe('b');
    expect((await first).thread.id).toBe('a');
  });

  it('answers requests in both directions over one pair, approvals included', async () => {
    const [a, b] = createMemoryTransportPair();
    const server = new Connection(a, { inbound: serverInbound, outbound: clientInbound });
    const client = new Connection(b, { inbound: clientInbound, outbound: serverInbound });
    server.onRequest('thread/start', async (params) => {
      const decision = await server.request('approval/request', { ...approval, preview: `start ${params.title}` });
      return { thread: { ...thread, title: `${params.title}: ${decision.decision}` } };
    });
    const seen: string[] = [];
    client.onRequest('approval/request', (params, ctx) => {
      seen.push(`${ctx.id}:${params.preview}`);
      return { decision: 'allow' as const };
    });
    const result = await client.request('thread/start', { title: 'T' });
    expect(result.thread.title).toBe('T: allow');
    expect(seen).toEqual(['1:start T']);
  });

  it('rejects with RpcError carrying code, message and data from an error response', async () => {
    const { client, server } = clientWithRawServer();
    const pending = client.request('thread/read', { threadId: 'x' });
    server.send({ id: 1, error: { code: -32020, message: 'Thread not found: x', data: { threadId: 'x' } } });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: ErrorCode.ThreadNotFound,
      message: 'Thread not found: x',
      data: { threadId: 'x' },
    });
  });

  it('rejects a result that does not match the outbound schema with -32603 and the issues', async () => {
    const { client, server } = clientWithRawServer();
    const pending = client.request('thread/start', {});
    server.send({ id: 1, result: { thread: { id: 5 } } });
    const error = (await pending.catch((e: unknown) => e)) as RpcError;
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toContain('thread/start');
    expect((error.data as { issues: { path: string[] }[] }).issues[0]?.path).toEqual(['thread', 'id']);
  });

  it('keeps unknown fields of a result (loose objects)', async () => {
    const { client, server } = clientWithRawServer();
    const pending = client.request('thread/start', {});
    server.send({ id: 1, result: { thread: { ...thread, runId: 'r' }, extra: true } });
    expect(await pending).toEqual({ thread: { ...thread, runId: 'r' }, extra: true });
  });

  it('times out with RequestTimeoutError and ignores (and logs) the late response', async () => {
    const { client, server, logs } = clientWithRawServer({ requestTimeoutMs: 5 });
    const error = await client.request('model/list', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).method).toBe('model/list');
    server.send({ id: 1, result: { models: [] } });
    const second = client.request('model/list', {}, { timeoutMs: 0 });
    await server.next();
    await server.next();
    server.send({ id: 2, result: { models: [{ id: 'm' }] } });
    expect(await second).toEqual({ models: [{ id: 'm' }] });
    expect(logs.some((l) => l.includes('unknown request id 1'))).toBe(true);
  });

  it('rejects with the abort reason when the signal aborts, and ignores the late response', async () => {
    const { client, server, logs } = clientWithRawServer();
    const controller = new AbortController();
    const pending = client.request('model/list', {}, { signal: controller.signal });
    await server.next();
    const reason = new Error('user gave up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    server.send({ id: 1, result: { models: [] } });
    const next = client.request('model/list', {});
    expect(await server.next()).toMatchObject({ id: 2 });
    server.send({ id: 2, result: { models: [{ id: 'after' }] } });
    expect(await next).toEqual({ models: [{ id: 'after' }] });
    expect(logs.some((l) => l.includes('unknown request id 1'))).toBe(true);
  });

  it('does not send a request whose signal is already aborted', async () => {
    const transport = new ScriptedTransport();
    const client = new Connection(transport);
    const controller = new AbortController();
    controller.abort(new Error('no'));
    await expect(client.request('model/list', {}, { signal: controller.signal })).rejects.toThrow('no');
    expect(transport.sent).toEqual([]);
  });

  it('rejects every pending request with TransportClosedError when the transport closes mid-request', async () => {
    const { client, server } = clientWithRawServer();
    const one = client.request('model/list', {});
    const two = client.request('thread/list', {});
    await server.next();
    server.close();
    await expect(one).rejects.toBeInstanceOf(TransportClosedError);
    await expect(two).rejects.toBeInstanceOf(TransportClosedError);
    expect(client.isClosed).toBe(true);
    await expect(client.request('model/list', {})).rejects.toBeInstanceOf(TransportClosedError);
    expect(() => client.notify('initialized')).toThrow(TransportClosedError);
  });

  it('close() rejects pending requests, settles `closed` and closes the transport', async () => {
    const transport = new ScriptedTransport();
    const client = new Connection(transport);
    const pending = client.request('model/list');
    client.close();
    await expect(pending).rejects.toBeInstanceOf(TransportClosedError);
    expect(await client.closed).toBeUndefined();
    expect(transport.closed).toBe(true);
  });

  it('settles `closed` with the transport error and names it as the cause of the rejection', async () => {
    const transport = new ScriptedTransport();
    const client = new Connection(transport);
    const pending = client.request('model/list');
    const broken = new Error('pipe broke');
    transport.handlers?.onClose(broken);
    const error = (await pending.catch((e: unknown) => e)) as TransportClosedError;
    expect(error).toBeInstanceOf(TransportClosedError);
    expect(error.cause).toBe(broken);
    expect(await client.closed).toBe(broken);
  });

  it('rejects with the send error when the transport refuses the message', async () => {
    const transport = new ScriptedTransport();
    const client = new Connection(transport);
    transport.closed = true;
    await expect(client.request('model/list')).rejects.toThrow('scripted transport closed');
  });
});

describe('Connection inbound requests', () => {
  it('passes validated params with unknown fields kept and answers {id, result}', async () => {
    const { server, client } = serverWithRawClient();
    server.onRequest('thread/start', (params) => ({
      thread: { ...thread, title: params.title ?? '', cwd: String(params.extra) },
    }));
    client.send({ id: 7, method: 'thread/start', params: { title: 'T', extra: 'kept' } });
    expect(await client.next()).toEqual({ id: 7, result: { thread: { ...thread, title: 'T', cwd: 'kept' } } });
  });

  it('answers id 0 and string ids with the same id', async () => {
    const { server, client } = serverWithRawClient();
    server.onRequest('model/list', () => ({ models: [] }));
    client.send({ id: 0, method: 'model/list', params: {} });
    client.send({ id: 'abc', method: 'model/list' });
    expect(await client.next()).toEqual({ id: 0, result: { models: [] } });
    expect(await client.next()).toEqual({ id: 'abc', result: { models: [] } });
  });

  it('answers {} when a handler returns undefined, and awaits async handlers', async () => {
    const { server, client } = serverWithRawClient();
    server.onRequest('thread/unsubscribe', async () => {
      await new Promise((r) => setTimeout(r, 1));
    });
    client.send({ id: 1, method: 'thread/unsubscribe', params: { threadId: 't' } });
    expect(await client.next()).toEqual({ id: 1, result: {} });
  });

  it('answers -32602 with the Zod issues in data when params do not match the row', async () => {
    const { server, client } = serverWithRawClient();
    let called = false;
    server.onRequest('turn/start', () => {
      called = true;
      return undefined as never;
    });
    client.send({ id: 3, method: 'turn/start', params: { threadId: 42, input: [] } });
    const answer = (await client.next()) as {
      id: number;
      error: { code: number; message: string; data: { issues: { path: string[] }[] } };
    };
    expect(answer.id).toBe(3);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain('turn/start');
    expect(answer.error.data.issues.map((i) => i.path)).toEqual([['threadId'], ['input']]);
    expect(called).toBe(false);
  });

  it('answers -32601 for a method without handler, and routes it to the fallback when one is set', async () => {
    const { server, client } = serverWithRawClient();
    client.send({ id: 1, method: 'nope/nothing' });
    expect(await client.next()).toEqual({ id: 1, error: { code: -32601, message: 'Method not found: nope/nothing' } });
    server.setFallbackRequestHandler((method, params) => ({ echoed: method, params }));
    client.send({ id: 2, method: 'nope/nothing', params: [1] });
    expect(await client.next()).toEqual({ id: 2, result: { echoed: 'nope/nothing', params: [1] } });
  });

  it('answers with the code of a thrown RpcError, and -32603 for any other throw', async () => {
    const { server, client, logs } = serverWithRawClient();
    server.onRequest('thread/read', (p) => {
      throw RpcError.threadNotFound(p.threadId);
    });
    server.onRequest('model/list', () => {
      throw new Error('disk on fire');
    });
    client.send({ id: 1, method: 'thread/read', params: { threadId: 'x' } });
    client.send({ id: 2, method: 'model/list' });
    expect(await client.next()).toEqual({
      id: 1,
      error: { code: -32020, message: 'Thread not found: x', data: { threadId: 'x' } },
    });
    const internal = (await client.next()) as { error: { code: number; message: string } };
    expect(internal.error.code).toBe(-32603);
    expect(internal.error.message).toContain('disk on fire');
    expect(logs.some((l) => l.includes('disk on fire'))).toBe(true);
  });

  it('aborts the signal of running handlers when the connection closes', async () => {
    const { server, client } = serverWithRawClient();
    const aborted = new Promise<unknown>((resolve) => {
      server.onRequest('model/list', (_p, ctx) => {
        ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason));
        return new Promise(() => {});
      });
    });
    client.send({ id: 1, method: 'model/list' });
    await new Promise((r) => setTimeout(r, 0));
    server.close();
    expect(await aborted).toBeInstanceOf(TransportClosedError);
  });

  it('unregistering a handler makes its method unknown again', async () => {
    const { server, client } = serverWithRawClient();
    const off = server.onRequest('model/list', () => ({ models: [] }));
    off();
    client.send({ id: 1, method: 'model/list' });
    expect(((await client.next()) as { error: { code: number } }).error.code).toBe(-32601);
  });
});

describe('Connection malformed input', () => {
  it('answers -32700 with id null when the transport cannot decode input', () => {
    const transport = new ScriptedTransport();
    new Connection(transport);
    transport.handlers?.onDecodeError?.(new Error('Unexpected token } in JSON at position 3'));
    expect(transport.sent).toEqual([
      { id: null, error: { code: -32700, message: 'Parse error: Unexpected token } in JSON at position 3' } },
    ]);
  });

  it('answers -32600 for invalid envelopes, with the id when one can be read', () => {
    const transport = new ScriptedTransport();
    new Connection(transport);
    const deliver = (m: unknown) => transport.handlers?.onMessage(m);
    deliver(42);
    deliver(null);
    deliver({ hello: 'world' });
    deliver({ id: 9, method: 7 });
    deliver({ id: 1.5, method: 'model/list' });
    deliver({ id: { x: 1 }, method: 'model/list' });
    deliver({ id: 4 });
    deliver([]);
    const answers = transport.sent as { id: unknown; error: { code: number; message: string } }[];
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [9, -32600],
      [null, -32600],
      [null, -32600],
      [4, -32600],
      [null, -32600],
    ]);
    expect(answers[0]?.error.message).toBe('Invalid request: expected a JSON object, got number');
  });

  it('logs responses to unknown ids and error responses without id, and keeps working', async () => {
    const { client, server, logs } = clientWithRawServer();
    server.send({ id: 99, result: {} });
    server.send({ id: null, error: { code: -32700, message: 'Parse error' } });
    const pending = client.request('model/list');
    await server.next();
    server.send({ id: 1, result: { models: [] } });
    expect(await pending).toEqual({ models: [] });
    expect(logs.some((l) => l.includes('unknown request id 99'))).toBe(true);
    expect(logs.some((l) => l.includes('without a request id'))).toBe(true);
    expect(server.received).toHaveLength(1);
  });

  it('rejects a pending request whose response is malformed instead of leaving it hanging', async () => {
    const { client, server } = clientWithRawServer();
    const one = client.request('model/list');
    const two = client.request('model/list');
    await server.next();
    server.send({ id: 1, error: 'bad' });
    server.send({ id: 2, result: { models: [] }, error: { code: 1, message: 'x' } });
    await expect(one).rejects.toMatchObject({ code: -32603 });
    await expect(two).rejects.toMatchObject({ code: -32603 });
  });

  it('answers a batch nested in a batch with -32600 instead of recursing into it, and handles the rest', async () => {
    const transport = new ScriptedTransport();
    const conn = new Connection(transport);
    conn.onRequest('a', () => 'A');
    let nested: unknown = { id: 7, method: 'a' };
    for (let depth = 0; depth < 100_000; depth++) nested = [nested];
    transport.handlers?.onMessage([nested, { id: 1, method: 'a' }]);
    await new Promise((r) => setTimeout(r, 0));
    expect(transport.sent).toEqual([
      { id: null, error: { code: -32600, message: 'Invalid request: a batch cannot contain a batch' } },
      { id: 1, result: 'A' },
    ]);
  });

  it('finds no row for method names that are Object.prototype members, so they cannot crash dispatch', async () => {
    const { client, server, logs } = serverWithRawClient();
    const seen: string[] = [];
    server.onNotification('*', (_params, method) => seen.push(method));
    server.onRequest('hasOwnProperty', (params) => ({ echo: params }));
    for (const method of ['toString', '__proto__', 'constructor']) client.send({ method });
    client.send({ id: 1, method: 'hasOwnProperty', params: { x: 1 } });
    expect(await client.next()).toEqual({ id: 1, result: { echo: { x: 1 } } });
    expect(seen).toEqual(['toString', '__proto__', 'constructor']);
    expect(logs.filter((l) => l.includes('failed'))).toEqual([]);
  });

  it('handles a batch array that reaches it message by message, in order', async () => {
    const transport = new ScriptedTransport();
    const conn = new Connection(transport);
    conn.onRequest('a', () => 'A');
    conn.onRequest('b', () => 'B');
    transport.handlers?.onMessage([
      { id: 1, method: 'a' },
      { id: 2, method: 'b' },
    ]);
    await new Promise((r) => setTimeout(r, 0));
    expect(transport.sent).toEqual([
      { id: 1, result: 'A' },
      { id: 2, result: 'B' },
    ]);
  });
});
