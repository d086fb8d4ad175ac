import { existsSync, readFileSync } from 'node:fs';

/**
 * True when `pid` runs (EPERM: it runs as another user). A zombie does not: a SIGKILLed writer stays one until its parent reaps it (on a loaded machine,
 * or under an init that reaps late, long after a new daemon started), and counting it alive left its turns `running`.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return !existsSync('/proc/self/stat'); // gone since, or no /proc (macOS, Windows) where the pid alone must do
  }
}
