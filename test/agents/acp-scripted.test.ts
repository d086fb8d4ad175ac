/**
 * A scripted ACP agent (test/fixtures/acp-agent.mjs, written with @agentclientprotocol/sdk) behind `tether host`:
 * every session/update kind, and history replayed from the host's journal after a restart of host and agent (the
 * agent cannot load sessions, so the journal is the only record).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostProcess } from '../host/host-process';
import {
  answerApproval,
  call,
  completedItems,
  hostFor,
  initialize,
  messagesOf,
  startTurn,
  streamedText,
  tempDir,
  turnCompleted,
} from './agent-host';

const AGENT = fileURLToPath(new URL('../fixtures/acp-agent.mjs', import.meta.url));
const hosts: HostProcess[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

function acpHost(dataHome: string): HostProcess {
  const h = hostFor(
    'scripted',
    { argv: [process.execPath, AGENT], dialect: 'acp', cwd: tempDir('acp-work') },
    { XDG_DATA_HOME: dataHome },
  );
  hosts.push(h);
  return h;
}

describe('scripted ACP agent through tether host', () => {
  it('shows every session/update kind as items and deltas', async () => {
    const h = acpHost(tempDir('acp-data'));
    await initialize(h);
    const { thread } = await call(h, 'thread/start', {});
    const t = await startTurn(h, thread.id, 'updates');
    expect((await turnCompleted(h, t.turnId, t.from)).params.turn.status).toBe('completed');
    const items = completedItems(h, t.from);
    expect(items.map((i) => i.type)).toEqual(['userMessage', 'reasoning', 'toolCall', 'agentMessage', 'reasoning']);
    expect(items[2]).toMatchObject({
      id: 'tc_read',
      status: 'completed',
      content: { toolName: 'Read notes.txt', result: 'hello notes' },
    });
    expect(streamedText(h, t.from)).toBe('All kinds sent.');
    expect(
      messagesOf(h, 'item/reasoning/delta', t.from)
        .map((m) => m.params.delta)
        .join(''),
    ).toBe('Thinking hard.');
    const read = await call(h, 'thread/read', { threadId: thread.id });
    expect(read.thread.title).toBe('Every update kind');
  });

  it('replays a thread from the host journal after host and agent restart', async () => {
    const dataHome = tempDir('acp-data');
    const first = acpHost(dataHome);
    await initialize(first);
    const { thread } = await call(first, 'thread/start', {});
    const a = await startTurn(first, thread.id, 'hello');
    await turnCompleted(first, a.turnId, a.from);
    const b = await startTurn(first, thread.id, 'permission');
    await answerApproval(first, 'allow', b.from);
    await turnCompleted(first, b.turnId, b.from);
    first.closeInput();
    await first.exited;

    const second = acpHost(dataHome);
    await initialize(second);
    const list = await call(second, 'thread/list', {});
    expect(list.threads.map((x: { id: string }) => x.id)).toEqual([thread.id]);
    const resumed = await call(second, 'thread/resume', { threadId: thread.id });
    expect(resumed.items.map((i: { type: string; status: string }) => `${i.type}:${i.status}`)).toEqual([
      'userMessage:completed',
      'agentMessage:completed',
      'userMessage:completed',
      'toolCall:completed',
      'agentMessage:completed',
    ]);
    expect(resumed.items[1].content.text).toBe('You said: hello');
    expect(resumed.items[4].content.text).toBe('ran (yes)');
    const c = await startTurn(second, thread.id, 'again');
    await turnCompleted(second, c.turnId, c.from);
    expect(streamedText(second, c.from)).toBe('You said: again');
    const read = await call(second, 'thread/read', { threadId: thread.id });
    expect(read.items).toHaveLength(7);
  });
});
