import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Reaper } from '../../reaper';
import { killSleepers, setsidSleep, survivorsAfter, uniqueSleep, waitForSleepers } from '../../testing/orphans';
import { BashToolError, bashCommandOf, describeBashResult, runBash, type BashResult } from './bash';

const cwd = tmpdir();
const sleepsOfTest: string[] = [];
afterEach(() => killSleepers(sleepsOfTest.splice(0)));

function trackedSleep(): string {
  const sleep = uniqueSleep();
  sleepsOfTest.push(sleep);
  return sleep;
}

/** The command's result, or a failure naming the deadline when it has not ended by then. */
function within(running: Promise<BashResult>, deadlineMs: number): Promise<BashResult> {
  return Promise.race([
    running,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`the command had not ended ${deadlineMs} ms later`)), deadlineMs).unref(),
    ),
  ]);
}

describe('the bash tool', () => {
  it('runs a command in the given folder and captures stdout, stderr and the exit code', async () => {
    const r = await runBash('pwd; echo err 1>&2; exit 3', { cwd, timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, truncated: false });
    expect(r.output).toContain(cwd);
    expect(r.output).toContain('err');
    expect(describeBashResult(r, 10_000)).toMatch(/^The command exited with code 3\./);
  });

  it('kills a command that outlives its timeout, with its children', async () => {
    const r = await runBash('sleep 20 | cat', { cwd, timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(describeBashResult(r, 200)).toContain('timed out after 200 ms and was killed');
  });

  it('kills the command when its signal aborts', async () => {
    const controller = new AbortController();
    const running = runBash('sleep 20', { cwd, timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await running).signal).toBe('SIGKILL');
  });

  it.runIf(process.platform === 'linux')(
    'ends when its shell exits and kills what the command left running, even a setsid one holding the output pipe',
    async () => {
      const [job, daemon] = [trackedSleep(), trackedSleep()];
      const r = await within(
        runBash(`(sleep ${job} &); ${setsidSleep(daemon)}; echo started`, { cwd, timeoutMs: 60_000 }),
        10_000,
      );
      expect(r).toMatchObject({ exitCode: 0, output: 'started\n', timedOut: false });
      expect(await survivorsAfter([job, daemon])).toEqual([]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'ends an aborted command at once, killing the setsid daemon that holds its output pipe',
    async () => {
      const [fg, daemon] = [trackedSleep(), trackedSleep()];
      const controller = new AbortController();
      const running = runBash(`setsid sleep ${daemon} & sleep ${fg}`, {
        cwd,
        timeoutMs: 60_000,
        signal: controller.signal,
      });
      await waitForSleepers([fg, daemon]);
      controller.abort();
      expect((await within(running, 10_000)).signal).toBe('SIGKILL');
      expect(await survivorsAfter([fg, daemon])).toEqual([]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'returns when its shell exits even if a leftover nothing could kill holds the output pipe',
    async () => {
      // A reaper without a watcher is what a system without /proc gets: process groups only.
      const groupsOnly = new Reaper();
      groupsOnly.close();
      const daemon = trackedSleep();
      const r = await within(
        runBash(`${setsidSleep(daemon)}; echo started`, { cwd, timeoutMs: 60_000, reaper: groupsOnly }),
        10_000,
      );
      expect(r).toMatchObject({ exitCode: 0, output: 'started\n' });
    },
  );

  it('cuts output at the limit and says so', async () => {
    const r = await runBash('head -c 5000 /dev/zero | tr "\\0" a', { cwd, timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(r.output).toHaveLength(1000);
    expect(r.truncated).toBe(true);
  });

  it('refuses a missing working directory and arguments without a command, saying what is wrong', async () => {
    await expect(runBash('true', { cwd: '/no/such/dir', timeoutMs: 1000 })).rejects.toThrow(
      new BashToolError('Cannot run the command: working directory /no/such/dir does not exist.'),
    );
    expect(() => bashCommandOf({ cmd: 'ls' })).toThrow('The bash tool needs {"command": "<shell command>"}.');
  });
});
