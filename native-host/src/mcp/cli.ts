/**
 * `tether mcp`: a stdio MCP server for clients that spawn their servers (Claude Code, Codex CLI, Cursor, ACP agents
 * without HTTP MCP). It serves nothing itself: it finds the running Tether host (the browser starts one while the
 * extension is connected), says hello with a token from the environment or the host's 0600 token file, never argv,
 * and then pipes MCP's stdio both ways. Messages for people go to stderr; stdout carries MCP only.
 */
import { hostDir } from '../install/locations';
import { createNodeSystem } from '../install/node-system';
import { pathFor, type System } from '../install/system';
import { TETHER_VERSION } from '../version';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';
import { parseFlags, UsageError } from '../cli-args';
import { FirstLine, helloLine, parseAnswer } from './hello';
import { SOCKET_ENV, TOKEN_ENV } from './hub';
import { type HostAnnouncement, liveHosts, socketAnswers } from './host-registry';
import { runtimeDir } from './runtime-dir';

const USAGE = 'tether mcp [--browser NAME] [--print-config]';

const NOT_RUNNING =
  'Tether is not running: open the Tether side panel in your browser (that starts the Tether host), then start this MCP server again.';

/** A host `tether mcp` may connect to: an announced one, or the one `TETHER_MCP_SOCKET` names. */
type Candidate = HostAnnouncement;

/** Runs `tether mcp`; resolves with the exit code once the client or the host has closed. */
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
    process.stdout.write(printConfig(await stableEntry(process.argv[1] ?? 'tether')));
    return 0;
  }
  const chosen = await pickHost(flags.browser);
  if ('error' in chosen) {
    process.stderr.write(`tether mcp: ${chosen.error}\n`);
    return 1;
  }
  const host = chosen.host;
  const token = process.env[TOKEN_ENV] || readToken(host.tokenFile);
  if (!token) {
    process.stderr.write(
      `tether mcp: no token: set ${TOKEN_ENV}, or let tether mcp read the token file of the host (${host.tokenFile ?? 'none published'})\n`,
    );
    return 1;
  }
  if (chosen.note) process.stderr.write(`tether mcp: ${chosen.note}\n`);
  return pipe(host, token);
}

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

/** What to add to Claude Code, Codex and Cursor to use `tether mcp` (`cli` is this script's absolute path). */
export function printConfig(cli: string): string {
  const node = process.execPath;
  return [
    '# Claude Code:',
    `claude mcp add tether -- ${node} ${cli} mcp`,
    '',
    '# Codex CLI (~/.codex/config.toml):',
    '[mcp_servers.tether]',
    `command = ${JSON.stringify(node)}`,
    `args = [${JSON.stringify(cli)}, "mcp"]`,
    '',
    '# Cursor (~/.cursor/mcp.json):',
    JSON.stringify({ mcpServers: { tether: { command: node, args: [cli, 'mcp'] } } }, null, 2),
    '',
  ].join('\n');
}

async function pickHost(browser: string | undefined): Promise<{ host: Candidate; note?: string } | { error: string }> {
  const forced = process.env[SOCKET_ENV];
  if (forced) {
    const host = { socket: forced, browser: 'the host that started this agent', pid: 0, startedAtMs: 0 };
    return (await socketAnswers(forced)) ? { host } : { error: `${NOT_RUNNING} (nothing answers at ${forced})` };
  }
  const live = await liveHosts(runtimeDir());
  if (live.length === 0) return { error: NOT_RUNNING };
  const wanted = browser?.toLowerCase();
  const matching = wanted ? live.filter((h) => h.browser.toLowerCase() === wanted) : live;
  const host = matching[0];
  if (!host) {
    return {
      error: `no Tether host runs for "${browser}"; running: ${live.map((h) => h.browser).join(', ')}. Fix: pass one of them to --browser, or open the Tether side panel in ${browser}`,
    };
  }
  const others =
    live.length > 1 ? ` (${live.length} hosts run: ${live.map((h) => h.browser).join(', ')}; --browser picks one)` : '';
  const when = new Date(host.startedAtMs).toLocaleTimeString();
  return { host, note: `using the Tether host of ${host.browser} (pid ${host.pid}, started ${when})${others}` };
}

function readToken(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function pipe(host: Candidate, token: string): Promise<number> {
  return new Promise((resolve) => {
    const socket: Socket = connect(host.socket);
    const first = new FirstLine();
    let piping = false;
    const fail = (message: string): void => {
      process.stderr.write(`tether mcp: ${message}\n`);
      socket.destroy();
      resolve(1);
    };
    socket.once('error', (error) => (piping ? resolve(0) : fail(`${NOT_RUNNING} (${errorMessage(error)})`)));
    socket.once('connect', () => socket.write(helloLine({ token })));
    const onData = (chunk: Buffer): void => {
      let got: ReturnType<FirstLine['push']>;
      try {
        got = first.push(chunk);
      } catch (error) {
        fail(`the host answered something unexpected: ${errorMessage(error)}`);
        return;
      }
      if (!got) return;
      socket.off('data', onData);
      let answer: ReturnType<typeof parseAnswer>;
      try {
        answer = parseAnswer(got.line);
      } catch (error) {
        fail(`the host answered something unexpected: ${errorMessage(error)}`);
        return;
      }
      if ('error' in answer) {
        fail(`the Tether host refused: ${answer.error.message}`);
        return;
      }
      piping = true;
      if (got.rest.length > 0) process.stdout.write(got.rest);
      socket.pipe(process.stdout);
      process.stdin.pipe(socket);
      socket.once('close', () => resolve(0));
    };
    socket.on('data', onData);
    socket.once('end', () => {
      if (!piping) fail('the Tether host closed the connection before answering');
    });
  });
}
