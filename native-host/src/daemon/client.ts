/**
 * The client side of the daemon's socket: `tether host` (to relay a browser) and `tether daemon status|stop`
 * connect here. Connecting reads the token file, opens the socket, presents the token in the first line and reads
 * the daemon's answer; with `start`, a daemon that is not running is started (start.ts: detached, its own session,
 * stdio closed) and waited for. Several hosts starting at once each start one; the lock lets only one of them run.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';
import { type DaemonHello, DaemonWelcome, parseLine, readFirstLine } from './handshake';
import type { DaemonFiles } from './paths';

/** The daemon is not running, refused us, or could not be started; `message` says which and what to do. */
export class DaemonUnavailableError extends Error {
  override name = 'DaemonUnavailableError';
}

/** A connection that passed the handshake. */
export interface DaemonLink {
  readonly socket: Socket;
  readonly welcome: Extract<DaemonWelcome, { ok: true }>;
  /** Bytes the daemon sent after its first line. */
  readonly rest: Buffer;
}

/** Options of connectDaemon. */
export interface ConnectOptions {
  /** Start the daemon when none answers, and wait for it. */
  readonly start?: boolean;
  /** The `tether` entry script the daemon runs from (default: this process's). */
  readonly entry?: string;
  /** How long to wait for a daemon just started (default 10 s). */
  readonly startTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /** The environment the daemon is started with (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
}

const POLL_MS = 25;

/** Connects to the daemon (starting it when asked), presenting `hello` with the token; rejects with the reason. */
export async function connectDaemon(
  files: DaemonFiles,
  hello: Omit<DaemonHello, 'token'>,
  options: ConnectOptions = {},
): Promise<DaemonLink> {
  const first = await attempt(files, hello);
  if (!(first instanceof NotRunning)) return first;
  if (!options.start) throw new DaemonUnavailableError(`the Tether daemon is not running (${first.message})`);
  // Imported only here: a host whose daemon is running loads none of it (nor node:child_process).
  const started = (await import('./start')).startDaemon(options);
  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  let last: NotRunning = first;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const result = await attempt(files, hello);
    if (!(result instanceof NotRunning)) return result;
    last = result;
    const exit = started.exit;
    // Exit 0 is a daemon that found another one running: keep waiting for that one to listen.
    if (exit !== undefined && exit !== 0)
      throw new DaemonUnavailableError(
        `the Tether daemon could not start (${started.describe()}); its log is ${files.log}`,
      );
  }
  throw new DaemonUnavailableError(
    `the Tether daemon did not answer within ${options.startTimeoutMs ?? 10_000} ms of being started (${last.message}); its log is ${files.log}`,
  );
}

/** Nothing listens where the daemon should (no token, no socket, or a dead daemon's socket). */
class NotRunning {
  constructor(readonly message: string) {}
}

async function attempt(files: DaemonFiles, hello: Omit<DaemonHello, 'token'>): Promise<DaemonLink | NotRunning> {
  let token: string;
  try {
    token = readFileSync(files.token, 'utf8').trim();
  } catch (error) {
    return new NotRunning(`no token file ${files.token}: ${errorMessage(error)}`);
  }
  let socket: Socket;
  try {
    socket = await open(files.socket);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return new NotRunning(`no daemon at ${files.socket} (${code})`);
    throw new DaemonUnavailableError(`cannot connect to the Tether daemon at ${files.socket}: ${errorMessage(error)}`);
  }
  socket.write(`${JSON.stringify({ ...hello, token })}\n`);
  let answer: DaemonWelcome;
  let rest: Buffer;
  try {
    const line = await readFirstLine(socket);
    rest = line.rest;
    answer = parseLine(line.line, DaemonWelcome, "the daemon's first line");
  } catch (error) {
    socket.destroy();
    // A daemon stopping (or just replaced, its token with it) closes without answering: try again.
    return new NotRunning(`the daemon closed the connection: ${errorMessage(error)}`);
  }
  if (!answer.ok) {
    socket.destroy();
    // The token file may have been replaced by a daemon that started after we read it: read it again next time.
    if (answer.error.includes('wrong token')) return new NotRunning(`the daemon ${answer.error}`);
    throw new DaemonUnavailableError(`the Tether daemon ${answer.error}`);
  }
  return { socket, welcome: answer, rest };
}

function open(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * connectDaemon, replacing a daemon of another version than `version` when nothing uses it (no other client, no
 * running turn). A busy one keeps serving, and `bridge/hello` shows both versions, until it idles out.
 */
export async function connectCurrentDaemon(
  files: DaemonFiles,
  hello: Omit<DaemonHello, 'token'>,
  options: ConnectOptions & { readonly version: string },
): Promise<DaemonLink> {
  const link = await connectDaemon(files, hello, options);
  const { daemonVersion, status } = link.welcome;
  if (daemonVersion === options.version || !status || status.clients > 0 || status.runningTurns > 0) {
    if (daemonVersion !== options.version)
      options.log?.(`the daemon runs version ${daemonVersion}, busy: it is replaced by ${options.version} once idle`);
    return link;
  }
  options.log?.(`the daemon runs version ${daemonVersion} and is idle: replacing it with ${options.version}`);
  link.socket.destroy();
  // Imported only here: the lock's record is checked with Zod, which a relaying host otherwise never loads.
  const { daemonAlive } = await import('./lock');
  const stopping = await connectDaemon(files, { control: 'stop' });
  stopping.socket.destroy();
  const deadline = Date.now() + 5000;
  while (daemonAlive(stopping.welcome.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  return connectDaemon(files, hello, options);
}
