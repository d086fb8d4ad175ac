/**
 * The real Gemini CLI (npm @google/gemini-cli, pinned) in ACP mode (`gemini --acp`) through `tether host` with the acp
 * dialect, against a mock Gemini API on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL` alone selects its keyless gateway auth) and
 * a temporary HOME whose settings turn usage statistics off. Shell commands touch marker files in the working directory.
 * The scenarios are the ones every ACP agent runs (acp-agent-scenarios.ts); this row says how Gemini differs.
 */
import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../native-host/src/backends/presets';
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
import { agentHosts, agentSuite, tempDir } from './agent-host';
import { type AcpAgentRow, type AcpHostOptions, acpAgentScenarios, earlierTurns } from './acp-agent-scenarios';

/** A HOME whose Gemini settings stop its only outside call (usage statistics) and its update check. */
function geminiHome(): string {
  const home = tempDir('gemini-home');
  writeGeminiOfflineSettings(home);
  return home;
}

const gemini = agentSuite('gemini', GEMINI_PACKAGE, startMockGeminiApi, geminiHome);

const geminiHost = agentHosts('gemini', (opts: AcpHostOptions = {}) => ({
  backend: {
    argv: [gemini.bin, '--acp'],
    cwd: gemini.workDir,
    dialect: 'acp',
    env: {
      HOME: gemini.home,
      ...(opts.signedOut
        ? { GOOGLE_GEMINI_BASE_URL: '', GEMINI_API_KEY: '' }
        : { GOOGLE_GEMINI_BASE_URL: gemini.mock.origin }),
      // As the preset does: the relaunch only raises the heap limit, and costs 0.5-0.7 s of start-up.
      ...(opts.relaunch === true ? {} : { GEMINI_CLI_NO_RELAUNCH: 'true' }),
      // Gemini connects MCP servers (Tether's page tools) only in a folder the user trusts.
      ...(opts.pageTools === true ? { GEMINI_CLI_TRUST_WORKSPACE: 'true' } : {}),
    },
  },
  env: { XDG_DATA_HOME: opts.dataHome ?? tempDir('gemini-data') },
}));

/** The streaming requests (the agent's turns) after the first `from` requests. */
function streamRequests(from: number): Array<{ path: string; body: GeminiRequestBody }> {
  return gemini.mock.requests
    .slice(from)
    .filter((r) => r.path.endsWith(':streamGenerateContent'))
    .map((r) => ({ path: r.path, body: r.body as GeminiRequestBody }));
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

/** Gemini names an MCP tool by its own name, or server-prefixed when names clash: whichever it declares. */
const pageReadTool = (declared: string[]) => declared.find((n) => n.endsWith('page_read'));

const GEMINI: AcpAgentRow<GeminiTurn, GeminiRequestBody> = {
  id: 'gemini',
  name: 'Gemini',
  pkg: GEMINI_PACKAGE,
  agentName: findPreset('gemini')!.acpNames[0]!,
  agent: gemini,
  host: geminiHost,
  shell: (command) => ({ kind: 'functionCall', name: 'run_shell_command', args: { command } }),
  shellOutput: false,
  turnRequests: streamRequests,
  userTexts,
  lastMessage: (body) => body.contents?.at(-1),
  declaredTools: declaredFunctions,
  models: {
    // Gemini's default depends on the release: whichever model/list marks as the default.
    default: expect.stringMatching(/./),
    // A model from the list, not a router (auto-...).
    other: (models, current) => models.find((m) => m.id !== current && !m.id.includes('auto'))?.id,
    sent: (request) => request.path,
    sentFor: (id) => `/v1beta/models/${id}:streamGenerateContent`,
  },
  pageReadTool,
  callPageRead() {
    gemini.mock.setScript(({ body }) => {
      const name = pageReadTool(declaredFunctions(body));
      const answered = JSON.stringify(body.contents?.at(-1)).includes('functionResponse');
      return name && !answered
        ? { kind: 'functionCall', name, args: { maxChars: 2000 } }
        : { kind: 'text', text: 'The page was read.' };
    });
    return () => gemini.mock.setScript(defaultGeminiScript);
  },
  beforeReopen() {
    // Reopened in a later minute (Gemini names session files by the UTC minute; a reload within it clobbers the file).
    const stamp = minuteStamp(new Date(Date.now() - 5 * 60_000));
    for (const file of sessionFiles())
      renameSync(file, file.replace(/session-\d{4}-\d\d-\d\dT\d\d-\d\d-/, `session-${stamp}-`));
  },
  signIn: { needs: 'GEMINI_API_KEY or a Google sign-in', words: ['GEMINI_API_KEY'], failsAt: 'thread/start' },
  stdinClose: { options: { relaunch: true }, note: 'with the relaunching launcher too' },
};

describe('real Gemini CLI (ACP) through tether host', () => {
  acpAgentScenarios(GEMINI);

  it('reloaded within the minute the session started, says the earlier context is gone and keeps the history', async () => {
    // Far enough from the end of a minute that both hosts run within it: the two hosts and a real turn took 37-55 s on
    // a loaded machine, so start in the first seconds of a minute.
    const seconds = new Date().getUTCSeconds();
    if (seconds > 3) await new Promise((r) => setTimeout(r, (60 - seconds) * 1000 + 200));
    const dataHome = tempDir('gemini-data');
    const threadId = await earlierTurns(geminiHost({ dataHome }), ['Remember the word tether-mango']);

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
  }, 180_000);
});
