/**
 * Codex and ACP turns outlive the browser as embedded ones do: the daemon runs one process per agent for every
 * browser connection, a thread's notifications go to the connections that follow it, and what the agent asks of the
 * browser while none is connected waits for one (a page-tool call as long as TETHER_PAGE_TOOL_WAIT, then the same
 * words as the embedded backend's; an approval until a browser answers it). Real daemon, real relays (`tether host`),
 * real agent processes: the scripted ACP agents of test/fixtures (shared-codex.test.ts: the same for real Codex).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../agents/agent-host';
import { waitUntil } from './daemon-env';
import { runningTurns, sharedBackendTests } from './shared-backend-env';

const ACP_AGENT = fileURLToPath(new URL('../fixtures/acp-agent.mjs', import.meta.url));
const ACP_MCP_AGENT = fileURLToPath(new URL('../fixtures/acp-mcp-agent.mjs', import.meta.url));
const { daemonWith, browser, turnLeftRunning, followAgain, pageReadAnsweredOnReturn } = sharedBackendTests();

/** The scripted ACP agent that calls Tether's page tools over MCP (HTTP). */
const mcpAgent = () => ({
  argv: [process.execPath, ACP_MCP_AGENT],
  dialect: 'acp',
  cwd: tempDir('acp-mcp-work'),
  env: { ACP_AGENT_HTTP: '1' },
});

describe('an ACP agent in the daemon while no browser is connected', () => {
  it('keeps the turn and its approval open until a new browser follows the thread, which decides it once', async () => {
    const daemon = daemonWith({ argv: [process.execPath, ACP_AGENT], dialect: 'acp', cwd: tempDir('acp-work') });
    const { threadId, turnId } = await turnLeftRunning(daemon, 'permission');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runningTurns(daemon)).toBe(1);

    const { back, mark } = await followAgain(daemon, threadId);
    const asked = await back.answerApproval('allow', mark, 20_000);
    expect(asked).toMatchObject({ threadId, turnId });
    const done = await back.turnCompleted(turnId, mark, 20_000);
    expect(done.params.turn.status).toBe('completed');
    expect(back.messagesOf('approval/request', mark)).toHaveLength(1);
    expect(back.messagesOf('approval/resolved', mark).map((m) => m.params.decision)).toEqual(['allow']);
    // The agent ran the tool once, on the one answer it got.
    expect(back.streamedText(mark)).toBe('ran (yes)');
    await waitUntil(() => runningTurns(daemon) === 0, 'the daemon to count no running turn');
  });

  it("holds the agent's page-tool call (over Tether's MCP) until a new browser follows the thread and answers it", async () => {
    const daemon = daemonWith(mcpAgent());
    const { threadId, turnId } = await turnLeftRunning(daemon, 'mcp page_read {"maxChars":2000}', { tools: true });

    await pageReadAnsweredOnReturn(daemon, threadId, turnId);
  });

  it("fails a page-tool call with the embedded backend's words when no browser comes back in time", async () => {
    const daemon = daemonWith(mcpAgent(), 1);
    const { threadId } = await turnLeftRunning(daemon, 'mcp page_read {}', { tools: true });
    await waitUntil(() => runningTurns(daemon) === 0, 'the turn to end', 30_000);

    const { resumed } = await followAgain(daemon, threadId, true);
    const answer = resumed.items.find((i: { type: string }) => i.type === 'agentMessage');
    expect(answer.content.text).toContain('The browser is closed, so page_read could not run');
    expect(answer.content.text).toContain('The user can reopen the browser');
  });
});

describe('restarting an ACP agent the daemon shares', () => {
  const agent = () => ({ argv: [process.execPath, ACP_AGENT], dialect: 'acp', cwd: tempDir('acp-work') });
  const isExited = (m: { method?: string }) => m.method === 'bridge/backend/exited';

  it("is refused, with nothing stopped, while another browser's turn runs, and that turn completes", async () => {
    const daemon = daemonWith(agent());
    const a = await browser(daemon);
    const b = await browser(daemon);
    const { thread } = await a.call('thread/start', {});
    const { turnId, from } = await a.startTurn(thread.id, 'count 40 50');

    const refused = await b.request('bridge/backend/restart', {});
    expect(refused.error).toMatchObject({ code: -32022, data: { backend: 'agent', runningTurns: 1 } });
    expect(refused.error.message).toContain('Wait for them to end, or open them from History and stop them');

    const done = await a.turnCompleted(turnId, from, 30_000);
    expect(done.params.turn.status).toBe('completed');
    expect(a.streamedText(from)).toBe(Array.from({ length: 40 }, (_, i) => `${i + 1} `).join(''));
    expect(a.messages.filter(isExited)).toEqual([]);
    expect(b.messages.filter(isExited)).toEqual([]);
  });

  it('is refused while a turn runs that no browser follows, its browser having closed', async () => {
    const daemon = daemonWith(agent());
    const { threadId } = await turnLeftRunning(daemon, 'count 40 50');
    const b = await browser(daemon);

    const refused = await b.request('bridge/backend/restart', {});
    expect(refused.error).toMatchObject({ code: -32022, data: { backend: 'agent', runningTurns: 1 } });
    await waitUntil(() => runningTurns(daemon) === 0, 'the turn to end', 30_000);
    expect(b.messages.filter(isExited)).toEqual([]);
    // The turn ran to its end.
    const { resumed } = await followAgain(daemon, threadId);
    const answer = resumed.items.find((i: { type: string }) => i.type === 'agentMessage');
    expect(answer.content.text.trim()).toBe(Array.from({ length: 40 }, (_, i) => i + 1).join(' '));
  });

  it("goes through while only the restarting browser's own turn runs: the others see the agent end", async () => {
    const daemon = daemonWith(agent());
    const a = await browser(daemon);
    const b = await browser(daemon);
    await a.call('thread/start', {});
    const { thread } = await b.call('thread/start', {});
    await b.startTurn(thread.id, 'count 400 50');
    expect(runningTurns(daemon)).toBe(1);

    const restarted = await b.request('bridge/backend/restart', {});
    expect(restarted.result).toEqual({ backend: 'agent' });
    const exited = await a.waitFor(isExited, 20_000);
    expect(exited.params.message).toContain("restarted at the browser's request");
    await waitUntil(() => runningTurns(daemon) === 0, 'the daemon to count no running turn');

    // The restarted agent serves B again.
    await b.initialize();
    const again = await b.call('thread/start', {});
    const { turnId, from } = await b.startTurn(again.thread.id, 'hello');
    expect((await b.turnCompleted(turnId, from, 30_000)).params.turn.status).toBe('completed');
    expect(b.streamedText(from)).toBe('You said: hello');
  });
});
