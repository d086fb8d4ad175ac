/**
 * What `tether doctor` learns of the daemon: running (its status, asked over the socket like `tether daemon
 * status`), not running, stale (a SIGKILLed daemon's pidfile or socket left behind), or unresponsive (a live daemon
 * that does not answer). With `fix`, a stale pidfile is taken and released through the lock (so a daemon starting
 * at that moment still wins it) and a socket file is removed only while nothing accepts connections on it.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';
import { connectDaemon, DaemonUnavailableError } from './client';
import type { DaemonStatus } from './handshake';
import { acquireLock, daemonAlive, readLock } from './lock';
import type { DaemonFiles } from './paths';

/** What inspectDaemon found (and, with `fix`, what it repaired). */
export type DaemonInspection =
  | { readonly state: 'running'; readonly status: DaemonStatus }
  | { readonly state: 'not-running' }
  | {
      readonly state: 'stale';
      /** What was left behind, in words. */
      readonly leftovers: readonly string[];
      /** What was removed (empty without `fix`). */
      readonly fixed: readonly string[];
    }
  | { readonly state: 'unresponsive'; readonly pid: number | undefined; readonly reason: string };

/** Asks the daemon for its status; tells a stale pidfile or socket apart from none, and removes them with `fix`. */
export async function inspectDaemon(
  files: DaemonFiles,
  options: { readonly fix: boolean; readonly version: string },
): Promise<DaemonInspection> {
  let reason: string;
  try {
    const link = await connectDaemon(files, { control: 'status', hostVersion: options.version });
    link.socket.destroy();
    if (link.welcome.status) return { state: 'running', status: link.welcome.status };
    reason = 'it answered without its status';
  } catch (error) {
    if (!(error instanceof DaemonUnavailableError)) throw error;
    reason = errorMessage(error);
  }
  const holder = readLock(files.lock);
  if (holder && daemonAlive(holder.pid)) return { state: 'unresponsive', pid: holder.pid, reason };
  const socketLeft = process.platform !== 'win32' && existsSync(files.socket);
  if (!holder && !socketLeft) {
    // A pidfile that cannot be read yet is a daemon being born, or a torn one: the daemon itself judges it.
    if (existsSync(files.lock)) return { state: 'unresponsive', pid: undefined, reason: `unreadable ${files.lock}` };
    return { state: 'not-running' };
  }
  const leftovers = [
    ...(holder ? [`pidfile ${files.lock} of pid ${holder.pid}, which no longer runs`] : []),
    ...(socketLeft ? [`socket ${files.socket}, which nothing listens on`] : []),
  ];
  if (!options.fix) return { state: 'stale', leftovers, fixed: [] };
  const fixed: string[] = [];
  if (holder) {
    const lock = await acquireLock(files.lock, options.version);
    if (!lock.acquired) return { state: 'unresponsive', pid: lock.holder.pid, reason: 'a daemon is starting' };
    lock.release();
    fixed.push(`removed the stale pidfile ${files.lock}`);
  }
  if (socketLeft && (await refused(files.socket))) {
    try {
      unlinkSync(files.socket);
      fixed.push(`removed the stale socket ${files.socket}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { state: 'stale', leftovers, fixed };
}

/** True when a connection to the socket file is refused: nothing listens, so removing it takes nobody's socket. */
function refused(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** An uptime in words: "2 h 5 min" past an hour, else "3 min 12 s". */
export function formatUptime(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return minutes >= 60
    ? `${Math.floor(minutes / 60)} h ${minutes % 60} min`
    : `${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
}
