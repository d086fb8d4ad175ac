/** `tether daemon [run|status|stop|restart] [--idle-exit SECONDS]`: runs or manages the per-user daemon. */
import { errorMessage } from '@tether/protocol/errors';
import { loadHostConfig } from '../host/host-config';
import { createFileLog } from '../log';
import { TETHER_VERSION } from '../version';
import { connectDaemon, DaemonUnavailableError } from './client';
import type { DaemonStatus } from './handshake';
import { formatUptime } from './inspect';
import { daemonAlive } from './lock';
import { daemonFiles } from './paths';
import { DEFAULT_IDLE_EXIT_MS, runDaemon } from './server';

/** The environment variable that sets the idle exit in seconds (what `--idle-exit` sets for `run`). */
export const IDLE_EXIT_ENV = 'TETHER_DAEMON_IDLE_EXIT';
/** The environment variable that sets, in seconds, how long a page-tool call waits for a browser (over the config). */
export const PAGE_TOOL_WAIT_ENV = 'TETHER_PAGE_TOOL_WAIT';

const USAGE = 'usage: tether daemon [run|status|stop|restart] [--idle-exit SECONDS]';

/** Runs `tether daemon ...`; resolves with the exit code (1 failure or not running for status, 2 usage). */
export async function main(args: string[]): Promise<number> {
  const [verb = 'status', ...rest] = args;
  let idleExitMs: number;
  try {
    idleExitMs = idleExit(rest);
  } catch (error) {
    process.stderr.write(`tether daemon: ${errorMessage(error)}\n${USAGE}\n`);
    return 2;
  }
  switch (verb) {
    case 'run':
      return run(idleExitMs);
    case 'status':
      return status();
    case 'stop':
      return stop();
    case 'restart': {
      const code = await stop();
      return code === 0 ? start() : code;
    }
    default:
      process.stderr.write(`tether daemon: unknown command "${verb}"\n${USAGE}\n`);
      return 2;
  }
}

function idleExit(rest: string[]): number {
  const i = rest.indexOf('--idle-exit');
  const fromFlag = i >= 0 ? rest[i + 1] : undefined;
  const unknown = i >= 0 ? [...rest.slice(0, i), ...rest.slice(i + 2)] : rest;
  if (unknown.length > 0) throw new Error(`unknown argument "${unknown[0]}"`);
  const text = fromFlag ?? process.env[IDLE_EXIT_ENV];
  if (text === undefined) return DEFAULT_IDLE_EXIT_MS;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`the idle exit must be a number of seconds above 0; got "${text}"`);
  return Math.round(seconds * 1000);
}

/** How long a stopped daemon may take to exit on its own (its log flushed, its last handles closed). */
const EXIT_GRACE_MS = 1_000;

async function run(idleExitMs: number): Promise<number> {
  const files = daemonFiles();
  const fileLog = createFileLog({
    file: files.log,
    mirrorToStderr: process.env['TETHER_LOG_STDERR'] === '1',
    tag: `daemon ${process.pid}`,
  });
  try {
    const pageToolWaitMs = await pageToolWait(fileLog.log);
    const code = await runDaemon({ files, idleExitMs, pageToolWaitMs, log: fileLog.log });
    // Stopped: a handle some stuck connection or backend still holds must not keep the process alive, answering no
    // one beside the next daemon (the timer is unref'd: a daemon with nothing left open exits at once).
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    return code;
  } catch (error) {
    fileLog.log(`cannot run: ${errorMessage(error)}`);
    process.stderr.write(`tether daemon: cannot run: ${errorMessage(error)}\n`);
    return 1;
  } finally {
    fileLog.close();
  }
}

/** TETHER_PAGE_TOOL_WAIT (seconds), else the config file's `daemon.pageToolWaitSeconds`, else the default. */
async function pageToolWait(log: (line: string) => void): Promise<number> {
  const text = process.env[PAGE_TOOL_WAIT_ENV];
  if (text !== undefined && text !== '') {
    const seconds = Number(text);
    if (!Number.isFinite(seconds) || seconds < 0)
      throw new Error(`${PAGE_TOOL_WAIT_ENV} must be a number of seconds, 0 or more; got "${text}"`);
    return Math.round(seconds * 1000);
  }
  const { config, configError } = await loadHostConfig();
  if (configError) log(configError.message);
  return config.pageToolWaitMs;
}

async function ask(control: 'status' | 'stop', start = false): Promise<DaemonStatus | undefined> {
  try {
    const link = await connectDaemon(daemonFiles(), { control, hostVersion: TETHER_VERSION }, { start });
    link.socket.destroy();
    return link.welcome.status;
  } catch (error) {
    if (error instanceof DaemonUnavailableError && !start) return undefined;
    throw error;
  }
}

async function status(): Promise<number> {
  const files = daemonFiles();
  const s = await ask('status');
  if (!s) {
    process.stdout.write(`The Tether daemon is not running (socket ${files.socket}).\n`);
    return 1;
  }
  process.stdout.write(describe(s));
  return 0;
}

/** The status as `tether daemon status` prints it. */
export function describe(s: DaemonStatus): string {
  const uptime = formatUptime(s.uptimeMs);
  return [
    `The Tether daemon is running.`,
    `  pid            ${s.pid}`,
    `  version        ${s.version}`,
    `  uptime         ${uptime}`,
    `  socket         ${s.socket}`,
    `  clients        ${s.clients}`,
    ...(s.connections ?? []).map(
      (c) => `    ${c.browser} (connection ${c.id}): MCP endpoint ${c.mcpSocket ?? '(opening)'}`,
    ),
    `  running turns  ${s.runningTurns}`,
    `  idle exit      after ${Math.round(s.idleExitMs / 1000)} s with no client and no running turn`,
    `  log            ${s.log}`,
    '',
  ].join('\n');
}

async function stop(): Promise<number> {
  const s = await ask('stop');
  if (!s) {
    process.stdout.write('The Tether daemon is not running.\n');
    return 0;
  }
  const deadline = Date.now() + 10_000;
  while (daemonAlive(s.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (daemonAlive(s.pid)) {
    process.stderr.write(`tether daemon: pid ${s.pid} is still running 10 s after being asked to stop; kill it\n`);
    return 1;
  }
  process.stdout.write(`Stopped the Tether daemon (pid ${s.pid}; ${s.runningTurns} running turns interrupted).\n`);
  return 0;
}

async function start(): Promise<number> {
  const s = await ask('status', true);
  if (!s) return 1;
  process.stdout.write(describe(s));
  return 0;
}
