/**
 * Ready-made backend entries for agents people already use, so `tether install`, `tether doctor` and the options page
 * can offer them: each preset is a `command` backend of the config file with its dialect.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename, posix, win32 } from 'node:path';
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
  /** How to get the command when it is missing. */
  readonly install: string;
  /**
   * What the agent needs to sign in, said when it reports missing credentials and by `tether doctor`; `env` names
   * where its variables go (e.g. `backends.claude.env`).
   */
  readonly signIn: (env: string) => string;
  /** Variables the config entry sets for the agent. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The presets, in the order they are offered. */
export const BACKEND_PRESETS: readonly BackendPreset[] = [
  {
    id: 'codex',
    label: 'OpenAI Codex',
    argv: ['codex', 'app-server'],
    dialect: 'codex',
    install: 'npm install -g @openai/codex',
    signIn: (env) => `run \`codex login\`, or set OPENAI_API_KEY in ${env}`,
  },
  {
    id: 'copilot',
    label: 'GitHub Copilot CLI',
    argv: ['copilot', '--acp'],
    dialect: 'acp',
    install: 'npm install -g @github/copilot',
    signIn: (env) =>
      `run \`copilot login\`, or set COPILOT_GITHUB_TOKEN (a token with the Copilot Requests permission) in ${env}`,
  },
  {
    id: 'claude',
    label: 'Claude Code (ACP)',
    argv: ['claude-code-acp'],
    dialect: 'acp',
    install: 'npm install -g @zed-industries/claude-code-acp',
    signIn: (env) =>
      `set ANTHROPIC_API_KEY in ${env}, or run \`claude /login\` in a terminal (Claude Code: npm install -g @anthropic-ai/claude-code)`,
  },
  {
    id: 'gemini',
    label: 'Gemini CLI',
    argv: ['gemini', '--acp'],
    dialect: 'acp',
    install: 'npm install -g @google/gemini-cli',
    signIn: (env) =>
      `set GEMINI_API_KEY in ${env}, or run \`gemini\` in a terminal once and choose "Log in with Google"`,
    // Gemini relaunches itself only to raise its heap limit to half the RAM; the second Node start costs 0.5-0.7 s
    // before `initialize`, and the launcher ignores a SIGTERM sent to it alone.
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
  },
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

/** Whether a preset's command was found, and where. */
export interface PresetCheck {
  readonly preset: BackendPreset;
  /** Absolute path of argv[0], or undefined when it is not on the PATH. */
  readonly path: string | undefined;
}

/**
 * Looks up every preset's command with `lookup` (e.g. on the PATH that the browser gives the host, which is often
 * shorter than a terminal's).
 */
export async function checkPresets(
  lookup: (command: string) => string | undefined | Promise<string | undefined>,
): Promise<PresetCheck[]> {
  return Promise.all(BACKEND_PRESETS.map(async (preset) => ({ preset, path: await lookup(preset.argv[0]!) })));
}

/** Where to find commands: a PATH value and, on Windows, PATHEXT. */
export interface PathSpec {
  readonly path: string;
  readonly platform?: NodeJS.Platform;
  readonly pathext?: string;
}

/** Finds `command` on `spec.path` on this machine: the absolute path of an executable file, or undefined. */
export function findCommandOnPath(command: string, spec: PathSpec): string | undefined {
  const platform = spec.platform ?? process.platform;
  const path = platform === 'win32' ? win32 : posix;
  const extensions =
    platform === 'win32' ? ['', ...(spec.pathext ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  if (path.isAbsolute(command)) return isExecutable(command, platform) ? command : undefined;
  for (const dir of spec.path.split(platform === 'win32' ? ';' : ':')) {
    // A relative PATH entry depends on the browser's working directory: never trust it.
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, command + ext);
      if (isExecutable(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
