/**
 * Helpers for the tests of command backends (Codex, ACP agents) shared by the daemon's browser connections: a daemon
 * of the test's own whose default backend is the agent under test, and browsers (relays) that come and go.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type AgentHost, answerToolCall, PAGE_TOOLS, withAgentCalls } from '../agents/agent-host';
import { type DaemonEnv, waitUntil } from './daemon-env';
import { daemonPerTest } from './daemon-per-test';

/** Starts daemons and browsers for the file's tests; each test's are stopped after it. */
export function sharedBackendTests() {
  const each = daemonPerTest();
  /** A browser (relay to the daemon), initialized, declaring the page tools when `tools`. */
  const browser = async (d: DaemonEnv, tools = false): Promise<AgentHost> => {
    const h = withAgentCalls(each.host({ env: d.env }));
    await h.initialize(tools ? { clientTools: PAGE_TOOLS } : undefined);
    return h;
  };
  /** A new browser that follows `threadId` (thread/resume); its messages from `mark` on came since it asked. */
  const followAgain = async (d: DaemonEnv, threadId: string, tools = false) => {
    const back = await browser(d, tools);
    const mark = back.messages.length;
    const resumed = await back.call('thread/resume', { threadId });
    return { back, mark, resumed };
  };
  return {
    /** A daemon whose default backend is `backend` (the config file's), page tools waiting `waitSeconds`. */
    daemonWith(backend: Record<string, unknown>, waitSeconds = 60): DaemonEnv {
      const d = each.daemon({ TETHER_PAGE_TOOL_WAIT: String(waitSeconds) });
      mkdirSync(join(d.dir, 'config', 'tether'), { recursive: true });
      const config = { defaultBackend: 'agent', backends: { agent: { kind: 'command', ...backend } } };
      writeFileSync(join(d.dir, 'config', 'tether', 'config.json'), JSON.stringify(config));
      return d;
    },
    browser,
    /**
     * Starts a turn saying `text` in a new thread from a browser (declaring the page tools when `tools`), which then
     * closes, once `whileOpen` (given the browser and where the turn's messages start) has resolved.
     */
    async turnLeftRunning(
      d: DaemonEnv,
      text: string,
      {
        tools = false,
        whileOpen,
      }: { tools?: boolean; whileOpen?: (first: AgentHost, from: number) => Promise<unknown> } = {},
    ): Promise<{ threadId: string; turnId: string }> {
      const first = await browser(d, tools);
      const { thread } = await first.call('thread/start', {});
      const { turnId, from } = await first.startTurn(thread.id, text);
      await whileOpen?.(first, from);
      await closeBrowser(d, first);
      return { threadId: thread.id, turnId };
    },
    followAgain,
    /**
     * A new browser (declaring the page tools) follows `threadId` and answers the page_read call of the turn left
     * running there with a page titled "Back again": the call reaches it once, and the turn completes with that title.
     */
    async pageReadAnsweredOnReturn(d: DaemonEnv, threadId: string, turnId: string): Promise<void> {
      const { back, mark } = await followAgain(d, threadId, true);
      const page = { success: true, content: [{ type: 'text', text: 'Title: Back again' }] };
      expect(await answerToolCall(back, page, mark)).toMatchObject({ threadId, turnId, tool: 'page_read' });
      expect((await back.turnCompleted(turnId, mark, 30_000)).params.turn.status).toBe('completed');
      expect(back.messagesOf('item/tool/call', mark)).toHaveLength(1);
      expect(back.streamedText(mark)).toContain('Title: Back again');
    },
  };
}

/** Closes the browser's relay and waits until the daemon has seen it go. */
export async function closeBrowser(d: DaemonEnv, h: AgentHost): Promise<void> {
  h.closeInput();
  expect((await h.exited).code).toBe(0);
  await waitUntil(() => /clients\s+0/.test(d.tether('daemon', 'status').stdout), 'the daemon to see the browser go');
}

/** The turns the daemon says are running. */
export function runningTurns(d: DaemonEnv): number {
  return Number(/running turns\s+(\d+)/.exec(d.tether('daemon', 'status').stdout)?.[1] ?? Number.NaN);
}
