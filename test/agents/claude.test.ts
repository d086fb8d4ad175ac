/**
 * The real Claude Code behind Zed's ACP adapter (npm @zed-industries/claude-code-acp, pinned) through `tether host` with
 * the acp dialect, against a mock Anthropic Messages API on 127.0.0.1 and a temporary HOME (no login). Shell commands
 * touch marker files in the working directory: a file that exists proves what ran.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_ACP_PACKAGE } from '../support/agents-cache';
import { CLAUDE_OFFLINE_ENV } from '../support/agents-offline';
import {
  type AnthropicRequestBody,
  type AnthropicTurn,
  startMockAnthropicMessages,
  userTexts,
} from '../support/mock-anthropic-messages';
import {
  agentHosts,
  agentSuite,
  answerToolCall,
  expectInterruptsStreamingAndWaitingTurns,
  msToExitAfterStdinCloses,
  PAGE_TOOLS,
  tempDir,
} from './agent-host';

const claude = agentSuite('claude', CLAUDE_CODE_ACP_PACKAGE, startMockAnthropicMessages, () => tempDir('claude-home'));

const claudeHost = agentHosts('claude', (opts: { dataHome?: string; key?: boolean } = {}) => ({
  backend: {
    argv: [claude.bin],
    cwd: claude.workDir,
    dialect: 'acp',
    env: {
      HOME: claude.home,
      ANTHROPIC_BASE_URL: claude.mock.origin,
      ...(opts.key === false ? { ANTHROPIC_API_KEY: '' } : { ANTHROPIC_API_KEY: 'mock-key' }),
      // claude-code-acp asks Claude Code to bypass permissions when this is set, which it refuses as root.
      IS_SANDBOX: '',
      ...CLAUDE_OFFLINE_ENV,
    },
  },
  env: { XDG_DATA_HOME: opts.dataHome ?? tempDir('claude-data') },
}));

/** The model's turn asking Claude Code to run `command` in its shell. */
function claudeShell(command: string): AnthropicTurn {
  return { kind: 'toolUse', name: 'Bash', input: { command, description: 'mark' } };
}

/** The Messages API bodies of the agent's own requests (those with tools) after the first `from` requests. */
function agentBodies(from: number): AnthropicRequestBody[] {
  return claude.mock.requests
    .slice(from)
    .map((r) => r.body as AnthropicRequestBody)
    .filter((b) => (b?.tools?.length ?? 0) > 0);
}

