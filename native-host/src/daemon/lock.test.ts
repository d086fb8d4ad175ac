import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs';
import { acquireLock, readLock } from './lock';

const tempDir = useTempDirs('tether-lock-');
/** A pid that no process has: the highest a Linux kernel hands out, plus one. */
const DEAD_PID = 4_194_305;

describe('the daemon lock', () => {
  it('goes to exactly one of several contenders racing for it', async () => {
    const path = join(tempDir(), 'daemon.pid');
    const results = await Promise.all(Array.from({ length: 8 }, () => acquireLock(path, '1.0.0', () => true)));
    const winners = results.filter((r) => r.acquired);
    expect(winners).toHaveLength(1);
    for (const r of results) if (!r.acquired) expect(r.holder.nonce).toBe(readLock(path)?.nonce);
  });

  it('takes over a pidfile whose process is gone, and only one contender does', async () => {
    const dir = tempDir();
    const path = join(dir, 'daemon.pid');
    writeFileSync(path, JSON.stringify({ pid: DEAD_PID, nonce: 'old', version: '0.0.1', startedAtMs: 1 }));
    const alive = (pid: number): boolean => pid !== DEAD_PID;
    const results = await Promise.all(Array.from({ length: 8 }, () => acquireLock(path, '1.0.0', alive)));
    expect(results.filter((r) => r.acquired)).toHaveLength(1);
    expect(readLock(path)?.pid).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(['daemon.pid']);
  });

  it('waits for a pidfile being written, and treats one unreadable for 2 s as stale', async () => {
    const path = join(tempDir(), 'daemon.pid');
    writeFileSync(path, '{"pid":');
    const old = new Date(Date.now() - 5000);
    utimesSync(path, old, old);
    const result = await acquireLock(path, '1.0.0', () => true);
    expect(result.acquired).toBe(true);
  });

  it('release removes only its own pidfile, and holds() says when another took it', async () => {
    const path = join(tempDir(), 'daemon.pid');
    const lock = await acquireLock(path, '1.0.0');
    if (!lock.acquired) throw new Error('expected the lock');
    expect(lock.holds()).toBe(true);
    writeFileSync(path, JSON.stringify({ pid: 1, nonce: 'other', version: '1', startedAtMs: 1 }));
    expect(lock.holds()).toBe(false);
    lock.release();
    expect(existsSync(path)).toBe(true);
  });
});
