/**
 * Kills what commands and backends leave behind, even when this process dies by SIGKILL (the ProcessTreeKiller idea).
 * The parent-death signal reaches only the direct child; a shell's `sleep 300 &`, a `setsid` daemon or a double fork
 * outlive it. So each run gets its own process group and an environment cookie (`TETHER_RUN=<token>.<n>`) that its
 * descendants inherit, and a small watcher process, in its own session and linked to us by a pipe, is told each run's
 * group. When the pipe closes (we died, however) the watcher SIGKILLs every recorded group and every process of our
 * user whose /proc/<pid>/environ carries our token, then exits; asked to, it does the same for one run. Without /proc
 * (macOS) it kills the groups only. cgroups would be tighter but are often read-only (v1, or no delegation).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { errorMessage } from '@tether/protocol/errors';

/** The environment variable that marks every process a run started. */
export const RUN_COOKIE = 'TETHER_RUN';

/** One command or backend, tracked from its start until it is reaped. */
export interface ReapedRun {
  /** Merge into the run's environment: descendants inherit it, which is how the watcher finds them. */
  readonly env: { readonly [RUN_COOKIE]: string };
  /** Records the run's process group (the pid of a child spawned with `detached: true`). */
  group(pgid: number): void;
  /** SIGKILLs the run's group and every process carrying its cookie, now; afterwards the run is forgotten. */
  reap(): void;
}

/**
 * The watcher, run from its source text by `node -e` (so nothing has to be located on disk: the same code serves the
 * bundle, the sources under test and a copied install). It may use only its parameters and globals.
 * Lines it reads: `G <run> <pgid>` records a group, `R <run>` reaps one run. EOF or a signal reaps them all.
 */
function watch(fs: typeof import('node:fs'), cookie: string): void {
  const groups = new Map<string, number>();
  const uid = process.getuid?.();
  const hasProc = fs.existsSync('/proc/self/environ');
  const killGroup = (pgid: number | undefined): void => {
    if (pgid === undefined) return;
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // The group is already empty.
    }
  };
  // `needle` is `\0<cookie><run>\0` for one run, or `\0<cookie>` for all of them (cookie: `TETHER_RUN=<token>.`).
  const sweep = (needle: string): void => {
    if (!hasProc) return;
    const killed = new Set<number>();
    // Rescanned until a pass finds no new process: one may fork between our read and our kill.
    for (let pass = 0; pass < 50; pass++) {
      let found = 0;
      for (const name of fs.readdirSync('/proc')) {
        const pid = Number(name);
        if (!Number.isInteger(pid) || pid === process.pid || killed.has(pid)) continue;
        try {
          if (fs.statSync(`/proc/${name}`).uid !== uid) continue;
          if (!`\0${fs.readFileSync(`/proc/${name}/environ`, 'latin1')}\0`.includes(needle)) continue;
          process.kill(pid, 'SIGKILL');
          killed.add(pid);
          found++;
        } catch {
          // Gone, or not ours to read.
        }
      }
      if (found === 0) return;
    }
  };
  const reapAll = (): void => {
    for (const pgid of groups.values()) killGroup(pgid);
    sweep(`\0${cookie}`);
    process.exit(0);
  };
  let pending = '';
  process.stdin.setEncoding('latin1');
  process.stdin.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [verb, run, pgid] = line.split(' ');
      if (verb === 'G' && run && pgid) groups.set(run, Number(pgid));
      if (verb === 'R' && run) {
        killGroup(groups.get(run));
        groups.delete(run);
        sweep(`\0${cookie}${run}\0`);
      }
    }
  });
  process.stdin.on('end', reapAll);
  process.stdin.on('error', reapAll);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, reapAll);
}

/** Watchers started again after one ended unasked, before giving up (one that cannot run at all would loop). */
const MAX_RESTARTS = 3;

/** Tracks runs and owns the watcher that reaps them; one per process (see `processReaper`). */
export class Reaper {
  private readonly token = randomBytes(8).toString('hex');
  private watcher: ChildProcess | undefined;
  private unavailable = process.platform === 'win32';
  private runs = 0;
  private restarts = 0;
  /** Groups of the runs not reaped yet, told again to a watcher that replaces one that died. */
  private readonly groups = new Map<string, number>();

  constructor(private readonly log: (line: string) => void = (line) => process.stderr.write(`tether: ${line}\n`)) {}

  /** Starts tracking one run (and the watcher, on the first one). Call before spawning: the run needs `env`. */
  enroll(): ReapedRun {
    const run = String(++this.runs);
    const cookie = `${this.token}.${run}`;
    this.start();
    let reaped = false;
    let pgid: number | undefined;
    return {
      env: { [RUN_COOKIE]: cookie },
      group: (id) => {
        pgid = id;
        this.groups.set(run, id);
        this.tell(`G ${run} ${id}`);
      },
      reap: () => {
        if (reaped) return;
        reaped = true;
        this.groups.delete(run);
        // Directly as well: the group dies now even where no watcher could start.
        if (pgid !== undefined) killGroup(pgid);
        this.tell(`R ${run}`);
      },
    };
  }

  /** Reaps every run still tracked and lets the watcher exit (as our death would); later runs get process groups only. */
  close(): void {
    this.watcher?.stdin?.end();
    this.watcher = undefined;
    this.unavailable = true;
  }

  private start(): void {
    if (this.watcher || this.unavailable) return;
    const env: NodeJS.ProcessEnv = {};
    try {
      // Its own session, so a signal to our group does not take it down before it could reap; no cookie of an outer
      // Tether, so an outer watcher's sweep reaches our commands only through us.
      const script = `(${watch.toString()})(require('node:fs'), process.argv[1])`;
      this.watcher = spawn(process.execPath, ['-e', script, `${RUN_COOKIE}=${this.token}.`], {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        cwd: '/',
        env,
      });
    } catch (error) {
      this.giveUp(error);
      return;
    }
    const watcher = this.watcher;
    watcher.once('error', (error) => this.giveUp(error));
    watcher.once('exit', (code, signal) => {
      if (this.watcher !== watcher) return;
      // Killed by someone: a new one (same token, so it finds the older runs' cookies too) is told the live groups.
      this.watcher = undefined;
      if (++this.restarts > MAX_RESTARTS) {
        this.giveUp(new Error(`it ended ${MAX_RESTARTS + 1} times, last by ${signal ?? `code ${code}`}`));
        return;
      }
      this.log(`the process watcher ended (${signal ?? `code ${code}`}); starting another`);
      this.start();
    });
    watcher.stdin!.on('error', () => undefined);
    // The watcher must never keep us alive: it exists to outlive us.
    watcher.unref();
    if (watcher.stdin instanceof Socket) watcher.stdin.unref();
    for (const [run, pgid] of this.groups) this.tell(`G ${run} ${pgid}`);
  }

  private tell(line: string): void {
    if (this.watcher?.stdin?.writable) this.watcher.stdin.write(`${line}\n`);
  }

  private giveUp(error: unknown): void {
    this.watcher = undefined;
    this.unavailable = true;
    this.log(
      `cannot start the process watcher (${errorMessage(error)}): ` +
        'commands are killed by process group only, so daemons they start may outlive a killed server',
    );
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already empty.
  }
}

let shared: Reaper | undefined;

/** The one reaper of this process, shared by the bash tool and the host's backends. */
export function processReaper(): Reaper {
  shared ??= new Reaper();
  return shared;
}
