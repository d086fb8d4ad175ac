/**
 * The real GitHub Copilot CLI in ACP mode (npm @github/copilot, pinned) behind `tether host` with the acp dialect,
 * against a mock Chat Completions endpoint on 127.0.0.1 and a temporary HOME (no login).
 */
import { describe, expect, it } from 'vitest';
import { COPILOT_PACKAGE } from '../support/agents-cache';
import { type ChatRequestBody, contentText, startMockChatCompletions } from '../support/mock-chat-completions';
import { agentHosts, agentSuite, answerToolCall, PAGE_TOOLS, tempDir } from './agent-host';

const copilot = agentSuite('copilot', COPILOT_PACKAGE, startMockChatCompletions, () => tempDir('copilot-home'));
const copilotHost = agentHosts('copilot', () => ({
  backend: {
    argv: [copilot.bin, '--acp'],
    cwd: copilot.workDir,
    dialect: 'acp',
    env: { HOME: copilot.home, COPILOT_PROVIDER_BASE_URL: copilot.mock.baseUrl, COPILOT_MODEL: 'gpt-4.1' },
  },
}));

describe('real Copilot CLI (ACP) through tether host', () => {
  it('streams an answer', async () => {
    const h = copilotHost();
    const info = await h.initialize();
    expect(info.serverInfo).toEqual({ name: 'Copilot', version: COPILOT_PACKAGE.version });
    expect(info.capabilities).toMatchObject({ approvalRequests: true, steer: false, clientTools: false });
    const { thread } = await h.call('thread/start', {});
    copilot.mock.enqueue({ kind: 'text', text: 'Copilot streams through Tether.', chunks: 5 });
    const t = await h.startTurn(thread.id, 'Say hello');
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn.status).toBe('completed');
    expect(h.streamedText(t.from)).toBe('Copilot streams through Tether.');
    expect(h.messagesOf('item/agentMessage/delta', t.from).length).toBeGreaterThanOrEqual(5);
    const read = await h.call('thread/read', { threadId: thread.id });
    expect(read.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say hello'],
      ['agentMessage', 'Copilot streams through Tether.'],
    ]);
  });

  it('keeps the title the client gave when Copilot names the session after the first prompt', async () => {
    const h = copilotHost();
    await h.initialize();
    const titled = (await h.call('thread/start', { title: 'Given by the client' })).thread;
    const untitled = (await h.call('thread/start', {})).thread;
    for (const thread of [titled, untitled]) {
      copilot.mock.enqueue({ kind: 'text', text: 'Named or not.', chunks: 2 });
      const t = await h.startTurn(thread.id, 'Plan a trip to Bergen');
      await h.turnCompleted(t.turnId, t.from);
    }
    const titleOf = async (id: string) => (await h.call('thread/read', { threadId: id })).thread.title as string;
    // Copilot names each session after its first prompt (session_info_update, as its recorded transcripts show): the
    // untitled thread takes that name, the client's title stays.
    await expect.poll(() => titleOf(untitled.id), { timeout: 20_000 }).toBe('Plan a trip to Bergen');
    expect(await titleOf(titled.id)).toBe('Given by the client');
  });

  it('runs a shell command the user allows and not one the user denies', async () => {
    const h = copilotHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});

    copilot.mock.enqueue({
      kind: 'toolCall',
      name: 'bash',
      arguments: { command: 'echo tether-allowed', description: 'echo' },
    });
    const allowed = await h.startTurn(thread.id, 'Run echo');
    const asked = await h.answerApproval('allow', allowed.from);
    expect(asked).toMatchObject({
      threadId: thread.id,
      turnId: allowed.turnId,
      choices: ['allow', 'allow_session', 'deny'],
    });
    expect(asked.preview).toContain('echo tether-allowed');
    await h.turnCompleted(allowed.turnId, allowed.from);
    const ran = h.completedItems(allowed.from).find((i) => i.type === 'toolCall')!;
    expect(ran.status).toBe('completed');
    expect(ran.content.result).toContain('tether-allowed');

    copilot.mock.enqueue({
      kind: 'toolCall',
      name: 'bash',
      arguments: { command: 'echo tether-denied', description: 'echo' },
    });
    const denied = await h.startTurn(thread.id, 'Run echo again');
    await h.answerApproval('deny', denied.from);
    await h.turnCompleted(denied.turnId, denied.from);
    const skipped = h.completedItems(denied.from).find((i) => i.type === 'toolCall')!;
    expect(skipped.status).toBe('declined');
    expect(JSON.stringify(skipped.content.result ?? '')).not.toContain('tether-denied\\n');
    expect(h.messagesOf('approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow', 'deny']);
  });

  it('cancels a streaming turn and a turn waiting on a permission', async () => {
    const h = copilotHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});
    copilot.mock.enqueue({ kind: 'slow', text: 'y'.repeat(200), chunks: 200, chunkDelayMs: 50 });
    const slow = await h.startTurn(thread.id, 'Talk slowly');
    await h.waitFor((m) => m.method === 'item/agentMessage/delta', 60_000, slow.from);
    await h.call('turn/interrupt', { threadId: thread.id, turnId: slow.turnId });
    expect((await h.turnCompleted(slow.turnId, slow.from)).params.turn.status).toBe('interrupted');

    copilot.mock.enqueue({ kind: 'toolCall', name: 'bash', arguments: { command: 'echo never', description: 'echo' } });
    const waiting = await h.startTurn(thread.id, 'Run and cancel');
    await h.waitFor((m) => m.method === 'approval/request', 60_000, waiting.from);
    await h.call('turn/interrupt', { threadId: thread.id, turnId: waiting.turnId });
    expect((await h.turnCompleted(waiting.turnId, waiting.from)).params.turn.status).toBe('interrupted');
    expect(h.messagesOf('approval/resolved', waiting.from).map((m) => m.params.decision)).toEqual(['cancelled']);
  });

  it("reads the page through Tether's MCP server: tether-page_read becomes item/tool/call, and the page text reaches the model", async () => {
    const h = copilotHost();
    const info = await h.initialize({ clientTools: PAGE_TOOLS });
    expect(info.capabilities.clientTools).toBe(true);
    const { thread } = await h.call('thread/start', {});
    const before = copilot.mock.requests.length;
    copilot.mock.enqueue({ kind: 'toolCall', name: 'tether-page_read', arguments: { maxChars: 2000 } });
    const t = await h.startTurn(thread.id, 'Read the page');
    const call = await answerToolCall(
      h,
      { success: true, content: [{ type: 'text', text: 'PAGE TEXT: Example Domain, for use in examples.' }] },
      t.from,
    );
    expect(call).toMatchObject({
      threadId: thread.id,
      turnId: t.turnId,
      tool: 'page_read',
      arguments: { maxChars: 2000 },
    });
    expect((await h.turnCompleted(t.turnId, t.from)).params.turn.status).toBe('completed');
    const bodies = chatBodies(before);
    expect(bodies[0]?.tools?.map((x) => x.function?.name)).toContain('tether-page_read');
    expect(toolResults(bodies).some((r) => r.includes('PAGE TEXT: Example Domain, for use in examples.'))).toBe(true);
    // Read-only (readOnlyHint): Copilot asked nothing, and the adapter asked nothing either.
    expect(h.messagesOf('approval/request', t.from)).toEqual([]);
    const item = h.completedItems(t.from).find((i) => i.type === 'toolCall');
    expect(item?.content.toolName).toBe('tether-page_read');
  });

  it("allows Copilot's own prompt for a Tether tool at once, and the side panel's denial reaches the model as a denial", async () => {
    const h = copilotHost();
    await h.initialize({ clientTools: PAGE_TOOLS });
    const { thread } = await h.call('thread/start', {});
    const before = copilot.mock.requests.length;
    copilot.mock.enqueue({ kind: 'toolCall', name: 'tether-page_click', arguments: { ref: 'e7' } });
    const t = await h.startTurn(thread.id, 'Click the link');
    const call = await answerToolCall(
      h,
      {
        success: false,
        content: [{ type: 'text', text: 'The user did not allow page_click on https://example.com.' }],
      },
      t.from,
    );
    expect(call).toMatchObject({ threadId: thread.id, tool: 'page_click', arguments: { ref: 'e7' } });
    await h.turnCompleted(t.turnId, t.from);
    expect(
      toolResults(chatBodies(before)).some((r) =>
        r.includes('The user did not allow page_click on https://example.com.'),
      ),
    ).toBe(true);
    expect(h.messagesOf('approval/request', t.from)).toEqual([]);
  });
});

/** The Chat Completions request bodies the mock received after the first `from` requests. */
function chatBodies(from: number): ChatRequestBody[] {
  return copilot.mock.requests
    .slice(from)
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => r.body as ChatRequestBody);
}

/** The texts of every `role: "tool"` message in `bodies`. */
function toolResults(bodies: ChatRequestBody[]): string[] {
  return bodies.flatMap((b) => (b.messages ?? []).filter((m) => m.role === 'tool').map((m) => contentText(m.content)));
}
