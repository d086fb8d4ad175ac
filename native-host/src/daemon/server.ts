/**
 * `tether daemon run`: the per-user daemon. It takes the lock (its pidfile), writes a fresh token (0600), listens on
 * its socket (0600 in the 0700 runtime folder; a named pipe on Windows; never TCP) and serves every connection that
 * presents the token in its first line. The embedded app-server engines and the command backends (Codex, ACP agents)
 * are shared by all connections, so turns outlive the browser connection that started them. It exits when nothing is connected
 * and no turn runs for `idleExitMs`, and on SIGTERM, interrupting running turns (journaled as such); what backends
 * and commands started is reaped when it exits (reaper.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';
import { type AppServerOptions, createAppServer } from '../app-server';
import { createBackend } from '../backends/factory';
import { SharedCommandBackends } from '../backends/shared-command';
import type { SharedEngine } from '../backends/types';
import type { Log } from '../log';
import { McpHub } from '../mcp/hub';
import { ensureRuntimeDir } from '../mcp/runtime-dir';
import { PRIVATE_FILE_MODE } from '../private-files';
import { type DaemonConnection, serveConnection } from './connection';
import {
  DaemonHello,
  type DaemonStatus,
  type DaemonWelcome,
  daemonVersion,
  parseLine,
  readFirstLine,
} from './handshake';
import { acquireLock } from './lock';
import type { DaemonFiles } from './paths';
import { tokenMatches } from './token';
import { SharedEngines } from './shared-engines';

/** Default idle time before the daemon exits: no connection and no running turn for 15 minutes. */
export const DEFAULT_IDLE_EXIT_MS = 15 * 60 * 1000;

/** Options of runDaemon. */
export interface DaemonOptions {
  readonly files: DaemonFiles;
  readonly idleExitMs: number;
  /** How long a page-tool call waits for a browser to come back (AppServerConfig.clientToolWaitMs). */
  readonly pageToolWaitMs: number;
  readonly log: Log;
}