describe('real Claude Code (ACP) through tether host', () => {
  it('streams an answer, names the model, lists the models and reads the thread back', async () => {
    const h = claudeHost();
    const info = await h.initialize();
    expect(info.serverInfo).toEqual({
      name: '@zed-industries/claude-code-acp',
      version: CLAUDE_CODE_ACP_PACKAGE.version,
    });
    const { thread } = await h.call('thread/start', { title: 'Given by the client' });
    expect(thread.model).toBe('default');
    const { models } = await h.call('model/list', {});
    expect(models.map((m: { id: string }) => m.id)).toContain('default');
    expect(models.find((m: { isDefault?: boolean }) => m.isDefault)?.id).toBe('default');

    claude.mock.enqueue({ kind: 'text', text: 'Claude Code streams through Tether.', chunks: 5 });
    const t = await h.startTurn(thread.id, 'Say hello');
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn.status).toBe('completed');
    expect(h.streamedText(t.from)).toBe('Claude Code streams through Tether.');
    const read = await h.call('thread/read', { threadId: thread.id });
    expect(read.thread).toMatchObject({ title: 'Given by the client', model: 'default' });
    expect(read.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say hello'],
      ['agentMessage', 'Claude Code streams through Tether.'],
    ]);

    // A model from the list: the thread runs it (session/set_model), and so does the model request.
    const other = models.find((m: { id: string }) => m.id === 'opus');
    expect(other).toBeDefined();
    const { thread: picked } = await h.call('thread/start', { model: 'opus' });
    expect(picked.model).toBe('opus');
    const before = claude.mock.requests.length;
    const u = await h.startTurn(picked.id, 'Which model?');
    await h.turnCompleted(u.turnId, u.from);
    expect(agentBodies(before).at(-1)?.model).toMatch(/opus/);
  });

  it('runs a shell command the user allows and not one the user denies, each item started once', async () => {
    const h = claudeHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});

    const allowedCommand = 'touch claude-allowed.marker && echo tether-allowed';
    claude.mock.enqueue(claudeShell(allowedCommand));
    const allowed = await h.startTurn(thread.id, 'Run the allowed command');
    const asked = await h.answerApproval('allow', allowed.from);
    expect(asked).toMatchObject({ threadId: thread.id, turnId: allowed.turnId });
    expect(asked.choices).toEqual(expect.arrayContaining(['allow', 'allow_session', 'deny']));
    // The card shows the command once (Claude's title is the command in backticks).
    expect(asked.preview.split(allowedCommand)).toHaveLength(2);
    expect(asked.arguments).toMatchObject({ command: allowedCommand });
    await h.turnCompleted(allowed.turnId, allowed.from);
    const ran = h.completedItems(allowed.from).find((i) => i.type === 'toolCall')!;
    expect(ran.status).toBe('completed');
    expect(ran.content.result).toContain('tether-allowed');
    expect(existsSync(join(claude.workDir, 'claude-allowed.marker'))).toBe(true);
    const started = h.messagesOf('item/started', allowed.from).map((m) => m.params.item.id);
    expect(new Set(started).size).toBe(started.length);

    claude.mock.enqueue(claudeShell('touch claude-denied.marker'));
    const denied = await h.startTurn(thread.id, 'Run the denied command');
    await h.answerApproval('deny', denied.from);
    await h.turnCompleted(denied.turnId, denied.from);
    const skipped = h.completedItems(denied.from).find((i) => i.type === 'toolCall')!;
    expect(skipped.status).toBe('declined');
    expect(existsSync(join(claude.workDir, 'claude-denied.marker'))).toBe(false);
    expect(h.messagesOf('approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow', 'deny']);
  });

  it('interrupts a streaming turn and a turn waiting on a permission', async () => {
    await expectInterruptsStreamingAndWaitingTurns(claudeHost(), claude, claudeShell, 'claude-never.marker');
  });

  it('resumes a thread in a new host, with the earlier turns reaching the model', async () => {
    const dataHome = tempDir('claude-data');
    const first = claudeHost({ dataHome });
    await first.initialize();
    const { thread } = await first.call('thread/start', {});
    const a = await first.startTurn(thread.id, 'Remember the word tether-pineapple');
    await first.turnCompleted(a.turnId, a.from);
    first.closeInput();
    await first.exited;

    const second = claudeHost({ dataHome });
    await second.initialize();
    const resumed = await second.call('thread/resume', { threadId: thread.id });
    expect(resumed.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Remember the word tether-pineapple'],
      ['agentMessage', 'You said: Remember the word tether-pineapple'],
    ]);
    const before = claude.mock.requests.length;
    const b = await second.startTurn(thread.id, 'Which word?');
    expect((await second.turnCompleted(b.turnId, b.from)).params.turn.status).toBe('completed');
    expect(second.streamedText(b.from)).toBe('You said: Which word?');
    expect(agentBodies(before).some((body) => userTexts(body).some((t) => t.includes('tether-pineapple')))).toBe(true);
    expect(second.messagesOf('warning', b.from)).toEqual([]);
    const read = await second.call('thread/read', { threadId: thread.id });
    expect(read.items.map((i: { type: string }) => i.type)).toEqual([
      'userMessage',
      'agentMessage',
      'userMessage',
      'agentMessage',
    ]);
  });

  it('says that Claude Code needs ANTHROPIC_API_KEY or `claude /login` when it has no key', async () => {
    const h = claudeHost({ key: false });
    await h.initialize();
    const { thread } = await h.call('thread/start', {});
    const t = await h.startTurn(thread.id, 'Hello?');
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn.status).toBe('failed');
    expect(done.params.turn.error.message).toContain('ANTHROPIC_API_KEY');
    expect(done.params.turn.error.message).toContain('claude /login');
    expect(done.params.turn.error.message).not.toContain('copilot');
  });

  it('exits within the browser’s 2 s after stdin closes, though Claude Code ignores the end of its input', async () => {
    expect(await msToExitAfterStdinCloses(claudeHost())).toBeLessThan(2000);
  });

  it("calls Tether's page tool over MCP: the model's call reaches the client as item/tool/call", async () => {
    const h = claudeHost();
    await h.initialize({ clientTools: PAGE_TOOLS });
    const { thread } = await h.call('thread/start', {});
    const before = claude.mock.requests.length;
    claude.mock.enqueue({ kind: 'toolUse', name: 'mcp__tether__page_read', input: { maxChars: 2000 } });
    const t = await h.startTurn(thread.id, 'Read the page');
    const call = await answerToolCall(
      h,
      { success: true, content: [{ type: 'text', text: 'PAGE TEXT: Example Domain.' }] },
      t.from,
    );
    expect(call).toMatchObject({ threadId: thread.id, turnId: t.turnId, tool: 'page_read' });
    expect((await h.turnCompleted(t.turnId, t.from)).params.turn.status).toBe('completed');
    const bodies = agentBodies(before);
    expect(bodies[0]?.tools?.map((x) => x.name)).toContain('mcp__tether__page_read');
    expect(JSON.stringify(bodies.at(-1)?.messages?.at(-1))).toContain('PAGE TEXT: Example Domain.');
  });
});
