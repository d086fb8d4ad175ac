import { Connection, ErrorCode, RpcError, serverInbound } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { RawClient } from '../app-server/testing/raw-client';
import { type Handlers, MAX_EARLY_NOTIFICATIONS, SessionGate } from './gate';

const init = { clientInfo: { name: 't', version: '1' } };
const result = {
  serverInfo: { name: 's', version: '1' },
  protocolVersion: '1',
  supportedTransports: ['stdio'],
  capabilities: {},
};

/** A gate serving `handlers` on a connection, with a raw client on the other end. */
function serve(handlers: Partial<Handlers> = {}) {
  const logs: string[] = [];
  let connection: Connection<typeof serverInbound> | undefined;
  const gate = new SessionGate({
    send: (method, params) => connection?.notify(method, params),
    unsupported: (method) => RpcError.unsupported(method, 'test'),
    log: (line) => logs.push(line),
  });
  const client = new RawClient({
    connect: (transport) => {
      connection = new Connection(transport, { inbound: serverInbound });
      gate.serve(connection, { initialize: () => result, ...handlers });
    },
  });
  return { gate, client, logs };
}

describe('session gate', () => {
  it('answers -32010 before initialize and -32011 for a second one', async () => {
    const { client } = serve({ 'thread/list': () => ({ threads: [] }) });
    client.send({ id: 1, method: 'thread/list', params: {} });
    client.send({ id: 2, method: 'no/such/method' });
    client.send({ id: 3, method: 'initialize', params: init });
    client.send({ id: 4, method: 'initialize', params: init });
    client.send({ id: 5, method: 'thread/list', params: {} });
    const answers = [
      await client.next(),
      await client.next(),
      await client.next(),
      await client.next(),
      await client.next(),
    ];
    expect(answers).toMatchObject([
      { id: 1, error: { code: ErrorCode.NotInitialized } },
      { id: 2, error: { code: ErrorCode.NotInitialized } },
      { id: 3, result },
      { id: 4, error: { code: ErrorCode.AlreadyInitialized } },
      { id: 5, result: { threads: [] } },
    ]);
  });

  it('lets a client try initialize again after it failed, and answers -32010 while it runs', async () => {
    let attempt = 0;
    let finish: (() => void) | undefined;
    const { client } = serve({
      initialize: () => {
        if (++attempt === 1) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for initialize: no');
        return new Promise((resolve) => (finish = () => resolve(result)));
      },
      'thread/list': () => ({ threads: [] }),
    });
    client.send({ id: 1, method: 'initialize', params: init });
    expect(await client.next()).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidParams } });
    client.send({ id: 2, method: 'initialize', params: init });
    client.send({ id: 3, method: 'thread/list', params: {} });
    expect(await client.next()).toMatchObject({ id: 3, error: { code: ErrorCode.NotInitialized } });
    finish!();
    expect(await client.next()).toMatchObject({ id: 2, result });
  });

  it('answers -32013 for a method of the protocol the backend lacks and -32601 for one the protocol lacks', async () => {
    const { client } = serve();
    client.send({ id: 1, method: 'initialize', params: init });
    client.send({
      id: 2,
      method: 'turn/steer',
      params: { threadId: 't', expectedTurnId: 'u', input: [{ text: 'x' }] },
    });
    client.send({ id: 3, method: 'toString' });
    expect(await client.next()).toMatchObject({ id: 1, result });
    expect(await client.next()).toMatchObject({
      id: 2,
      error: { code: ErrorCode.Unsupported, message: 'turn/steer is not supported by the test backend' },
    });
    expect(await client.next()).toMatchObject({ id: 3, error: { code: ErrorCode.MethodNotFound } });
  });

  it(`keeps ${MAX_EARLY_NOTIFICATIONS} notifications before initialized, says once that it drops the rest, and sends the kept ones in order`, async () => {
    const { gate, client, logs } = serve();
    gate.notify('warning', { message: 'before initialize' });
    client.send({ id: 1, method: 'initialize', params: init });
    expect(await client.next()).toMatchObject({ id: 1 });
    for (let i = 1; i < MAX_EARLY_NOTIFICATIONS + 5; i++) gate.notify('warning', { message: String(i) });
    expect(logs).toEqual([`no "initialized" yet; dropping notifications past ${MAX_EARLY_NOTIFICATIONS}`]);
    client.send({ method: 'initialized' });
    const first = await client.next();
    expect(first).toEqual({ method: 'warning', params: { message: 'before initialize' } });
    for (let i = 1; i < MAX_EARLY_NOTIFICATIONS; i++)
      expect(await client.next()).toEqual({ method: 'warning', params: { message: String(i) } });
    gate.notify('warning', { message: 'live' });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'live' } });
  });

  it('ignores initialized sent before initialize', async () => {
    const { gate, client } = serve();
    client.send({ method: 'initialized' });
    gate.notify('warning', { message: 'early' });
    client.send({ id: 1, method: 'initialize', params: init });
    expect(await client.next()).toMatchObject({ id: 1 });
    client.send({ method: 'initialized' });
    expect(await client.next()).toEqual({ method: 'warning', params: { message: 'early' } });
  });

  it('drops opted-out notifications and holds a thread, or everything, until released, keeping order', async () => {
    const { gate, client } = serve();
    client.send({
      id: 1,
      method: 'initialize',
      params: { ...init, capabilities: { optOutNotificationMethods: ['item/agentMessage/delta'] } },
    });
    client.send({ method: 'initialized' });
    expect(await client.next()).toMatchObject({ id: 1 });
    const releaseA = gate.hold('a');
    const releaseAll = gate.hold();
    gate.notify('thread/archived', { threadId: 'a' }, 'a');
    gate.notify('item/agentMessage/delta', { threadId: 'b', turnId: 'u', itemId: 'i', delta: 'x' }, 'b');
    gate.notify('thread/archived', { threadId: 'b' }, 'b');
    releaseAll();
    releaseAll();
    gate.notify('thread/unarchived', { threadId: 'a' }, 'a');
    releaseA();
    gate.notify('warning', { message: 'end' });
    const got = [await client.next(), await client.next(), await client.next(), await client.next()];
    expect(
      got.map((m) => [(m as { method: string }).method, (m as { params: { threadId?: string } }).params.threadId]),
    ).toEqual([
      ['thread/archived', 'b'],
      ['thread/archived', 'a'],
      ['thread/unarchived', 'a'],
      ['warning', undefined],
    ]);
  });
});
