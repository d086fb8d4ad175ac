/**
 * The real `codex app-server` (npm @openai/codex, pinned) behind `tether host` with the codex dialect, against a mock
 * Responses API on 127.0.0.1 and a temporary CODEX_HOME. Everything goes through framed stdio as from a browser.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostProcess } from '../host/host-process';
import { CODEX_PACKAGE, ensureAgent } from '../support/agents-cache';
import { type MockResponsesApi, startMockResponsesApi, writeCodexHome } from '../support/mock-responses-api';
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

let codex: string;
let mock: MockResponsesApi;
let codexHome: string;
let workDir: string;
const hosts: HostProcess[] = [];

beforeAll(async () => {
  codex = await ensureAgent(CODEX_PACKAGE);
  mock = await startMockResponsesApi();
  codexHome = await writeCodexHome(tempDir('codex-home'), mock.origin);
  workDir = tempDir('codex-work');
});
afterAll(async () => {
  await mock?.close();
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

function codexHost(): HostProcess {
  const h = hostFor('codex', {
    argv: [codex, 'app-server'],
    cwd: workDir,
    dialect: 'codex',
    env: { CODEX_HOME: codexHome, RUST_LOG: 'error' },
  });
  hosts.push(h);
  return h;
}

describe('real Codex through tether host', () => {
  it('streams an answer', async () => {
    const h = codexHost();
    const info = await initialize(h);
    expect(info.serverInfo).toEqual({ name: 'codex', version: CODEX_PACKAGE.version });
    const { thread } = await call(h, 'thread/start', {});
    expect(thread).toMatchObject({ status: 'idle', archived: false, model: 'mock-model' });
    mock.enqueue({ kind: 'text', text: 'Streaming from the mock model, piece by piece.', chunks: 6 });
    const t = await startTurn(h, thread.id, 'Say something');
    const done = await turnCompleted(h, t.turnId, t.from);
    expect(done.params.turn).toMatchObject({ status: 'completed', threadId: thread.id });
    expect(messagesOf(h, 'item/agentMessage/delta', t.from).length).toBeGreaterThanOrEqual(6);
    expect(streamedText(h, t.from)).toBe('Streaming from the mock model, piece by piece.');
    expect(completedItems(h, t.from).map((i) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say something'],
      ['agentMessage', 'Streaming from the mock model, piece by piece.'],
    ]);
  });

  it('runs a command the user allows and skips one the user denies', async () => {
    const h = codexHost();
    await initialize(h);
    const { thread } = await call(h, 'thread/start', {});

    mock.enqueue({ kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'echo tether-allowed' } });
    const allowed = await startTurn(h, thread.id, 'Run echo');
    const asked = await answerApproval(h, 'allow', allowed.from);
    expect(asked).toMatchObject({ threadId: thread.id, turnId: allowed.turnId, toolName: 'shell' });
    expect(asked.preview).toContain('echo tether-allowed');
    await turnCompleted(h, allowed.turnId, allowed.from);
    const ran = completedItems(h, allowed.from).find((i) => i.type === 'toolCall')!;
    expect(ran.status).toBe('completed');
    expect(ran.content.result.output).toContain('tether-allowed');
    expect(messagesOf(h, 'approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow']);

    mock.enqueue({ kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'echo tether-denied' } });
    const denied = await startTurn(h, thread.id, 'Run echo again');
    await answerApproval(h, 'deny', denied.from);
    await turnCompleted(h, denied.turnId, denied.from);
    const skipped = completedItems(h, denied.from).find((i) => i.type === 'toolCall')!;
    expect(skipped.status).toBe('declined');
    expect(skipped.content.result?.output ?? '').not.toContain('tether-denied');
    expect(messagesOf(h, 'approval/resolved', denied.from).map((m) => m.params.decision)).toEqual(['deny']);
  });

  it('interrupts a streaming turn', async () => {
    const h = codexHost();
    await initialize(h);
    const { thread } = await call(h, 'thread/start', {});
    mock.enqueue({ kind: 'slow', text: 'z'.repeat(300), chunks: 300, chunkDelayMs: 50 });
    const t = await startTurn(h, thread.id, 'Talk slowly');
    await h.waitFor((m) => m.method === 'item/agentMessage/delta', 60_000, t.from);
    const answer = await call(h, 'turn/interrupt', { threadId: thread.id, turnId: t.turnId });
    expect(answer.turn.id).toBe(t.turnId);
    const done = await turnCompleted(h, t.turnId, t.from);
    expect(done.params.turn.status).toBe('interrupted');
    expect(streamedText(h, t.from).length).toBeLessThan(300);
  });

  it('lists and resumes a thread after the host restarts', async () => {
    const first = codexHost();
    await initialize(first);
    const { thread } = await call(first, 'thread/start', { title: 'Named by the user' });
    expect(thread.title).toBe('Named by the user');
    const t = await startTurn(first, thread.id, 'Remember tether-restart');
    await turnCompleted(first, t.turnId, t.from);
    first.closeInput();
    await first.exited;

    const second = codexHost();
    await initialize(second);
    const list = await call(second, 'thread/list', {});
    expect(list.threads.map((x: { id: string }) => x.id)).toContain(thread.id);
    expect(list.threads.find((x: { id: string }) => x.id === thread.id).title).toBe('Named by the user');
    const resumed = await call(second, 'thread/resume', { threadId: thread.id });
    expect(resumed.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Remember tether-restart'],
      ['agentMessage', 'You said: Remember tether-restart'],
    ]);
    const next = await startTurn(second, thread.id, 'And again');
    const done = await turnCompleted(second, next.turnId, next.from);
    expect(done.params.turn.status).toBe('completed');
    expect(streamedText(second, next.from)).toBe('You said: And again');
    const missing = await second.request('thread/read', { threadId: '00000000-0000-7000-8000-000000000000' });
    expect(missing.error.code).toBe(-32020);
    second.closeInput();
    await second.exited;

    // A client that goes straight to turn/start on an old thread gets it loaded by the adapter.
    const third = codexHost();
    await initialize(third);
    const direct = await startTurn(third, thread.id, 'Straight in');
    expect((await turnCompleted(third, direct.turnId, direct.from)).params.turn.status).toBe('completed');
    const read = await call(third, 'thread/read', { threadId: thread.id });
    expect(
      read.items
        .filter((i: { type: string }) => i.type === 'userMessage')
        .map((i: { content: { text: string } }) => i.content.text),
    ).toEqual(['Remember tether-restart', 'And again', 'Straight in']);
  });
});
