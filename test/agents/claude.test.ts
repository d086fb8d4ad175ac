/**
 * The real Claude Code behind Zed's ACP adapter (npm @zed-industries/claude-code-acp, pinned) through `tether host` with
 * the acp dialect, against a mock Anthropic Messages API on 127.0.0.1 and a temporary HOME (no login). Shell commands
 * touch marker files in the working directory: a file that exists proves what ran. The scenarios are the ones every ACP
 * agent runs (acp-agent-scenarios.ts); this row says how Claude Code differs.
 */
import { describe, expect } from 'vitest';
import { findPreset } from '../../native-host/src/backends/presets';
import { CLAUDE_CODE_ACP_PACKAGE } from '../support/agents-cache';
import { CLAUDE_OFFLINE_ENV } from '../support/agents-offline';
import {
  type AnthropicRequestBody,
  type AnthropicTurn,
  startMockAnthropicMessages,
  userTexts,
} from '../support/mock-anthropic-messages';
import { agentHosts, agentSuite, tempDir } from './agent-host';
import { type AcpAgentRow, type AcpHostOptions, acpAgentScenarios } from './acp-agent-scenarios';

const claude = agentSuite('claude', CLAUDE_CODE_ACP_PACKAGE, startMockAnthropicMessages, () => tempDir('claude-home'));

const claudeHost = agentHosts('claude', (opts: AcpHostOptions = {}) => ({
  backend: {
    argv: [claude.bin],
    cwd: claude.workDir,
    dialect: 'acp',
    env: {
      HOME: claude.home,
      ANTHROPIC_BASE_URL: claude.mock.origin,
      ANTHROPIC_API_KEY: opts.signedOut ? '' : 'mock-key',
      // claude-code-acp asks Claude Code to bypass permissions when this is set, which it refuses as root.
      IS_SANDBOX: '',
      ...CLAUDE_OFFLINE_ENV,
    },
  },
  env: { XDG_DATA_HOME: opts.dataHome ?? tempDir('claude-data') },
}));

/** The Messages API requests of the agent's own turns (those with tools) after the first `from` requests. */
function agentRequests(from: number): Array<{ path: string; body: AnthropicRequestBody }> {
  return claude.mock.requests
    .slice(from)
    .map((r) => ({ path: r.path, body: r.body as AnthropicRequestBody }))
    .filter((r) => (r.body?.tools?.length ?? 0) > 0);
}

const CLAUDE: AcpAgentRow<AnthropicTurn, AnthropicRequestBody> = {
  id: 'claude',
  name: 'Claude Code',
  pkg: CLAUDE_CODE_ACP_PACKAGE,
  agentName: findPreset('claude')!.acpNames[0]!,
  agent: claude,
  host: claudeHost,
  shell: (command) => ({ kind: 'toolUse', name: 'Bash', input: { command, description: 'mark' } }),
  shellOutput: true,
  turnRequests: agentRequests,
  userTexts,
  lastMessage: (body) => body.messages?.at(-1),
  declaredTools: (body) => body.tools?.map((t) => t.name) ?? [],
  models: {
    default: 'default',
    other: (models) => models.find((m) => m.id === 'opus')?.id,
    sent: (request) => request.body.model,
    // Claude Code sends the full name of the model an alias picks (claude-opus-...).
    sentFor: (id) => expect.stringMatching(id),
  },
  pageReadTool: () => 'mcp__tether__page_read',
  callPageRead() {
    claude.mock.enqueue({ kind: 'toolUse', name: 'mcp__tether__page_read', input: { maxChars: 2000 } });
    return () => undefined;
  },
  signIn: {
    needs: 'ANTHROPIC_API_KEY or `claude /login`',
    words: ['ANTHROPIC_API_KEY', 'claude /login'],
    failsAt: 'turn',
  },
  stdinClose: { options: {}, note: 'though Claude Code ignores the end of its input' },
};

describe('real Claude Code (ACP) through tether host', () => {
  acpAgentScenarios(CLAUDE);
});
