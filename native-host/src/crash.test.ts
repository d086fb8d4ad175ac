import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { CRASH_EXIT_CODE } from './crash';
import { useTempDirs } from './testing/temp-dirs';

const tempDir = useTempDirs('tether-crash-');
const CRASH_MODULE = fileURLToPath(new URL('./crash.ts', import.meta.url));

/**
 * Runs, as its own Node process, a tiny program that installs the crash handlers as `tether` does first thing and
 * then fails with `failure` (a JavaScript statement); returns its exit status, stderr and host.log.
 */
async function crashWith(failure: string): Promise<{ status: number | null; stderr: string; log: string }> {
  const dir = tempDir();
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { installCrashHandlers } from ${JSON.stringify(CRASH_MODULE)};\ninstallCrashHandlers({ tag: 'test 1' });\n${failure}\n`,
  );
  const program = join(dir, 'entry.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: program,
    logLevel: 'silent',
  });
  const run = spawnSync(process.execPath, [program], {
    env: { ...process.env, XDG_STATE_HOME: join(dir, 'state') },
    encoding: 'utf8',
  });
  let log = '';
  try {
    log = readFileSync(join(dir, 'state/tether/host.log'), 'utf8');
  } catch {
    // No log file: the assertion on its content says so.
  }
  return { status: run.status, stderr: run.stderr, log };
}

describe('crash handlers', () => {
  it(`log an uncaught exception to host.log, stack on one line, and exit with code ${CRASH_EXIT_CODE}`, async () => {
    const crash = await crashWith(`setTimeout(() => { throw new RangeError('Maximum call stack size exceeded'); });`);
    expect(crash.status).toBe(CRASH_EXIT_CODE);
    const lines = crash.log.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\S+Z \[test 1\] crashed: uncaught exception: RangeError: Maximum call stack size exceeded \| at .*; exiting with code 70$/,
    );
    expect(crash.stderr).toContain('crashed: uncaught exception: RangeError');
  });

  it(`log an unhandled rejection to host.log and exit with code ${CRASH_EXIT_CODE}`, async () => {
    const crash = await crashWith(`void Promise.reject(new Error('nobody waited for this'));`);
    expect(crash.status).toBe(CRASH_EXIT_CODE);
    expect(crash.log).toMatch(/\[test 1\] crashed: unhandled promise rejection: Error: nobody waited for this \| at /);
  });

  it('mask secrets in the crash line, as every log line is', async () => {
    const crash = await crashWith(`throw new Error('request failed with Authorization: Bearer abcdefghijklmnop1234');`);
    expect(crash.status).toBe(CRASH_EXIT_CODE);
    expect(crash.log).toContain('crashed: uncaught exception: Error: request failed with Authorization: Bearer ***');
    expect(crash.log).not.toContain('abcdefghijklmnop1234');
  });
});
