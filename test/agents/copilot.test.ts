/**
 * The real GitHub Copilot CLI in ACP mode (npm @github/copilot, pinned) behind `tether host` with the acp dialect,
 * against a mock Chat Completions endpoint on 127.0.0.1 and a temporary HOME (no login).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostProcess } from '../host/host-process';
import { COPILOT_PACKAGE, ensureAgent } from '../support/agents-cache';
import { type MockChatCompletions, startMockChatCompletions } from '../support/mock-chat-completions';
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

let copilot: string;
let mock: MockChatCompletions;
let home: string;
let workDir: string;
const hosts: HostProcess[] = [];

beforeAll(async () => {
  copilot = await ensureAgent(COPILOT_PACKAGE);
  mock = await startMockChatCompletions();
  home = tempDir('copilot-home');
  workDir = tempDir('copilot-work');
});
afterAll(async () => {
  await mock?.close();
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

function copilotHost(): HostProcess {
  const h = hostFor('copilot', {
    argv: [copilot, '--acp'],
    cwd: workDir,
    dialect: 'acp',
    env: { HOME: home, COPILOT_PROVIDER_BASE_URL: mock.baseUrl, COPILOT_MODEL: 'gpt-4.1' },
  });
  hosts.push(h);
  return h;
}

describe('real Copilot CLI (ACP) through tether host', () => {
  it('streams an answer', async () => {
    const h = copilotHost();
    const info = await initialize(h);
    expect(info.serverInfo).toEqual({ name: 'Copilot', version: COPILOT_PACKAGE.version });
    expect(info.capabilities).toMatchObject({ approvalRequests: true, steer: false, clientTools: false });
    const { thread } = await call(h, 'thread/start', {});
    mock.enqueue({ kind: 'text', text: 'Copilot streams through Tether.', chunks: 5 });
    const t = await startTurn(h, thread.id, 'Say hello');
    const done = await turnCompleted(h, t.turnId, t.from);
    expect(done.params.turn.status).toBe('completed');
    expect(streamedText(h, t.from)).toBe('Copilot streams through Tether.');
    expect(messagesOf(h, 'item/agentMessage/delta', t.from).length).toBeGreaterThanOrEqual(5);
    const read = await call(h, 'thread/read', { threadId: thread.id });
    expect(read.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say hello'],
      ['agentMessage', 'Copilot streams through Tether.'],
    ]);
  });

  it('runs a shell command the user allows and not one the user denies', async () => {
    const h = copilotHost();
    await initialize(h);
    const { thread } = await call(h, 'thread/start', {});

    mock.enqueue({
      kind: 'toolCall',
      name: 'bash',
      arguments: { command: 'echo tether-allowed', description: 'echo' },
    });
    const allowed = await startTurn(h, thread.id, 'Run echo');
    const asked = await answerApproval(h, 'allow', allowed.from);
    expect(asked).toMatchObject({
      threadId: thread.id,
      turnId: allowed.turnId,
      choices: ['allow', 'allow_session', 'deny'],
    });
    expect(asked.preview).toContain('echo tether-allowed');
    await turnCompleted(h, allowed.turnId, allowed.from);
    const ran = completedItems(h, allowed.from).find((i) => i.type === 'toolCall')!;
    expect(ran.status).toBe('completed');
    expect(ran.content.result).toContain('tether-allowed');

    mock.enqueue({ kind: 'toolCall', name: 'bash', arguments: { command: 'echo tether-denied', description: 'echo' } });
    const denied = await startTurn(h, thread.id, 'Run echo again');
    await answerApproval(h, 'deny', denied.from);
    await turnCompleted(h, denied.turnId, denied.from);
    const skipped = completedItems(h, denied.from).find((i) => i.type === 'toolCall')!;
    expect(skipped.status).toBe('declined');
    expect(JSON.stringify(skipped.content.result ?? '')).not.toContain('tether-denied\\n');
    expect(messagesOf(h, 'approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow', 'deny']);
  });

  it('cancels a streaming turn and a turn waiting on a permission', async () => {
    const h = copilotHost();
    await initialize(h);
    const { thread } = await call(h, 'thread/start', {});
    mock.enqueue({ kind: 'slow', text: 'y'.repeat(200), chunks: 200, chunkDelayMs: 50 });
    const slow = await startTurn(h, thread.id, 'Talk slowly');
    await h.waitFor((m) => m.method === 'item/agentMessage/delta', 60_000, slow.from);
    await call(h, 'turn/interrupt', { threadId: thread.id, turnId: slow.turnId });
    expect((await turnCompleted(h, slow.turnId, slow.from)).params.turn.status).toBe('interrupted');

    mock.enqueue({ kind: 'toolCall', name: 'bash', arguments: { command: 'echo never', description: 'echo' } });
    const waiting = await startTurn(h, thread.id, 'Run and cancel');
    await h.waitFor((m) => m.method === 'approval/request', 60_000, waiting.from);
    await call(h, 'turn/interrupt', { threadId: thread.id, turnId: waiting.turnId });
    expect((await turnCompleted(h, waiting.turnId, waiting.from)).params.turn.status).toBe('interrupted');
    expect(messagesOf(h, 'approval/resolved', waiting.from).map((m) => m.params.decision)).toEqual(['cancelled']);
  });
});
