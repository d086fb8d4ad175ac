/**
 * Vitest global setup: marks this run's processes (TETHER_TEST_RUN in the environment every worker, host and daemon
 * inherits) and after the run fails it if one of this run's Tether daemons is still alive, stopping it so the machine
 * is left clean. Daemons of the user, or of another run at the same time, carry no mark or another one: untouched.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tetherDaemons } from './daemons';

/** The variable that marks the processes of one test run. */
export const TEST_RUN_ENV = 'TETHER_TEST_RUN';

/** Marks the run; returns the end-of-run check. */
export default function setup(): () => Promise<void> {
  const mark = `${TEST_RUN_ENV}=${randomUUID()}`;
  process.env[TEST_RUN_ENV] = mark.slice(TEST_RUN_ENV.length + 1);
  return async () => {
    const left = tetherDaemons().filter((pid) => environOf(pid).includes(mark));
    if (left.length === 0) return;
    for (const pid of left) process.kill(pid, 'SIGKILL');
    // Vitest reports an error thrown here but still exits 0: the exit code is what CI and scripts/test.mjs read.
    process.exitCode = 1;
    throw new Error(
      `the tests left ${left.length} tether daemon process(es) running (pid ${left.join(', ')}; now killed): ` +
        'a test that starts a host or a daemon must stop it (its runtime folder, TETHER_RUNTIME_DIR, says which)',
    );
  };
}

function environOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return [];
  }
}
