import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRequests, Connection, createMemoryTransportPair, ErrorCode, RpcError } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcpAdapter } from './acp-adapter';
import { asRecord, str } from './dialect-core';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An agent offering models as Claude Code does; `switchable` says whether it implements `session/set_model`. */
function agentWithModels(switchable: boolean) {
  const [agentSide, upstream] = createMemoryTransportPair();
  const agent = new Connection(agentSide, { jsonrpc: true });
  const switched: Array<{ sessionId: string; modelId: string }> = [];
  let n = 0;
  agent.onRequest('initialize', () => ({ protocolVersion: 1, agentCapabilities: {} }));
  agent.onRequest('session/new', () => ({
    sessionId: `sess-${++n}`,
    models: {
      currentModelId: 'default',
      availableModels: [
        { modelId: 'default', name: 'Default (recommended)' },
        { modelId: 'opus', name: 'Opus' },
      ],
    },
  }));
  agent.onRequest('session/set_model', (params) => {
    if (!switchable) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found: session/set_model');
    const p = asRecord(params);
    switched.push({ sessionId: str(p.sessionId) ?? '', modelId: str(p.modelId) ?? '' });
    return {};
  });
  agent.onRequest('session/prompt', () => ({ stopReason: 'end_turn' }));
  const lines: string[] = [];
  const client = new Connection(
    createAcpAdapter(upstream, {
      backendId: 'claude',
      dataDir: mkdtempSync(join(tmpdir(), 'tether-acp-models-')),
      log: (line) => lines.push(line),
    }),
  );
  closers.push(() => client.close());
  return { client, switched, lines };
}

async function ready(client: Connection) {
  await client.request('initialize', { clientInfo: { name: 'test', version: '1' } });
  client.notify('initialized');
}

describe('models of an ACP agent', () => {
  it('lists the models of the latest session, names the default, and switches a thread or a turn to another', async () => {
    const { client, switched } = agentWithModels(true);
    await ready(client);
    expect(await client.request('model/list', {})).toEqual({ models: [] });
    const start = clientRequests['thread/start'].result;
    const { thread } = start.parse(await client.request('thread/start', { cwd: tmpdir() }));
    expect(await client.request('model/list', {})).toEqual({
      models: [
        { id: 'default', displayName: 'Default (recommended)', provider: 'claude', isDefault: true },
        { id: 'opus', displayName: 'Opus', provider: 'claude', isDefault: false },
      ],
    });
    const picked = start.parse(await client.request('thread/start', { cwd: tmpdir(), model: 'opus' }));
    expect(picked.thread.model).toBe('opus');
    await client.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'hi' }], model: 'opus' });
    expect(switched).toEqual([
      { sessionId: 'sess-2', modelId: 'opus' },
      { sessionId: 'sess-1', modelId: 'opus' },
    ]);
    const read = clientRequests['thread/read'].result.parse(
      await client.request('thread/read', { threadId: thread.id }),
    );
    expect(read.thread.model).toBe('opus');
  });

  it("keeps the session's own model when the agent cannot switch, and says so in the log", async () => {
    const { client, lines } = agentWithModels(false);
    await ready(client);
    const { thread } = clientRequests['thread/start'].result.parse(
      await client.request('thread/start', { cwd: tmpdir(), model: 'opus' }),
    );
    expect(thread.model).toBe('default');
    expect(lines.some((l) => l.includes('did not switch session sess-1 to model opus'))).toBe(true);
  });
});
