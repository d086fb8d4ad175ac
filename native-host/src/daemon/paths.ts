/**
 * Where the per-user daemon keeps its files: its socket, token and pidfile in the runtime folder (`runtimeDir()`,
 * which `TETHER_RUNTIME_DIR` moves, so that tests and `npm start` run a daemon of their own), its log beside
 * `host.log`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runtimeDir } from '../mcp/runtime-dir';
import { daemonLogFile } from '../paths';

/** The daemon's files. */
export interface DaemonFiles {
  /** The 0700 folder holding the rest. */
  readonly dir: string;
  /** The listening socket (a named pipe on Windows). */
  readonly socket: string;
  /** The token every connection presents first (0600). */
  readonly token: string;
  /** The pidfile, which is also the lock: created exclusively by the daemon that runs (0600, JSON). */
  readonly lock: string;
  /** The daemon's own log. */
  readonly log: string;
}

/** The daemon's files for this user (or for the folder `TETHER_RUNTIME_DIR` names). */
export function daemonFiles(env: NodeJS.ProcessEnv = process.env, platform = process.platform): DaemonFiles {
  const dir = runtimeDir(env, platform);
  return {
    dir,
    socket: platform === 'win32' ? pipeName(dir) : join(dir, 'daemon.sock'),
    token: join(dir, 'daemon.token'),
    lock: join(dir, 'daemon.pid'),
    log: daemonLogFile({ env, platform }),
  };
}

/**
 * A named pipe lives in one machine-wide namespace: it is named after the folder, so each user (and each test's
 * folder) gets its own. node:crypto is loaded here, on Windows only: every relaying host asks for daemonFiles()
 * before its first answer, and loading node:crypto cost it 20-40 ms.
 */
function pipeName(dir: string): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return `\\\\.\\pipe\\tether-daemon-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`;
}
