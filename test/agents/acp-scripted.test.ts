/**
 * A scripted ACP agent (test/fixtures/acp-agent.mjs, written with @agentclientprotocol/sdk) behind `tether host`:
 * every session/update kind, and history replayed from the host's journal after a restart of host and agent (the
 * agent cannot load sessions, so the journal is the only record).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentHosts, tempDir } from './agent-host';

const AGENT = fileURLToPath(new URL('../fixtures/acp-agent.mjs', import.meta.url));
const acpHost = agentHosts('scripted', (dataHome: string) => ({
  backend: { argv: [process.execPath, AGENT], dialect: 'acp', cwd: tempDir('acp-work') },
  env: { XDG_DATA_HOME: dataHome },
}));

describe('scripted ACP agent through tether host', () => {
  it('shows every session/update kind as items and deltas', async () => {
    const h = acpHost(tempDir('acp-data'));
    await h.initialize();
    const { thread } = await h.call('thread/start', {});
    const t = await h.startTurn(thread.id, 'updates');
    expect((await h.turnCompleted(t.turnId, t.from)).params.turn.status).toBe('completed');
    const items = h.completedItems(t.from);
    expect(items.map((i) => i.type)).toEqual(['userMessage', 'reasoning', 'toolCall', 'agentMessage', 'reasoning']);
    expect(items[2]).toMatchObject({
      id: 'tc_read',
      status: 'completed',
      content: { toolName: 'Read notes.txt', result: 'hello notes' },
    });
    expect(h.streamedText(t.from)).toBe('All kinds sent.');
    expect(
      h
        .messagesOf('item/reasoning/delta', t.from)
        .map((m) => m.params.delta)
        .join(''),
    ).toBe('Thinking hard.');
    const read = await h.call('thread/read', { threadId: thread.id });
    expect(read.thread.title).toBe('Every update kind');
  });

  it('replays a thread from the host journal after host and agent restart', async () => {
    const dataHome = tempDir('acp-data');
    const first = acpHost(dataHome);
    await first.initialize();
    const { thread } = await first.call('thread/start', {});
    const a = await first.startTurn(thread.id, 'hello');
    await first.turnCompleted(a.turnId, a.from);
    const b = await first.startTurn(thread.id, 'permission');
    await first.answerApproval('allow', b.from);
    await first.turnCompleted(b.turnId, b.from);
    first.closeInput();
    await first.exited;

    const second = acpHost(dataHome);
    await second.initialize();
    const list = await second.call('thread/list', {});
    expect(list.threads.map((x: { id: string }) => x.id)).toEqual([thread.id]);
    const resumed = await second.call('thread/resume', { threadId: thread.id });
    expect(resumed.items.map((i: { type: string; status: string }) => `${i.type}:${i.status}`)).toEqual([
      'userMessage:completed',
      'agentMessage:completed',
      'userMessage:completed',
      'toolCall:completed',
      'agentMessage:completed',
    ]);
    expect(resumed.items[1].content.text).toBe('You said: hello');
    expect(resumed.items[4].content.text).toBe('ran (yes)');
    const c = await second.startTurn(thread.id, 'again');
    await second.turnCompleted(c.turnId, c.from);
    expect(second.streamedText(c.from)).toBe('You said: again');
    const read = await second.call('thread/read', { threadId: thread.id });
    expect(read.items).toHaveLength(7);
  });
});
