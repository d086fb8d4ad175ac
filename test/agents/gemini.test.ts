/**
 * The real Gemini CLI (npm @google/gemini-cli, pinned) in ACP mode (`gemini --acp`) through `tether host` with the acp
 * dialect, against a mock Gemini API on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL` alone selects its keyless gateway auth) and
 * a temporary HOME whose settings turn usage statistics off. Shell commands touch marker files in the working directory.
 */
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEMINI_PACKAGE } from '../support/agents-cache';
import { writeGeminiOfflineSettings } from '../support/agents-offline';
import {
  declaredFunctions,
  defaultGeminiScript,
  type GeminiRequestBody,
  type GeminiTurn,
  startMockGeminiApi,
  userTexts,
} from '../support/mock-gemini-api';
import {
  agentHosts,
  agentSuite,
  answerToolCall,
  expectInterruptsStreamingAndWaitingTurns,
  msToExitAfterStdinCloses,
  PAGE_TOOLS,
  tempDir,
} from './agent-host';

/** A HOME whose Gemini settings stop its only outside call (usage statistics) and its update check. */
function geminiHome(): string {
  const home = tempDir('gemini-home');
  writeGeminiOfflineSettings(home);
  return home;
}

const gemini = agentSuite('gemini', GEMINI_PACKAGE, startMockGeminiApi, geminiHome);

const geminiHost = agentHosts(
  'gemini',
  (opts: { dataHome?: string; relaunch?: boolean; gateway?: boolean; trusted?: boolean } = {}) => ({
    backend: {
      argv: [gemini.bin, '--acp'],
      cwd: gemini.workDir,
      dialect: 'acp',
      env: {
        HOME: gemini.home,
        ...(opts.gateway === false ? { GOOGLE_GEMINI_BASE_URL: '', GEMINI_API_KEY: '' } : {}),
        ...(opts.gateway === false ? {} : { GOOGLE_GEMINI_BASE_URL: gemini.mock.origin }),
        // As the preset does: the relaunch only raises the heap limit, and costs 0.5-0.7 s of start-up.
        ...(opts.relaunch === true ? {} : { GEMINI_CLI_NO_RELAUNCH: 'true' }),
        // Gemini connects MCP servers (Tether's page tools) only in a folder the user trusts.
        ...(opts.trusted === true ? { GEMINI_CLI_TRUST_WORKSPACE: 'true' } : {}),
      },
    },
    env: { XDG_DATA_HOME: opts.dataHome ?? tempDir('gemini-data') },
  }),
);

/** The model's turn asking Gemini to run `command` in its shell. */
function geminiShell(command: string): GeminiTurn {
  return { kind: 'functionCall', name: 'run_shell_command', args: { command } };
}

/** The streaming request bodies after the first `from` requests. */
function streamBodies(from: number): GeminiRequestBody[] {
  return gemini.mock.requests
    .slice(from)
    .filter((r) => r.path.endsWith(':streamGenerateContent'))
    .map((r) => r.body as GeminiRequestBody);
}

/** Gemini's session files (`session-<UTC minute>-<short id>.jsonl`) of the working directory's project. */
function sessionFiles(): string[] {
  const tmp = join(gemini.home, '.gemini/tmp');
  return readdirSync(tmp, { recursive: true, encoding: 'utf8' })
    .filter((f) => /(^|\/)session-[^/]*\.jsonl$/.test(f))
    .map((f) => join(tmp, f));
}

/** The UTC minute as Gemini writes it in a session file name. */
function minuteStamp(at: Date): string {
  return at.toISOString().slice(0, 16).replace(/:/g, '-');
}

/** Runs turns in a new thread in a host of its own, and closes the host; resolves with the thread id. */
async function earlierTurns(dataHome: string, texts: string[]): Promise<string> {
  const first = geminiHost({ dataHome });
  await first.initialize();
  const { thread } = await first.call('thread/start', {});
  for (const text of texts) {
    const t = await first.startTurn(thread.id, text);
    await first.turnCompleted(t.turnId, t.from);
  }
  first.closeInput();
  await first.exited;
  return thread.id;
}

