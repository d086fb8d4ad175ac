/** The reaper with real processes: runs reaped one by one, everything on close, and a watcher killed by someone. */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Reaper, RUN_COOKIE, type ReapedRun } from './reaper';
import { killSleepers, setsidSleep, sleepers, survivorsAfter, uniqueSleep, waitForSleepers } from './testing/orphans';

const sleepsOfTest: string[] = [];
const reapers: Reaper[] = [];
afterEach(() => {
  for (const r of reapers.splice(0)) r.close();
  killSleepers(sleepsOfTest.splice(0));
});

function reaper(): Reaper {
  const r = new Reaper(() => undefined);
  reapers.push(r);
  return r;
}

/** Starts, under `run`, a shell that leaves one sleeper in its group and one in a session of its own. */
async function startRun(run: ReapedRun): Promise<[string, string]> {
  const sleeps: [string, string] = [uniqueSleep(), uniqueSleep()];
  sleepsOfTest.push(...sleeps);
  const child = spawn('/bin/sh', ['-c', `${setsidSleep(sleeps[1])}; exec sleep ${sleeps[0]}`], {
    env: { ...process.env, ...run.env },
    stdio: 'ignore',
    detached: true,
  });
  run.group(child.pid!);
  await waitForSleepers(sleeps);
  return sleeps;
}

/** Pids of the watchers of `run`'s reaper, found by the cookie prefix they carry in their arguments. */
function watchersOf(run: ReapedRun): number[] {
  const prefix = `${RUN_COOKIE}=${run.env[RUN_COOKIE].replace(/\d+$/, '')}`;
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(prefix);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.runIf(process.platform === 'linux')('the reaper', () => {
  it("kills one run's group and setsid'd descendants on reap(), and leaves the other runs alone", async () => {
    const r = reaper();
    const [one, two] = [r.enroll(), r.enroll()];
    const [first, second] = [await startRun(one), await startRun(two)];
    one.reap();
    expect(await survivorsAfter(first)).toEqual([]);
    expect(sleepers(second)).toHaveLength(2);
    r.close();
    expect(await survivorsAfter(second)).toEqual([]);
  });

  it('replaces a watcher that someone killed, and the new one still reaps the older runs', async () => {
    const r = reaper();
    const run = r.enroll();
    const sleeps = await startRun(run);
    const [first] = watchersOf(run);
    expect(first).toBeDefined();
    process.kill(first!, 'SIGKILL');
    for (let end = Date.now() + 10_000; Date.now() < end && !watchersOf(run).some((pid) => pid !== first); ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(watchersOf(run).filter((pid) => pid !== first)).toHaveLength(1);
    r.close();
    expect(await survivorsAfter(sleeps)).toEqual([]);
  });
});
