/**
 * Finds the processes a test's shell commands started, by a unique `sleep` duration in their command line (Linux
 * /proc), so a test can tell whether any of them outlived the server that ran them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach } from 'vitest';

let counter = 0;

/** A `sleep` duration no other process on the machine uses, e.g. `300.4242017`: 300 s, so a survivor is plain to see. */
export function uniqueSleep(): string {
  counter++;
  return `300.${process.pid}0${counter}${Math.floor(Math.random() * 1000)}`;
}

/** Unique sleep durations made for one test, each killed after the test whatever happened. */
export interface TestSleeps {
  one(): string;
  /** Five at once, as escapingCommand takes them. */
  five(): [string, string, string, string, string];
}

/** Registers an afterEach that kills the sleepers of the durations the returned TestSleeps made during the test. */
export function useSleeps(): TestSleeps {
  const made: string[] = [];
  afterEach(() => killSleepers(made.splice(0)));
  const one = (): string => {
    const duration = uniqueSleep();
    made.push(duration);
    return duration;
  };
  return { one, five: () => [one(), one(), one(), one(), one()] };
}

/** The command-line words of every live process (zombies excluded), by pid. */
function processTable(): Map<number, string[]> {
  const table = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue;
      table.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      // Gone between readdir and read.
    }
  }
  return table;
}

/** Live processes that are `sleep <duration>` for one of `durations`, as "pid sleep duration" lines. */
export function sleepers(durations: readonly string[]): string[] {
  const found: string[] = [];
  for (const [pid, argv] of processTable()) {
    if (argv.length === 2 && argv[0]!.split('/').pop() === 'sleep' && durations.includes(argv[1]!))
      found.push(`${pid} ${argv.join(' ')}`);
  }
  return found;
}

/** Resolves once every duration has its sleeping process; rejects after `deadlineMs` naming the missing ones. */
export async function waitForSleepers(durations: readonly string[], deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const running = sleepers(durations).join('\n');
    const missing = durations.filter((d) => !running.includes(` ${d}`));
    if (missing.length === 0) return;
    if (Date.now() > end) throw new Error(`these sleeps never started within ${deadlineMs} ms: ${missing.join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls until no `sleep` of `durations` is alive; resolves with those still alive after `deadlineMs` (empty: all gone). */
export async function survivorsAfter(durations: readonly string[], deadlineMs = 10_000): Promise<string[]> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const alive = sleepers(durations);
    if (alive.length === 0 || Date.now() > end) return alive;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills every `sleep` of `durations` (cleanup after a failed test, so a failure does not leave 300 s sleepers). */
export function killSleepers(durations: readonly string[]): void {
  for (const line of sleepers(durations)) {
    try {
      process.kill(Number(line.split(' ')[0]), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Shell text that starts `sleep <duration>` in a new session and waits until it runs (so the shell cannot exit, and a
 * kill of its group cannot land, while the sleeper is still in the group).
 */
export function setsidSleep(duration: string): string {
  return `setsid sleep ${duration} & until [ "$(cat /proc/$!/comm 2>/dev/null)" = sleep ]; do sleep 0.01; done`;
}

/**
 * One shell command that leaves a sleeper in every way a command can escape its shell: a foreground grandchild, a
 * job of a subshell, a `setsid` one, a `nohup` one and a double-forked daemon in a new session. The foreground
 * `sleep` keeps the command running; all five hold nothing but what they inherited.
 */
export function escapingCommand(d: readonly [string, string, string, string, string]): string {
  return `(sleep ${d[1]} &); setsid sleep ${d[2]} & nohup sleep ${d[3]} & (setsid sh -c 'sleep ${d[4]} &' &); sleep ${d[0]}; echo done`;
}