/** Runs the daemon until it is stopped or idle; resolves with the exit code (0 also when another daemon runs). */
export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { files, log } = options;
  // Everything the daemon creates (socket, token, journals) is for this user only, whatever the umask was.
  process.umask(0o077);
  ensureRuntimeDir(files.dir, log);
  const version = daemonVersion();
  const lock = await acquireLock(files.lock, version);
  if (!lock.acquired) {
    log(`another daemon (pid ${lock.holder.pid}, version ${lock.holder.version}) already runs; exiting`);
    return 0;
  }
  // The lock is ours, so a socket left there is a dead daemon's.
  if (process.platform !== 'win32') removeQuietly(files.socket);
  const token = randomBytes(32).toString('base64url');
  const tmp = `${files.token}.${process.pid}`;
  writeFileSync(tmp, token, { mode: PRIVATE_FILE_MODE });
  renameSync(tmp, files.token);

  const connections = new Set<DaemonConnection>();
  let handshaking = 0;
  let nextId = 1;
  let lastBusy = Date.now();
  let stopping: Promise<void> | undefined;
  // The hub agents reach page tools through: no browser is behind it (never announced), and it outlives them all.
  const agentHub = new McpHub({ browser: 'daemon', log, connection: 0 });
  void agentHub.withdraw();
  const sharedCommands = new SharedCommandBackends({
    log,
    pageToolWaitMs: options.pageToolWaitMs,
    hub: agentHub,
    create: createBackend,
  });
  const engines = new SharedEngines(
    (settings) =>
      createAppServer({
        ...settings,
        config: { ...settings.config, clientToolWaitMs: options.pageToolWaitMs },
        log: (line) => log(`embedded: ${line}`),
      }),
    log,
  );
  const runningTurns = (): number => engines.runningTurns + sharedCommands.runningTurns;
  const sharedEngine = (engineOptions: AppServerOptions): SharedEngine => engines.get(engineOptions);

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version,
    startedAtMs: lock.info.startedAtMs,
    uptimeMs: Date.now() - lock.info.startedAtMs,
    socket: files.socket,
    log: files.log,
    clients: [...connections].filter((c) => c.attached).length,
    connections: [...connections].filter((c) => c.attached).map((c) => c.client),
    runningTurns: runningTurns(),
    idleExitMs: options.idleExitMs,
  });

  const welcome = (socket: Socket, answer: DaemonWelcome): void => {
    socket.write(`${JSON.stringify(answer)}\n`);
  };

  const accept = async (socket: Socket): Promise<void> => {
    handshaking++;
    socket.on('error', () => undefined);
    let hello: DaemonHello;
    let rest: Buffer;
    try {
      const first = await readFirstLine(socket);
      rest = first.rest;
      hello = parseLine(first.line, DaemonHello, 'the first line');
      if (!tokenMatches(hello.token, token)) throw new Error('wrong token');
    } catch (error) {
      log(`refused a connection: ${errorMessage(error)}`);
      welcome(socket, { ok: false, error: `refused: ${errorMessage(error)}` });
      socket.end();
      socket.destroySoon();
      return;
    } finally {
      handshaking--;
    }
    if (stopping) {
      welcome(socket, { ok: false, error: 'the daemon is stopping' });
      socket.end();
      return;
    }
    welcome(socket, { ok: true, daemonVersion: version, pid: process.pid, status: status() });
    if (hello.control === 'status') {
      socket.end();
      return;
    }
    if (hello.control === 'stop') {
      socket.end();
      void stop('asked by tether daemon stop');
      return;
    }
    let connection: DaemonConnection;
    try {
      connection = await serveConnection({ socket, rest, hello, id: nextId++, log, sharedEngine, sharedCommands });
    } catch (error) {
      // One connection that cannot be served must not take the daemon (and every other browser's turns) down.
      log(`cannot serve a connection: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      socket.destroy();
      return;
    }
    connections.add(connection);
    void connection.closed.then(() => {
      connections.delete(connection);
      lastBusy = Date.now();
    });
  };

  const server = createServer({ pauseOnConnect: true }, (socket) => void accept(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(files.socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(files.socket, PRIVATE_FILE_MODE);
  log(
    `listening on ${files.socket} (tether ${version}, node ${process.version}; idle exit after ${options.idleExitMs} ms; ` +
      `page tools wait ${options.pageToolWaitMs} ms for a browser)`,
  );

  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const stop = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      const t0 = performance.now();
      log(`stopping: ${reason}`);
      clearInterval(ticker);
      server.close();
      // Each phase is bounded: one connection or backend that never finishes closing must not keep the daemon (and
      // `tether daemon stop`, which waits 10 s) hanging; what was cut short is logged.
      const phase = (what: string, work: Promise<unknown>) => boundedPhase(what, work, STOP_PHASE_MS, log);
      await phase(
        'closing the connections',
        Promise.all([...connections].map((c) => c.close('the daemon is stopping'))),
      );
      // Interrupts the turns still running and journals their end before the stores close.
      await phase('interrupting the running turns', engines.close());
      await phase('stopping the agents', sharedCommands.close());
      if (process.platform !== 'win32' && lock.holds()) removeQuietly(files.socket);
      if (lock.holds()) removeQuietly(files.token);
      lock.release();
      log(`stopped in ${Math.round(performance.now() - t0)} ms`);
      resolveExit(0);
    })();
    return stopping;
  };

  const tick = Math.max(20, Math.min(options.idleExitMs / 4, 30_000));
  const ticker = setInterval(() => {
    if (!lock.holds()) {
      void stop('the lock file was removed or taken by another daemon');
      return;
    }
    if (connections.size > 0 || handshaking > 0 || runningTurns() > 0) lastBusy = Date.now();
    else if (Date.now() - lastBusy >= options.idleExitMs)
      void stop(`idle: no connection and no running turn for ${options.idleExitMs} ms`);
  }, tick);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void stop(signal));
  return exited;
}

/** How long each phase of stopping may take before the daemon goes on without it. */
const STOP_PHASE_MS = 3_000;

/** Waits for `work`, at most `ms`; logs when it was cut short (and when it failed) instead of waiting on. */
async function boundedPhase(
  what: string,
  work: Promise<unknown>,
  ms: number,
  log: (line: string) => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    if ((await Promise.race([work, late])) === 'late') log(`stopping: ${what} took over ${ms} ms; going on without it`);
  } catch (error) {
    log(`stopping: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}
