/**
 * A daemon of the test's own: a temporary runtime folder (TETHER_RUNTIME_DIR) and config/state/data folders, so no
 * test shares a daemon with the user's or another test's, and `stop()` ends it and checks that no daemon is left.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_ENTRY, isAlive } from '../host/host-process';
import { type JournalRecord, readJournal } from '../support/daemon-chaos-checks';

/** A test's own daemon folders and the environment that points the host and the daemon at them. */
export interface DaemonEnv {
  readonly dir: string;
  readonly env: Record<string, string>;
  /** The running daemon's pid, read from its pidfile (undefined when none runs). */
  pid(): number | undefined;
  /** Runs `tether daemon ARGS` with this environment. */
  tether(...args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Stops the daemon (if any), waits for it to be gone, and removes the folders. */
  dispose(): Promise<void>;
}

/** Creates the folders; the daemon itself starts when a host (or `tether daemon ...`) needs it. */
export function daemonEnv(extra: Record<string, string> = {}): DaemonEnv {
  const dir = mkdtempSync(join(tmpdir(), 'tether-daemon-'));
  const env: Record<string, string> = {
    TETHER_DAEMON: '1',
    TETHER_RUNTIME_DIR: join(dir, 'run'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    ...extra,
  };
  const pid = (): number | undefined => {
    try {
      const value = JSON.parse(readFileSync(join(dir, 'run', 'daemon.pid'), 'utf8')) as { pid?: unknown };
      return typeof value.pid === 'number' ? value.pid : undefined;
    } catch {
      return undefined;
    }
  };
  const tether = (...args: string[]) => {
    const run = spawnSync(process.execPath, [HOST_ENTRY, ...args], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  return {
    dir,
    env,
    pid,
    tether,
    async dispose() {
      const running = pid();
      tether('daemon', 'stop');
      if (running !== undefined) {
        const deadline = Date.now() + 10_000;
        while (isAlive(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        if (isAlive(running)) {
          process.kill(running, 'SIGKILL');
          throw new Error(`the test's daemon (pid ${running}) was still running after tether daemon stop`);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds (polling), or throws with `what`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The records of a thread's journal under `d`'s data folder (none while it has no file). */
export function threadJournal(d: DaemonEnv, threadId: string): JournalRecord[] {
  return readJournal(join(d.dir, 'data', 'tether', 'threads', `${threadId}.jsonl`));
}
