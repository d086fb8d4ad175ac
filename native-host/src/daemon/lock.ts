/**
 * The daemon's pidfile, which is also its lock: created with O_EXCL by the one daemon that runs, holding its pid, a
 * random nonce and its version. Two daemons starting at once race on the create and exactly one wins. A pidfile whose
 * process is gone (a SIGKILLed daemon) is stale: it is renamed away, which only one contender can do for a given file,
 * and the contender then checks that it renamed the stale file it examined (not a fresh one another contender created
 * meanwhile, which it puts back). Node has no flock(), so this stands in for it.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../private-files';
import { isAlive } from '../process-alive';

/** What the pidfile says of the daemon that holds it. */
export const LockInfo = z.object({
  pid: z.number().int().positive(),
  nonce: z.string(),
  version: z.string(),
  startedAtMs: z.number(),
});
/** What the pidfile says of the daemon that holds it. */
export type LockInfo = z.infer<typeof LockInfo>;

/** The lock was taken (release it on exit) or another live daemon holds it. */
export type LockResult =
  | { readonly acquired: true; readonly info: LockInfo; holds(): boolean; release(): void }
  | { readonly acquired: false; readonly holder: LockInfo };

/** A pidfile still being written (or torn by a crash while written) is judged stale after this long. */
const UNREADABLE_GRACE_MS = 2000;
const RETRY_MS = 10;
const MAX_ATTEMPTS = 400;

/** Reads the pidfile; undefined when it is missing or not (yet) a whole record. */
export function readLock(path: string): LockInfo | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = LockInfo.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `pid` runs and, where /proc tells, is a Tether daemon (a SIGKILLed daemon's pid may have been reused by
 * an unrelated process, which must not keep the lock forever).
 */
export function daemonAlive(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes('daemon');
  } catch {
    return true; // no /proc (macOS, Windows): the pid alone must do
  }
}

/** Takes the lock at `path` for this process, recovering a stale one; resolves with the holder when another lives. */
export async function acquireLock(
  path: string,
  version: string,
  alive: (pid: number) => boolean = daemonAlive,
): Promise<LockResult> {
  const info: LockInfo = { pid: process.pid, nonce: randomBytes(16).toString('hex'), version, startedAtMs: Date.now() };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (tryCreate(path, info)) {
      return {
        acquired: true,
        info,
        holds: () => readLock(path)?.nonce === info.nonce,
        release: () => {
          if (readLock(path)?.nonce === info.nonce) removeQuietly(path);
        },
      };
    }
    const holder = readLock(path);
    if (holder === undefined) {
      if (ageMs(path) < UNREADABLE_GRACE_MS) {
        await sleep(RETRY_MS);
        continue;
      }
    } else if (alive(holder.pid)) return { acquired: false, holder };
    stealStale(path, holder?.nonce);
  }
  throw new Error(`could not take the daemon lock ${path}: it kept changing hands; remove it if no daemon runs`);
}

function tryCreate(path: string, info: LockInfo): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Moves the stale pidfile (whose nonce was `nonce`) out of the way, putting back a fresh one taken by mistake. */
function stealStale(path: string, nonce: string | undefined): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another contender moved it first
  }
  if (readLock(aside)?.nonce !== nonce) {
    try {
      linkSync(aside, path);
    } catch {
      // A third contender created a lock meanwhile: it holds it; the one taken by mistake re-checks and gives up.
    }
  }
  removeQuietly(aside);
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
