/**
 * `tether mcp`: a stdio MCP server for clients that spawn their servers (Claude Code, Codex CLI, Cursor, ACP agents
 * without HTTP MCP). It serves nothing itself: it proxies to the running Tether host (the browser starts one while the
 * extension is connected), and while there is none it still answers, saying what to do (proxy.ts). Messages for
 * people go to stderr; stdout carries MCP only. Start-up loads only what serving needs (the SDK, no installer code).
 */
import { parseFlags, UsageError } from '../cli-args';
import { runtimeDir } from './runtime-dir';
import { toolCacheFile } from './tool-cache';

const USAGE = 'tether mcp [--browser NAME] [--print-config]';

/** Runs `tether mcp`; resolves with the exit code once the client has closed its input. */
export async function main(args: string[]): Promise<number> {
  let flags: { browser?: string; 'print-config'?: boolean; help?: boolean };
  try {
    flags = parseFlags(
      args,
      {
        browser: { type: 'string', value: 'a browser name' },
        'print-config': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      'tether mcp',
    );
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`tether mcp: ${error.message}\nUsage: ${USAGE}\n`);
    return 2;
  }
  if (flags.help) {
    process.stderr.write(`Usage: ${USAGE}\n`);
    return 0;
  }
  if (flags['print-config']) {
    const { printConfig, stableEntry } = await import('./client-config');
    process.stdout.write(printConfig(await stableEntry(process.argv[1] ?? 'tether'), process.env));
    return 0;
  }
  const { runProxy } = await import('./proxy');
  return runProxy({
    dir: runtimeDir(),
    ...(flags.browser ? { browser: flags.browser } : {}),
    env: process.env,
    input: process.stdin,
    output: process.stdout,
    log: (line) => process.stderr.write(`tether mcp: ${line}\n`),
    toolCache: toolCacheFile(),
  });
}
