/**
 * The real `codex app-server` (npm @openai/codex, pinned) behind `tether host` with the codex dialect, against a mock
 * Responses API on 127.0.0.1 and a temporary CODEX_HOME. Everything goes through framed stdio as from a browser.
 */
import { describe, expect, it } from 'vitest';
import { CODEX_PACKAGE } from '../support/agents-cache';
import { startMockResponsesApi, writeCodexHome } from '../support/mock-responses-api';
import { agentHosts, agentSuite, tempDir } from './agent-host';

const codex = agentSuite('codex', CODEX_PACKAGE, startMockResponsesApi, (mock) =>
  writeCodexHome(tempDir('codex-home'), mock.origin),
);
const codexHost = agentHosts('codex', () => ({
  backend: {
    argv: [codex.bin, 'app-server'],
    cwd: codex.workDir,
    dialect: 'codex',
    env: { CODEX_HOME: codex.home, RUST_LOG: 'error' },
  },
}));

describe('real Codex through tether host', () => {
  it('streams an answer', async () => {
    const h = codexHost();
    const info = await h.initialize();
    expect(info.serverInfo).toEqual({ name: 'codex', version: CODEX_PACKAGE.version });
    const { thread } = await h.call('thread/start', {});
    expect(thread).toMatchObject({ status: 'idle', archived: false, model: 'mock-model' });
    codex.mock.enqueue({ kind: 'text', text: 'Streaming from the mock model, piece by piece.', chunks: 6 });
    const t = await h.startTurn(thread.id, 'Say something');
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn).toMatchObject({ status: 'completed', threadId: thread.id });
    expect(h.messagesOf('item/agentMessage/delta', t.from).length).toBeGreaterThanOrEqual(6);
    expect(h.streamedText(t.from)).toBe('Streaming from the mock model, piece by piece.');
    expect(h.completedItems(t.from).map((i) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say something'],
      ['agentMessage', 'Streaming from the mock model, piece by piece.'],
    ]);
  });

  it('runs a command the user allows and skips one the user denies', async () => {
    const h = codexHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});

    codex.mock.enqueue({ kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'echo tether-allowed' } });
    const allowed = await h.startTurn(thread.id, 'Run echo');
    const asked = await h.answerApproval('allow', allowed.from);
    expect(asked).toMatchObject({ threadId: thread.id, turnId: allowed.turnId, toolName: 'shell' });
    expect(asked.preview).toContain('echo tether-allowed');
    await h.turnCompleted(allowed.turnId, allowed.from);
    const ran = h.completedItems(allowed.from).find((i) => i.type === 'toolCall')!;
    expect(ran.status).toBe('completed');
    expect(ran.content.result.output).toContain('tether-allowed');
    expect(h.messagesOf('approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow']);

    codex.mock.enqueue({ kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'echo tether-denied' } });
    const denied = await h.startTurn(thread.id, 'Run echo again');
    await h.answerApproval('deny', denied.from);
    await h.turnCompleted(denied.turnId, denied.from);
    const skipped = h.completedItems(denied.from).find((i) => i.type === 'toolCall')!;
    expect(skipped.status).toBe('declined');
    expect(skipped.content.result?.output ?? '').not.toContain('tether-denied');
    expect(h.messagesOf('approval/resolved', denied.from).map((m) => m.params.decision)).toEqual(['deny']);
  });

  it('interrupts a streaming turn', async () => {
    const h = codexHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});
    codex.mock.enqueue({ kind: 'slow', text: 'z'.repeat(300), chunks: 300, chunkDelayMs: 50 });
    const t = await h.startTurn(thread.id, 'Talk slowly');
    await h.waitFor((m) => m.method === 'item/agentMessage/delta', 60_000, t.from);
    const answer = await h.call('turn/interrupt', { threadId: thread.id, turnId: t.turnId });
    expect(answer.turn.id).toBe(t.turnId);
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn.status).toBe('interrupted');
    expect(h.streamedText(t.from).length).toBeLessThan(300);
  });

  it('lists and resumes a thread after the host restarts', async () => {
    const first = codexHost();
    await first.initialize();
    const { thread } = await first.call('thread/start', { title: 'Named by the user' });
    expect(thread.title).toBe('Named by the user');
    const t = await first.startTurn(thread.id, 'Remember tether-restart');
    await first.turnCompleted(t.turnId, t.from);
    first.closeInput();
    await first.exited;

    const second = codexHost();
    await second.initialize();
    const list = await second.call('thread/list', {});
    expect(list.threads.map((x: { id: string }) => x.id)).toContain(thread.id);
    expect(list.threads.find((x: { id: string }) => x.id === thread.id).title).toBe('Named by the user');
    const resumed = await second.call('thread/resume', { threadId: thread.id });
    expect(resumed.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Remember tether-restart'],
      ['agentMessage', 'You said: Remember tether-restart'],
    ]);
    const next = await second.startTurn(thread.id, 'And again');
    const done = await second.turnCompleted(next.turnId, next.from);
    expect(done.params.turn.status).toBe('completed');
    expect(second.streamedText(next.from)).toBe('You said: And again');
    const missing = await second.request('thread/read', { threadId: '00000000-0000-7000-8000-000000000000' });
    expect(missing.error.code).toBe(-32020);
    second.closeInput();
    await second.exited;

    // A client that goes straight to turn/start on an old thread gets it loaded by the adapter.
    const third = codexHost();
    await third.initialize();
    const direct = await third.startTurn(thread.id, 'Straight in');
    expect((await third.turnCompleted(direct.turnId, direct.from)).params.turn.status).toBe('completed');
    const read = await third.call('thread/read', { threadId: thread.id });
    expect(
      read.items
        .filter((i: { type: string }) => i.type === 'userMessage')
        .map((i: { content: { text: string } }) => i.content.text),
    ).toEqual(['Remember tether-restart', 'And again', 'Straight in']);
  });
});
