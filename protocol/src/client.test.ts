import { describe, expect, it } from 'vitest';
import { AppServerClient } from './client';
import { Connection, hostClientInbound } from './connection';
import { RpcError, TransportClosedError } from './errors';
import { createMemoryTransportPair } from './memory-transport';
import { NotificationRecorder } from './notification-recorder';
import { rawPeer } from './test-support';

const thread = {
  id: 'thread_1',
  title: 'Investigate repo',
  model: 'deepseek-v4-pro',
  status: 'idle',
  archived: false,
  ephemeral: false,
  createdAtMs: 1780410000000,
  updatedAtMs: 1780410000001,
};
const turn = { id: 'turn_1', threadId: 'thread_1', status: 'running', input: [{ text: 'hi' }], startedAtMs: 1 };
const initializeResult = {
  serverInfo: { name: 'vv-agent-rs', version: '0.4.0' },
  protocolVersion: '2026-06-02',
  supportedTransports: ['stdio'],
  capabilities: { thread: true },
};

function setup() {
  const [a, b] = createMemoryTransportPair();
  const client = new AppServerClient(a);
  return { client, server: rawPeer(b), recorder: new NotificationRecorder(client.connection) };
}

describe('AppServerClient', () => {
  it('initializes, then sends the initialized notification', async () => {
    const { client, server } = setup();
    const pending = client.initialize({ clientInfo: { name: 'tether', version: '0.1.0' } });
    expect(await server.next()).toEqual({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'tether', version: '0.1.0' } },
    });
    server.send({ id: 1, result: initializeResult });
    expect(await pending).toEqual(initializeResult);
    expect(await server.next()).toEqual({ method: 'initialized' });
  });

  it('does not send initialized when told not to', async () => {
    const { client, server } = setup();
    const pending = client.initialize({ clientInfo: { name: 't', version: '1' } }, { sendInitialized: false });
    await server.next();
    server.send({ id: 1, result: initializeResult });
    await pending;
    const listed = client.modelList();
    expect(await server.next()).toEqual({ id: 2, method: 'model/list', params: {} });
    server.send({ id: 2, result: { models: [] } });
    await listed;
  });

  it('sends every typed method under its wire name and parses the answer', async () => {
    const { client, server } = setup();
    const steer = { threadId: 'thread_1', turnId: 'turn_1', queued: true };
    const hello = {
      hostVersion: '0.1.0',
      backend: 'embedded',
      backends: [{ id: 'embedded', kind: 'embedded', dialect: 'tether' }],
      limits: { maxOutboundFrameBytes: 1048576, maxInboundMessageBytes: 67108864, maxChunkedMessageBytes: 1e9 },
    };
    const calls: [string, () => Promise<unknown>, unknown][] = [
      ['thread/start', () => client.threadStart({ title: 'x' }), { thread }],
      ['thread/read', () => client.threadRead({ threadId: 't' }), { thread, items: [] }],
      ['thread/resume', () => client.threadResume({ threadId: 't' }), { thread, items: [], activeTurn: turn }],
      [
        'thread/history/read',
        () => client.threadHistoryRead({ threadId: 't', cursor: 'c' }),
        { items: [], olderCursor: null },
      ],
      ['thread/list', () => client.threadList(), { threads: [thread], nextCursor: null }],
      ['thread/archive', () => client.threadArchive({ threadId: 't' }), { thread }],
      ['thread/unarchive', () => client.threadUnarchive({ threadId: 't' }), { thread }],
      ['thread/fork', () => client.threadFork({ threadId: 't' }), { thread }],
      ['thread/unsubscribe', () => client.threadUnsubscribe({ threadId: 't' }), {}],
      ['turn/start', () => client.turnStart({ threadId: 't', input: [{ text: 'hi' }] }), { turn }],
      ['turn/interrupt', () => client.turnInterrupt({ threadId: 't', turnId: 'u' }), { turn }],
      ['turn/steer', () => client.turnSteer({ threadId: 't', expectedTurnId: 'u', input: [{ text: 'more' }] }), steer],
      [
        'approval/resolve',
        () => client.approvalResolve({ threadId: 't', turnId: 'u', requestId: 'a', decision: 'deny' }),
        {},
      ],
      ['schema/export', () => client.schemaExport(), { jsonSchema: {}, typescript: '' }],
      ['model/list', () => client.modelList(), { models: [{ id: 'm' }] }],
      ['bridge/hello', () => client.bridgeHello({ backend: 'embedded' }), hello],
      ['bridge/backend/restart', () => client.bridgeBackendRestart(), { backend: 'embedded' }],
    ];
    for (const [method, call, result] of calls) {
      const pending = call();
      const sent = (await server.next()) as { id: number; method: string };
      expect(sent.method).toBe(method);
      server.send({ id: sent.id, result });
      expect(await pending).toEqual(result);
    }
  });

  it('rejects an answer that does not match the result schema', async () => {
    const { client, server } = setup();
    const pending = client.turnStart({ threadId: 't', input: [{ text: 'x' }] });
    await server.next();
    server.send({ id: 1, result: { turn: { id: 'turn_1' } } });
    const error = (await pending.catch((e: unknown) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect(error.message).toContain('Invalid result for turn/start');
  });

  it('answers approval requests and client tool calls through typed handlers', async () => {
    const { client, server } = setup();
    client.handle('approval/request', (p) => ({ decision: p.choices.includes('allow') ? 'allow' : 'deny' }));
    client.handle('item/tool/call', async (p) => ({
      success: true,
      content: [{ type: 'text', text: `ran ${p.tool}` }],
    }));
    server.send({
      id: 'approval_1',
      method: 'approval/request',
      params: {
        threadId: 't',
        turnId: 'u',
        requestId: 'approval_1',
        toolName: 'bash',
        preview: 'ls',
        choices: ['allow', 'deny'],
      },
    });
    server.send({
      id: 0,
      method: 'item/tool/call',
      params: { threadId: 't', turnId: 'u', callId: 'c', tool: 'page_read', arguments: {} },
    });
    expect(await server.next()).toEqual({ id: 'approval_1', result: { decision: 'allow' } });
    expect(await server.next()).toEqual({
      id: 0,
      result: { success: true, content: [{ type: 'text', text: 'ran page_read' }] },
    });
  });

  it('waits for a notification that arrived together with the response', async () => {
    const { client, server, recorder } = setup();
    const pending = client.threadStart();
    await server.next();
    server.send({ id: 1, result: { thread } });
    server.send({ method: 'thread/started', params: { thread } });
    await pending;
    const started = await recorder.waitFor('thread/started', (p) => p.thread.id === 'thread_1');
    expect(started.thread).toEqual(thread);
  });

  it('delivers typed notifications to on() until unsubscribed', async () => {
    const { client, server, recorder } = setup();
    const deltas: string[] = [];
    const off = client.on('item/agentMessage/delta', (p) => deltas.push(p.delta));
    server.send({ method: 'item/agentMessage/delta', params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 'a' } });
    server.send({
      method: 'bridge/backend/exited',
      params: { backend: 'b', code: 1, signal: null, stderrTail: [], message: 'gone' },
    });
    const exited = await recorder.waitFor('bridge/backend/exited');
    off();
    expect(deltas).toEqual(['a']);
    expect(exited.code).toBe(1);
  });

  it('wraps an existing Connection and closes it', async () => {
    const [a, b] = createMemoryTransportPair();
    const connection = new Connection(a, { inbound: hostClientInbound });
    const client = new AppServerClient(connection);
    const server = rawPeer(b);
    expect(client.connection).toBe(connection);
    const pending = client.modelList();
    await server.next();
    client.close();
    await expect(pending).rejects.toBeInstanceOf(TransportClosedError);
    expect(client.isClosed).toBe(true);
    expect(await client.closed).toBeUndefined();
  });

  it('types params and results from the method table', () => {
    const { client } = setup();
    // @ts-expect-error threadId is required
    void client.threadRead({}).catch(() => {});
    // @ts-expect-error not a notification the server sends
    client.on('thread/nothing', () => {});
    client.close();
  });
});
