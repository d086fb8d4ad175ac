/**
 * The agents Tether knows, in one table: how each is started, installed, updated and signed in, how it names itself,
 * and the oldest release the adapters support. `tether install`, `tether doctor` and the options page offer them as
 * ready-made `command` backends of the config file; `agent-versions.ts` checks a running one against its row.
 */
import { basename } from 'node:path';
import type { CommandBackendConfig } from '../config/schema';

/** A known agent that Tether can sit in front of. */
export interface BackendPreset {
  /** Backend id it gets in the config file. */
  readonly id: 'codex' | 'copilot' | 'claude' | 'gemini';
  /** What to call it in a list. */
  readonly label: string;
  /** Command and arguments; argv[0] is looked up on the PATH. */
  readonly argv: readonly string[];
  readonly dialect: 'codex' | 'acp';
  /** The npm package that carries the command. */
  readonly npm: string;
  /** How to get the command when it is missing: a global install of `npm`. */
  readonly install: string;
  /** How to update it to its newest release (what a version error tells the user to run). */
  readonly update: string;
  /** What a version error calls it: the program whose version is checked (claude-code-acp, not Claude Code). */
  readonly versionName: string;
  /** `agentInfo.name` values of an ACP agent of this kind (exact, case-insensitive); Codex reports none. */
  readonly acpNames: readonly string[];
  /** The oldest version the adapter is tested with (test/support/agents-cache.ts pins these). */
  readonly oldest: string;
  /**
   * What the agent needs to sign in, said when it reports missing credentials and by `tether doctor`; `env` names
   * where its variables go (e.g. `backends.claude.env`).
   */
  readonly signIn: (env: string) => string;
  /** Variables the config entry sets for the agent. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A row with its install and update commands, both spelt from its npm package. */
function known(row: Omit<BackendPreset, 'install' | 'update'>): BackendPreset {
  const install = `npm install -g ${row.npm}`;
  return { ...row, install, update: `${install}@latest` };
}

/**
 * The agents, in the order they are offered. Each oldest version is the one the real-agent tests pin
 * (test/support/agents-cache.ts): the adapters' wire details (Codex's paged history and approval shapes, the ACP
 * agents' session listing, loading and permission options) were recorded from those releases, and no older one was
 * ever run behind Tether. Raise `oldest` when the tests pin a newer release and the adapter comes to depend on it.
 */
export const BACKEND_PRESETS: readonly BackendPreset[] = [
  known({
    id: 'codex',
    label: 'OpenAI Codex',
    argv: ['codex', 'app-server'],
    dialect: 'codex',
    npm: '@openai/codex',
    versionName: 'Codex',
    acpNames: [],
    oldest: '0.171.0',
    signIn: (env) => `run \`codex login\`, or set OPENAI_API_KEY in ${env}`,
  }),
  known({
    id: 'copilot',
    label: 'GitHub Copilot CLI',
    argv: ['copilot', '--acp'],
    dialect: 'acp',
    npm: '@github/copilot',
    versionName: 'GitHub Copilot CLI',
    acpNames: ['Copilot'],
    oldest: '1.0.102',
    signIn: (env) =>
      `run \`copilot login\`, or set COPILOT_GITHUB_TOKEN (a token with the Copilot Requests permission) in ${env}`,
  }),
  known({
    id: 'claude',
    label: 'Claude Code (ACP)',
    argv: ['claude-code-acp'],
    dialect: 'acp',
    npm: '@zed-industries/claude-code-acp',
    versionName: 'claude-code-acp',
    acpNames: ['@zed-industries/claude-code-acp'],
    oldest: '0.16.2',
    signIn: (env) =>
      `set ANTHROPIC_API_KEY in ${env}, or run \`claude /login\` in a terminal (Claude Code: npm install -g @anthropic-ai/claude-code)`,
  }),
  known({
    id: 'gemini',
    label: 'Gemini CLI',
    argv: ['gemini', '--acp'],
    dialect: 'acp',
    npm: '@google/gemini-cli',
    versionName: 'Gemini CLI',
    acpNames: ['gemini-cli'],
    oldest: '0.61.0',
    signIn: (env) =>
      `set GEMINI_API_KEY in ${env}, or run \`gemini\` in a terminal once and choose "Log in with Google"`,
    // Gemini relaunches itself only to raise its heap limit to half the RAM; the second Node start costs 0.5-0.7 s
    // before `initialize`, and the launcher ignores a SIGTERM sent to it alone.
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
  }),
];

/** The preset with this id, if any. */
export function findPreset(id: string): BackendPreset | undefined {
  return BACKEND_PRESETS.find((p) => p.id === id);
}

/** The config entry (`backends.<id>`) for a preset; `command` replaces argv[0] (e.g. with an absolute path). */
export function presetBackendConfig(preset: BackendPreset, command?: string): CommandBackendConfig {
  const [first, ...rest] = preset.argv;
  return {
    kind: 'command',
    argv: [command ?? first!, ...rest],
    dialect: preset.dialect,
    description: preset.label,
    ...(preset.env ? { env: { ...preset.env } } : {}),
  };
}

/**
 * The preset a running agent is, judged by its backend id, its command's file name or the name it gives itself in
 * `initialize` (e.g. "@zed-industries/claude-code-acp", "gemini-cli", "Copilot"), if any.
 */
export function presetOf(agent: {
  backendId: string;
  command?: string;
  agentName?: string;
}): BackendPreset | undefined {
  const command = agent.command ? basename(agent.command).replace(/\.(cmd|exe|js|mjs)$/i, '') : undefined;
  const name = agent.agentName?.toLowerCase() ?? '';
  return (
    findPreset(agent.backendId) ??
    BACKEND_PRESETS.find((p) => p.argv[0] === command) ??
    BACKEND_PRESETS.find((p) => name.includes(p.id))
  );
}
