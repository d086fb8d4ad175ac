import { Connection, createMemoryTransportPair, RpcError } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { createVvAdapter } from './vv-adapter';

/** A stand-in for vv-agent's app-server that, like the real one, refuses messages without `jsonrpc`. */
function fakeVvAgent(transport: ReturnType<typeof createMemoryTransportPair>[0]) {
  const received: Record<string, unknown>[] = [];
  const send = (m: Record<string, unknown>) => transport.send({ jsonrpc: '2.0', ...m });
  transport.start({
    onClose: () => undefined,
    onMessage: (raw) => {
      const m = raw as Record<string, unknown>;
      received.push(m);
      if (m.jsonrpc !== '2.0') {
        send({ id: m.id ?? null, error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' } });
        return;
      }
      if (m.method === 'initialize') {
        send({
          id: m.id,
          result: {
            serverInfo: { name: 'vv-agent-rs', version: '0.5.0' },
            protocolVersion: '2026-06-02',
            supportedTransports: ['stdio'],
            capabilities: { steer: true },
          },
        });
      } else if (m.method === 'turn/steer') {
        send({ id: m.id, result: { threadId: 'thread_1', turnId: 'turn_1', queued: true } });
      } else if (m.method === 'turn/start') {
        send({
          id: m.id,
          result: { turn: { id: 'turn_1', threadId: 'thread_1', status: 'running', input: [{ text: 'go' }] } },
        });
        // vv announces the approval, then asks for it, with the same params.
        const approval = {
          threadId: 'thread_1',
          turnId: 'turn_1',
          requestId: 'approval_1',
          toolName: 'bash',
          preview: 'Run cargo test',
          choices: ['allow', 'allow_session', 'deny'],
        };
        send({ method: 'approval/requested', params: approval });
        send({ id: 'approval_1', method: 'approval/request', params: approval });
      } else if (m.id === 'approval_1') {
        send({
          method: 'approval/resolved',
          params: {
            threadId: 'thread_1',
            turnId: 'turn_1',
            requestId: 'approval_1',
            decision: (m.result as { decision: string }).decision,
          },
        });
        send({
          method: 'approval/resolved',
          params: { threadId: 'thread_1', turnId: 'turn_1', requestId: 'approval_2', decision: 'timeout' },
        });
      } else if (typeof m.method === 'string' && m.id !== undefined) {
        send({ id: m.id, error: { code: -32013, message: `${m.method} is not supported` } });
      }
    },
  });
  return received;
}

describe('vv adapter', () => {
  it('adds jsonrpc on the way to vv-agent, drops it on the way back, and keeps ids and decisions', async () => {
    const [agentSide, upstream] = createMemoryTransportPair();
    const received = fakeVvAgent(agentSide);
    const client = new Connection(
      createVvAdapter(upstream, { backendId: 'vv', dataDir: '/nonexistent', log: () => undefined }),
    );
    const wire: unknown[] = [];
    client.onNotification('*', (params, method) => wire.push({ method, params }));
    client.onRequest('approval/request', (params) => {
      expect(params).toMatchObject({ requestId: 'approval_1', choices: ['allow', 'allow_session', 'deny'] });
      return { decision: 'allow_session' };
    });
    const init = await client.request('initialize', { clientInfo: { name: 't', version: '1' } });
    expect(init).toMatchObject({ serverInfo: { name: 'vv-agent-rs' }, capabilities: { steer: true } });
    client.notify('initialized');
    await client.request('turn/start', { threadId: 'thread_1', input: [{ text: 'go' }] });
    expect(
      await client.request('turn/steer', { threadId: 'thread_1', expectedTurnId: 'turn_1', input: [{ text: 'more' }] }),
    ).toEqual({ threadId: 'thread_1', turnId: 'turn_1', queued: true });
    await expect(client.request('thread/fork', { threadId: 'thread_1' })).rejects.toBeInstanceOf(RpcError);
    for (let i = 0; i < 100 && wire.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    expect(wire.map((w) => (w as { params: { decision?: string } }).params.decision)).toEqual([
      undefined,
      'allow_session',
      'timeout',
    ]);
    expect(received.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(received.find((m) => m.id === 'approval_1')).toEqual({
      jsonrpc: '2.0',
      id: 'approval_1',
      result: { decision: 'allow_session' },
    });
    expect(received.find((m) => m.method === 'initialized')).toEqual({ jsonrpc: '2.0', method: 'initialized' });
    client.close();
  });

  it('never shows the jsonrpc field to the Tether side', () => {
    const [agentSide, upstream] = createMemoryTransportPair();
    const adapter = createVvAdapter(upstream, { backendId: 'vv', dataDir: '/x', log: () => undefined });
    const out: unknown[] = [];
    adapter.start({ onMessage: (m) => out.push(m), onClose: () => undefined });
    agentSide.start({ onMessage: () => undefined, onClose: () => undefined });
    agentSide.send([
      { jsonrpc: '2.0', method: 'warning', params: { message: 'x' } },
      { jsonrpc: '2.0', id: 0, result: {} },
    ]);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(out).toEqual([
          { method: 'warning', params: { message: 'x' } },
          { id: 0, result: {} },
        ]);
        resolve();
      }, 10),
    );
  });
});