describe('real Gemini CLI (ACP) through tether host', () => {
  it('streams an answer, names the model, lists the models and reads the thread back', async () => {
    const h = geminiHost();
    const info = await h.initialize();
    expect(info.serverInfo.version).toBe(GEMINI_PACKAGE.version);
    const { thread } = await h.call('thread/start', { title: 'Given by the client' });
    const { models } = await h.call('model/list', {});
    expect(thread.model).not.toBe('');
    expect(models.find((m: { isDefault?: boolean }) => m.isDefault)?.id).toBe(thread.model);
    gemini.mock.enqueue({ kind: 'text', text: 'Gemini streams through Tether.', chunks: 5 });
    const t = await h.startTurn(thread.id, 'Say hello');
    const done = await h.turnCompleted(t.turnId, t.from);
    expect(done.params.turn.status).toBe('completed');
    expect(h.streamedText(t.from)).toBe('Gemini streams through Tether.');
    const read = await h.call('thread/read', { threadId: thread.id });
    expect(read.thread.title).toBe('Given by the client');
    expect(read.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Say hello'],
      ['agentMessage', 'Gemini streams through Tether.'],
    ]);

    // A model from the list (not a router): the thread runs it (session/set_model), and so does the model request.
    const other = models.find((m: { id: string }) => m.id !== thread.model && !m.id.includes('auto'));
    expect(other).toBeDefined();
    const { thread: picked } = await h.call('thread/start', { model: other.id });
    expect(picked.model).toBe(other.id);
    const before = gemini.mock.requests.length;
    const u = await h.startTurn(picked.id, 'Which model?');
    await h.turnCompleted(u.turnId, u.from);
    const streamed = gemini.mock.requests.slice(before).filter((r) => r.path.endsWith(':streamGenerateContent'));
    expect(streamed.at(-1)?.path).toBe(`/v1beta/models/${other.id}:streamGenerateContent`);
  });

  it('runs a shell command the user allows and not one the user denies; the denied call ends when denied', async () => {
    const h = geminiHost();
    await h.initialize();
    const { thread } = await h.call('thread/start', {});

    const allowedCommand = 'touch gemini-allowed.marker';
    gemini.mock.enqueue(geminiShell(allowedCommand));
    const allowed = await h.startTurn(thread.id, 'Run the allowed command');
    const asked = await h.answerApproval('allow', allowed.from);
    expect(asked).toMatchObject({
      threadId: thread.id,
      turnId: allowed.turnId,
      arguments: { command: allowedCommand },
    });
    expect(asked.preview.split(allowedCommand)).toHaveLength(2);
    await h.turnCompleted(allowed.turnId, allowed.from);
    expect(h.completedItems(allowed.from).find((i) => i.type === 'toolCall')?.status).toBe('completed');
    expect(existsSync(join(gemini.workDir, 'gemini-allowed.marker'))).toBe(true);

    gemini.mock.enqueue(geminiShell('touch gemini-denied.marker'));
    const denied = await h.startTurn(thread.id, 'Run the denied command');
    await h.answerApproval('deny', denied.from);
    const declined = await h.waitFor(
      (m) => m.method === 'item/completed' && m.params.item.type === 'toolCall',
      60_000,
      denied.from,
    );
    expect(declined.params.item.status).toBe('declined');
    // Ended when denied: before the model's answer to the denial, not at the end of the turn.
    const answerStarted = h.messages.findIndex(
      (m, i) => i >= denied.from && m.method === 'item/started' && m.params.item.type === 'agentMessage',
    );
    expect(answerStarted === -1 || h.messages.indexOf(declined) < answerStarted).toBe(true);
    await h.turnCompleted(denied.turnId, denied.from);
    expect(existsSync(join(gemini.workDir, 'gemini-denied.marker'))).toBe(false);
    expect(h.messagesOf('approval/resolved', allowed.from).map((m) => m.params.decision)).toEqual(['allow', 'deny']);
  });

  it('interrupts a streaming turn and a turn waiting on a permission', async () => {
    await expectInterruptsStreamingAndWaitingTurns(geminiHost(), gemini, geminiShell, 'gemini-never.marker');
  });

  it('resumes a thread in a new host; the replay stays out of the new turn and the earlier turns reach the model', async () => {
    const dataHome = tempDir('gemini-data');
    const earlier = ['Remember the word tether-papaya', 'And the number 42'];
    const threadId = await earlierTurns(dataHome, earlier);
    // Reopened in a later minute (Gemini names session files by the UTC minute; a reload within it clobbers the file).
    const stamp = minuteStamp(new Date(Date.now() - 5 * 60_000));
    for (const file of sessionFiles())
      renameSync(file, file.replace(/session-\d{4}-\d\d-\d\dT\d\d-\d\d-/, `session-${stamp}-`));

    const second = geminiHost({ dataHome });
    await second.initialize();
    const before = gemini.mock.requests.length;
    const b = await second.startTurn(threadId, 'Which word?');
    expect((await second.turnCompleted(b.turnId, b.from)).params.turn.status).toBe('completed');
    expect(second.messagesOf('warning', b.from)).toEqual([]);
    // Only the new turn's items: nothing replayed from the earlier one.
    expect(second.completedItems(b.from).map((i) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Which word?'],
      ['agentMessage', 'You said: Which word?'],
    ]);
    expect(streamBodies(before).some((body) => userTexts(body).some((t) => t.includes('tether-papaya')))).toBe(true);
    const read = await second.call('thread/read', { threadId });
    expect(read.items.map((i: { type: string; content: { text: string } }) => [i.type, i.content.text])).toEqual([
      ['userMessage', 'Remember the word tether-papaya'],
      ['agentMessage', 'You said: Remember the word tether-papaya'],
      ['userMessage', 'And the number 42'],
      ['agentMessage', 'You said: And the number 42'],
      ['userMessage', 'Which word?'],
      ['agentMessage', 'You said: Which word?'],
    ]);
  });

  it('reloaded within the minute the session started, says the earlier context is gone and keeps the history', async () => {
    // Far enough from the end of a minute that both hosts run within it.
    const seconds = new Date().getUTCSeconds();
    if (seconds > 50) await new Promise((r) => setTimeout(r, (61 - seconds) * 1000));
    const dataHome = tempDir('gemini-data');
    const threadId = await earlierTurns(dataHome, ['Remember the word tether-mango']);

    const second = geminiHost({ dataHome });
    await second.initialize();
    const b = await second.startTurn(threadId, 'Which word?');
    expect((await second.turnCompleted(b.turnId, b.from)).params.turn.status).toBe('completed');
    const [warning] = second.messagesOf('warning', b.from);
    expect(warning?.params.message).toContain('without the earlier context');
    // With the agent's reason: "No previous sessions found for this project." or "Invalid session identifier ...".
    expect(warning?.params.message).toMatch(/session of this thread \(Internal error: .+\): this turn/s);
    const read = await second.call('thread/read', { threadId });
    expect(read.items.map((i: { type: string }) => i.type)).toEqual([
      'userMessage',
      'agentMessage',
      'userMessage',
      'agentMessage',
    ]);
  });

  it('says that Gemini needs GEMINI_API_KEY or a Google sign-in when it has neither', async () => {
    const h = geminiHost({ gateway: false });
    await h.initialize();
    const answer = await h.request('thread/start', {}, 60_000);
    expect(answer.error.message).toContain('GEMINI_API_KEY');
    expect(answer.error.message).not.toContain('copilot');
  });

  it('exits within the browser’s 2 s after stdin closes, with the relaunching launcher too', async () => {
    expect(await msToExitAfterStdinCloses(geminiHost({ relaunch: true }))).toBeLessThan(2000);
  });

  it("calls Tether's page tool over MCP: the model's call reaches the client as item/tool/call", async () => {
    const h = geminiHost({ trusted: true });
    await h.initialize({ clientTools: PAGE_TOOLS });
    const { thread } = await h.call('thread/start', {});
    const before = gemini.mock.requests.length;
    // Gemini names an MCP tool by its own name, or server-prefixed when names clash: take whichever it declares.
    gemini.mock.setScript(({ body }) => {
      const name = declaredFunctions(body).find((n) => n.endsWith('page_read'));
      const answered = JSON.stringify(body.contents?.at(-1)).includes('functionResponse');
      return name && !answered
        ? { kind: 'functionCall', name, args: { maxChars: 2000 } }
        : { kind: 'text', text: 'The page was read.' };
    });
    try {
      const t = await h.startTurn(thread.id, 'Read the page');
      const call = await answerToolCall(
        h,
        { success: true, content: [{ type: 'text', text: 'PAGE TEXT: Example Domain.' }] },
        t.from,
      );
      expect(call).toMatchObject({ threadId: thread.id, turnId: t.turnId, tool: 'page_read' });
      expect((await h.turnCompleted(t.turnId, t.from)).params.turn.status).toBe('completed');
      expect(JSON.stringify(streamBodies(before).at(-1)?.contents?.at(-1))).toContain('PAGE TEXT: Example Domain.');
    } finally {
      gemini.mock.setScript(defaultGeminiScript);
    }
  });
});
