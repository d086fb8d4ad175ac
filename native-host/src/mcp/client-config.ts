/**
 * What `tether mcp --print-config` prints: the lines that add Tether to Claude Code, Codex CLI and Cursor, working as
 * printed (absolute paths, quoted for the shell where needed), and the setting that leaves asking to Tether's side
 * panel, which asks before every call. Clients start `tether mcp` with an environment of their own choosing (Codex
 * passes only HOME, PATH, LANG, SHELL, TERM and CA variables): a TETHER_RUNTIME_DIR in effect is printed into each
 * entry, since without it `tether mcp` would look for the host where this browser's host does not announce itself.
 */
import { hostDir } from '../install/locations';
import { createNodeSystem } from '../install/node-system';
import { pathFor, type System } from '../install/system';
import { TETHER_VERSION } from '../version';
import { RUNTIME_DIR_ENV } from './runtime-dir';

/**
 * The script a client should keep starting: the copy `tether install` made for this version when there is one (an
 * npx cache or a checkout may be gone tomorrow, the copy stays until uninstall), else the running script.
 */
export async function stableEntry(running: string, sys: System = createNodeSystem()): Promise<string> {
  for (const scope of ['user', 'system'] as const) {
    const copy = pathFor(sys.platform).join(hostDir(sys, scope, TETHER_VERSION), 'tether.mjs');
    if ((await sys.fs.stat(copy))?.kind === 'file') return copy;
  }
  return running;
}

/** `word` as one POSIX shell word. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The lines for Claude Code, Codex and Cursor that run `node <cli> mcp` (`cli`: this script's absolute path,
 * `node`: the Node to run it with), with the environment they must pass (a TETHER_RUNTIME_DIR in `env`).
 */
export function printConfig(
  cli: string,
  env: Readonly<Record<string, string | undefined>> = {},
  node: string = process.execPath,
): string {
  const runtime = env[RUNTIME_DIR_ENV];
  const pass: Record<string, string> = runtime ? { [RUNTIME_DIR_ENV]: runtime } : {};
  const passed = Object.entries(pass);
  const claudeEnv = passed.map(([k, v]) => ` -e ${shellWord(`${k}=${v}`)}`).join('');
  const tomlEnv = passed.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ');
  const cursor = { command: node, args: [cli, 'mcp'], ...(passed.length > 0 ? { env: pass } : {}) };
  return [
    "# Tether's side panel asks you before every call (naming the client), so each client's own prompt for Tether's",
    '# tools can be switched off, as below.',
    '',
    '# Claude Code; then `claude --allowedTools mcp__tether` (or "mcp__tether" in permissions.allow of',
    '# ~/.claude/settings.json) so that only Tether asks:',
    `claude mcp add --scope user tether${claudeEnv} -- ${shellWord(node)} ${shellWord(cli)} mcp`,
    '',
    '# Codex CLI (~/.codex/config.toml). "approve": only Tether asks (without it Codex refuses the acting tools under',
    '# approval_policy = "never"); the timeout leaves you time to answer in the side panel:',
    '[mcp_servers.tether]',
    `command = ${JSON.stringify(node)}`,
    `args = [${JSON.stringify(cli)}, "mcp"]`,
    ...(tomlEnv ? [`env = { ${tomlEnv} }`] : []),
    'default_tools_approval_mode = "approve"',
    'tool_timeout_sec = 600',
    '',
    '# Cursor (~/.cursor/mcp.json):',
    JSON.stringify({ mcpServers: { tether: cursor } }, null, 2),
    '',
  ].join('\n');
}
