/**
 * A turn in the daemon outlives the browser; what it asks of the browser meanwhile waits for one: a page-tool call
 * for a bounded time (then a tool error the model can act on), a command approval until a browser answers it.
 * Real daemon, real relays (`tether host`), a mock Chat Completions endpoint the daemon's model talks to.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostProcess } from '../host/host-process';
import { contentText, type MockChatCompletions, startMockChatCompletions } from '../support/mock-chat-completions';
import { type DaemonEnv, threadJournal, waitUntil } from './daemon-env';
import { daemonPerTest } from './daemon-per-test';

const PAGE_READ = {
  name: 'page_read',
  description: 'Reads the page',
  inputSchema: { type: 'object', properties: {} },
};
const clientInfo = { name: 'page-tool-wait-test', version: '1' };

let mock: MockChatCompletions;
let release: () => void = () => undefined;
beforeAll(async () => {
  mock = await startMockChatCompletions();
});
afterAll(() => mock.close());

const each = daemonPerTest();
// Registered after daemonPerTest's, so it runs first: the mock's held answer is let go before the daemon stops.
afterEach(() => release());

/** A daemon whose embedded model is the mock, and whose page tools wait `waitSeconds` for a browser. */
function daemonFor(waitSeconds: number): DaemonEnv {
  return each.daemon({
    TETHER_PAGE_TOOL_WAIT: String(waitSeconds),
    TETHER_OPENAI_BASE_URL: mock.baseUrl,
    TETHER_OPENAI_API_KEY: 'test-key',
    TETHER_OPENAI_MODEL: 'gpt-4.1',
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  });
}

/** A browser (relay) that declares `page_read`, initialized. */
async function browser(d: DaemonEnv): Promise<HostProcess> {
  const h = each.host({ env: d.env });
  const init = await h.request('initialize', { clientInfo, capabilities: { clientTools: [PAGE_READ] } }, 20_000);
  expect(init.error).toBeUndefined();
  h.send({ method: 'initialized' });
  return h;
}

/** The model calls page_read once the test lets it, then says what the tool answered. */
function scriptPageRead(): void {
  const gate = new Promise<void>((resolve) => (release = resolve));
  mock.setScript(({ body }) => {
    const last = body.messages?.at(-1);
    if (last?.role === 'tool') return { kind: 'text', text: `The tool said: ${contentText(last.content)}` };
    return { kind: 'toolCall', name: 'page_read', arguments: {}, release: gate };
  });
}

/** Starts a turn with the browser `h`, waits until the model was asked, and closes that browser. */
async function startThenCloseBrowser(d: DaemonEnv, h: HostProcess, text: string, model?: string): Promise<string> {
  const started = await h.request('thread/start', { title: text, ...(model ? { model } : {}) });
  const threadId: string = started.result.thread.id;
  const asked = mock.requests.length;
  await h.request('turn/start', { threadId, input: [{ text }] });
  if (model) await waitUntil(() => mock.requests.length > asked, 'the model to be asked');
  h.closeInput();
  expect((await h.exited).code).toBe(0);
  await waitUntil(() => /clients\s+0/.test(d.tether('daemon', 'status').stdout), 'the daemon to see the browser go');
  return threadId;
}

const turnEnd = (d: DaemonEnv, threadId: string) =>
  threadJournal(d, threadId).find((r) => r.type === 'turn' && r.turn?.status !== 'running');
const toolCallOf = (d: DaemonEnv, threadId: string) =>
  threadJournal(d, threadId).find((r) => r.type === 'item' && r.item?.type === 'toolCall')?.item;

describe('the daemon while no browser is connected', () => {
  it('holds a page-tool call until the browser comes back, then the call goes to it and the turn goes on', async () => {
    const daemon = daemonFor(60);
    scriptPageRead();
    const threadId = await startThenCloseBrowser(daemon, await browser(daemon), 'read the page', 'openai');
    release();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(toolCallOf(daemon, threadId)).toBeUndefined();
    expect(daemon.tether('daemon', 'status').stdout).toMatch(/running turns\s+1/);

    const back = await browser(daemon);
    const call = await back.waitFor((m) => m.method === 'item/tool/call', 20_000);
    expect(call.params).toMatchObject({ threadId, tool: 'page_read' });
    back.send({ id: call.id, result: { success: true, content: [{ type: 'text', text: 'Title: Back again' }] } });
    await waitUntil(() => turnEnd(daemon, threadId) !== undefined, 'the turn to end', 20_000);
    expect(turnEnd(daemon, threadId)?.turn?.status).toBe('completed');
    expect(toolCallOf(daemon, threadId)?.content).toMatchObject({ status: 'success' });
    const answer = threadJournal(daemon, threadId).find(
      (r) => r.type === 'item' && r.item?.type === 'agentMessage',
    )?.item;
    expect(answer?.content.text).toBe('The tool said: Title: Back again');
  });

  it('fails a page-tool call with words the model can act on when no browser comes back in time', async () => {
    const daemon = daemonFor(1);
    scriptPageRead();
    const threadId = await startThenCloseBrowser(daemon, await browser(daemon), 'read the page', 'openai');
    release();
    await waitUntil(() => turnEnd(daemon, threadId) !== undefined, 'the turn to end', 20_000);
    const error: string = toolCallOf(daemon, threadId)?.content.error;
    expect(error).toContain('The browser is closed, so page_read could not run');
    expect(error).toContain('The user can reopen the browser');
    // The model got the same words as the tool's result, and answered on.
    const toolMessage = mock.requests
      .flatMap((r) => (r.body as { messages?: Array<{ role: string; content?: unknown }> }).messages ?? [])
      .filter((m) => m.role === 'tool')
      .at(-1);
    expect(contentText(toolMessage?.content)).toContain('The browser is closed');
    expect(turnEnd(daemon, threadId)?.turn?.status).toBe('completed');
  });

  it('keeps a command approval open past the page-tool wait until a browser answers it, and runs the command once', async () => {
    const daemon = daemonFor(1);
    const first = await browser(daemon);
    const marker = join(daemon.dir, 'ran.txt');
    const from = first.messages.length;
    const threadId: string = (await first.request('thread/start', { title: 'approval' })).result.thread.id;
    await first.request('turn/start', { threadId, input: [{ text: `/bash echo once >> ${marker}` }] });
    await first.waitFor((m) => m.method === 'approval/request', 15_000, from);
    first.closeInput();
    await first.exited;
    await waitUntil(
      () => /clients\s+0/.test(daemon.tether('daemon', 'status').stdout),
      'the daemon to see the browser go',
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(turnEnd(daemon, threadId)).toBeUndefined();
    expect(existsSync(marker)).toBe(false);

    const back = await browser(daemon);
    const mark = back.messages.length;
    await back.request('thread/resume', { threadId });
    const asked = await back.waitFor((m) => m.method === 'approval/request', 15_000, mark);
    expect(asked.params).toMatchObject({ threadId, toolName: 'bash' });
    back.send({ id: asked.id, result: { decision: 'allow' } });
    const done = await back.waitFor((m) => m.method === 'turn/completed', 20_000, mark);
    expect(done.params.turn.status).toBe('completed');
    expect(readFileSync(marker, 'utf8')).toBe('once\n');
  });
});
