/**
 * Tether daemons started by tests: each host a test starts gets a runtime folder of its own (TETHER_RUNTIME_DIR), so
 * with the relay on no test shares a daemon with another or with the user's; these helpers stop the daemon of such a
 * folder and list the daemons alive, for the check at the end of the run that none was left behind.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pid in `runtimeDir`'s daemon pidfile, or undefined when there is none. */
export function daemonPidIn(runtimeDir: string): number | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(`${runtimeDir}/daemon.pid`, 'utf8'));
    return typeof value === 'object' && value !== null && 'pid' in value && typeof value.pid === 'number'
      ? value.pid
      : undefined;
  } catch {
    return undefined;
  }
}

/** Stops the daemon that runs in `runtimeDir`, if any: SIGTERM (it journals and reaps), SIGKILL after `graceMs`. */
export async function stopDaemonIn(runtimeDir: string, graceMs = 10_000): Promise<void> {
  const pid = daemonPidIn(runtimeDir);
  if (pid === undefined || !tetherDaemons().includes(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (tetherDaemons().includes(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (tetherDaemons().includes(pid)) process.kill(pid, 'SIGKILL');
}

/** Pids of the `tether daemon run` processes alive now (Linux /proc; none elsewhere). */
export function tetherDaemons(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return entries
    .filter((name) => {
      try {
        const args = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0');
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        const i = args.indexOf('daemon');
        return i > 0 && args[i + 1] === 'run' && /tether/.test(args[i - 1] ?? '') && !/^\d+ \(.*\) Z/.test(stat);
      } catch {
        return false;
      }
    })
    .map(Number);
}
