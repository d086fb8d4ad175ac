/**
 * An agent older than the adapter supports, behind `tether host`: `initialize` fails -32050 with a message naming the
 * older side and the command that updates it, which the extension shows as the reason it could not connect. Played by
 * the scripted ACP agent (test/fixtures/acp-agent.mjs) reporting another release, and by a Codex stand-in answering
 * the recorded handshake with an older userAgent (test/fixtures/codex-agent.mjs).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { logsOf } from '../host/host-process';
import { type AgentHost, agentHosts, tempDir } from './agent-host';

const ACP_AGENT = fileURLToPath(new URL('../fixtures/acp-agent.mjs', import.meta.url));
const CODEX_AGENT = fileURLToPath(new URL('../fixtures/codex-agent.mjs', import.meta.url));
const CODEX_TRANSCRIPT = fileURLToPath(new URL('../fixtures/codex/text.jsonl', import.meta.url));

/** The scripted ACP agent playing another release (`--name`, `--version`, `--protocol`). */
const acpHost = agentHosts('copilot', (...played: string[]) => ({
  backend: { argv: [process.execPath, ACP_AGENT, ...played], dialect: 'acp', cwd: tempDir('versions-work') },
  env: { XDG_DATA_HOME: tempDir('versions-data') },
}));
/** A Codex stand-in answering the recorded handshake, with `userAgent` in place of the recorded one. */
const codexHost = agentHosts('codex', (userAgent?: string) => ({
  backend: {
    argv: [process.execPath, CODEX_AGENT, CODEX_TRANSCRIPT, ...(userAgent ? [userAgent] : [])],
    dialect: 'codex',
  },
  env: { XDG_DATA_HOME: tempDir('versions-data') },
}));

/** What the host (and the daemon serving it) logged so far. */
function hostLog(h: AgentHost): string {
  return logsOf(h);
}

/** The error `initialize` is answered with. */
async function initializeError(h: AgentHost): Promise<{ code: number; message: string; data?: any }> {
  const answer = await h.request(
    'initialize',
    { clientInfo: { name: 'tether-agent-tests', version: '1.0.0' } },
    30_000,
  );
  expect(answer.result).toBeUndefined();
  return answer.error;
}

describe('agents older than the adapter supports, through tether host', () => {
  it('refuses an ACP agent older than its oldest supported release, saying how to update it', async () => {
    const error = await initializeError(acpHost('--name', 'Copilot', '--version', '1.0.50'));
    expect(error.code).toBe(-32050);
    expect(error.message).toBe(
      'Backend unavailable: GitHub Copilot CLI 1.0.50 is older than 1.0.102, the oldest this Tether supports. Update it: npm install -g @github/copilot@latest',
    );
  });

  it('refuses an ACP agent answering another protocol version, naming the older side', async () => {
    const older = await initializeError(acpHost('--name', 'gemini-cli', '--protocol', '0'));
    expect(older.code).toBe(-32050);
    expect(older.message).toContain('so Scripted ACP agent is the older side');
    expect(older.message).toContain('Update it: npm install -g @google/gemini-cli@latest');
    const newer = await initializeError(acpHost('--protocol', '2'));
    expect(newer.message).toContain('so Tether is the older side. Update Tether: npx tether-bridge@latest install');
  });

  it('accepts an ACP agent at the oldest supported release, and one that reports an unparsable version', async () => {
    const oldest = acpHost('--name', '@zed-industries/claude-code-acp', '--version', '0.16.2');
    expect((await oldest.initialize()).serverInfo).toEqual({
      name: '@zed-industries/claude-code-acp',
      version: '0.16.2',
    });
    const odd = acpHost('--name', 'Copilot', '--version', 'nightly');
    expect((await odd.initialize()).serverInfo.version).toBe('nightly');
    await expect
      .poll(() => hostLog(odd))
      .toContain('GitHub Copilot CLI reported version "nightly", which does not parse; not checked');
    expect(await odd.call('thread/start', {})).toMatchObject({ thread: { status: 'idle' } });
  });

  it('refuses a Codex older than its oldest supported release, saying how to update it', async () => {
    const h = codexHost('tether-agent-tests/0.150.0 (Debian 12.0.0; x86_64) xterm (tether-agent-tests; 1.0.0)');
    const error = await initializeError(h);
    expect(error.code).toBe(-32050);
    expect(error.message).toBe(
      'Backend unavailable: Codex 0.150.0 is older than 0.171.0, the oldest this Tether supports. Update it: npm install -g @openai/codex@latest',
    );
    expect(error.data).toMatchObject({ olderSide: 'agent', fix: 'npm install -g @openai/codex@latest' });
  });

  it('accepts the recorded Codex 0.171.0 handshake', async () => {
    expect((await codexHost().initialize()).serverInfo).toEqual({ name: 'codex', version: '0.171.0' });
  });
});
