import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientRequests,
  Connection,
  createMemoryTransportPair,
  type Item,
  serverNotifications,
} from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcpAdapter } from './acp-adapter';
import { asRecord, str } from './dialect-core';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const text = (t: string) => ({ type: 'text', text: t });
/** The text of a message item ('' for other kinds). */
const textOf = (i: Item): string => str(asRecord(i.content).text) ?? '';

/**
 * An agent that answers `session/load` as Gemini CLI 0.61.0 does: after the first replayed update, with the rest of
 * the replay `trailMs` later.
 */
function geminiLikeAgent(history: Array<{ sessionUpdate: string; text: string }>, trailMs: number) {
  const [agentSide, upstream] = createMemoryTransportPair();
  const agent = new Connection(agentSide, { jsonrpc: true });
  const replay = (sessionId: string, part: typeof history) => {
    for (const u of part)
      agent.notify('session/update', { sessionId, update: { sessionUpdate: u.sessionUpdate, content: text(u.text) } });
  };
  agent.onRequest('initialize', () => ({ protocolVersion: 1, agentCapabilities: { loadSession: true } }));
  agent.onRequest('session/new', () => ({ sessionId: 'sess-1', models: { currentModelId: 'auto' } }));
  agent.onRequest('session/load', (params) => {
    const sessionId = str(asRecord(params).sessionId) ?? '';
    replay(sessionId, history.slice(0, 1));
    setTimeout(() => replay(sessionId, history.slice(1)), trailMs);
    return {};
  });
  // The model takes longer than the replay's trail: a trailing update arrives while the new turn runs.
  agent.onRequest('session/prompt', async (params) => {
    await new Promise((r) => setTimeout(r, trailMs * 2));
    const p = asRecord(params);
    const prompt = Array.isArray(p.prompt) ? p.prompt.map(asRecord) : [];
    agent.notify('session/update', {
      sessionId: str(p.sessionId),
      update: { sessionUpdate: 'agent_message_chunk', content: text(`You said: ${str(prompt[0]?.text) ?? ''}`) },
    });
    return { stopReason: 'end_turn' };
  });
  return upstream;
}

/** A Tether client on an ACP adapter; `seen` collects its notifications. */
function client(upstream: ReturnType<typeof geminiLikeAgent>, dataDir: string) {
  const c = new Connection(createAcpAdapter(upstream, { backendId: 'gemini', dataDir, log: () => undefined }));
  const seen: Array<{ method: string; params: any }> = [];
  c.onNotification('*', (params, method) => seen.push({ method, params }));
  closers.push(() => c.close());
  const init = async () => {
    await c.request('initialize', { clientInfo: { name: 'test', version: '1' } });
    c.notify('initialized');
  };
  const turn = async (threadId: string, t: string) => {
    const from = seen.length;
    const { turn } = clientRequests['turn/start'].result.parse(
      await c.request('turn/start', { threadId, input: [{ type: 'text', text: t }] }),
    );
    for (let i = 0; i < 500 && !seen.slice(from).some((s) => s.method === 'turn/completed'); i++)
      await new Promise((r) => setTimeout(r, 10));
    return {
      id: turn.id,
      items: seen
        .slice(from)
        .filter((s) => s.method === 'item/completed')
        .map((s) => serverNotifications['item/completed'].parse(s.params).item),
    };
  };
  return { c, seen, init, turn };
}

describe('an ACP session reloaded in a new agent process', () => {
  it('keeps a replay that trails the session/load answer out of the new turn and out of the journal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-acp-replay-'));
    const first = client(geminiLikeAgent([], 0), dataDir);
    await first.init();
    const { thread } = clientRequests['thread/start'].result.parse(
      await first.c.request('thread/start', { cwd: tmpdir() }),
    );
    expect(thread.model).toBe('auto');
    await first.turn(thread.id, 'Remember papaya');
    first.c.close();

    const history = [
      { sessionUpdate: 'user_message_chunk', text: '<session_context>...</session_context>' },
      { sessionUpdate: 'user_message_chunk', text: 'Remember papaya' },
      { sessionUpdate: 'agent_message_chunk', text: '[Function Call: run_shell_command]' },
      { sessionUpdate: 'agent_message_chunk', text: 'You said: Remember papaya' },
    ];
    const second = client(geminiLikeAgent(history, 40), dataDir);
    await second.init();
    const next = await second.turn(thread.id, 'Which fruit?');
    expect(next.items.map((i) => [i.type, textOf(i)])).toEqual([
      ['userMessage', 'Which fruit?'],
      ['agentMessage', 'You said: Which fruit?'],
    ]);
    expect(second.seen.filter((s) => s.method === 'warning')).toEqual([]);
    const read = clientRequests['thread/read'].result.parse(
      await second.c.request('thread/read', { threadId: thread.id }),
    );
    expect(read.items.map(textOf)).toEqual([
      'Remember papaya',
      'You said: Remember papaya',
      'Which fruit?',
      'You said: Which fruit?',
    ]);
  });
});
