/**
 * Starts the per-user daemon for a client that found none running (connectDaemon with `start`): `tether daemon run`
 * detached, in its own session with its stdio closed, not waited for. Kept apart from client.ts so that a host whose
 * daemon is running (every browser connection but the first) never loads it.
 */
import { spawn } from 'node:child_process';
import type { ConnectOptions } from './client';

/** A daemon just started: its exit code once it exited (undefined while it runs), and how it ended, in words. */
export interface StartedDaemon {
  readonly exit: number | undefined;
  describe(): string;
}

/** Starts `tether daemon run` detached: its own session, stdio closed, not waited for. */
export function startDaemon(options: ConnectOptions): StartedDaemon {
  const entry = options.entry ?? process.argv[1] ?? '';
  let exit: number | undefined;
  let signal: string | null = null;
  let spawnError: string | undefined;
  const child = spawn(process.execPath, [entry, 'daemon', 'run'], {
    detached: true,
    stdio: 'ignore',
    env: options.env ?? process.env,
    windowsHide: true,
  });
  child.once('error', (error) => {
    spawnError = error.message;
    exit = -1;
  });
  child.once('exit', (code, sig) => {
    exit = code ?? -1;
    signal = sig;
  });
  child.unref();
  options.log?.(`started the Tether daemon (pid ${child.pid ?? '?'}) from ${entry}`);
  return {
    get exit() {
      return exit;
    },
    describe: () => spawnError ?? (signal ? `killed by ${signal}` : `exit code ${exit}`),
  };
}
