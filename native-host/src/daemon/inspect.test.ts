import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { lineClient, useDaemonSandboxes } from '../testing/daemon';
import { formatUptime, inspectDaemon } from './inspect';
import { readLock } from './lock';

const sandbox = useDaemonSandboxes();
const strays: Array<{ kill(signal: NodeJS.Signals): boolean }> = [];
afterEach(() => {
  for (const child of strays.splice(0)) child.kill('SIGKILL');
});

describe('inspectDaemon', () => {
  it('says a daemon is not running when its folder holds nothing', async () => {
    const box = sandbox();
    expect(await inspectDaemon(box.files, { fix: true, version: '1.0.0' })).toEqual({ state: 'not-running' });
  });

  it("reports a running daemon's pid, version, socket, connected clients and running turns", async () => {
    const box = sandbox();
    await box.run('--idle-exit', '60');
    const client = lineClient(await box.connect());
    await client.request('initialize', { clientInfo: { name: 'inspect-test', version: '1' } });
    const found = await inspectDaemon(box.files, { fix: true, version: '1.0.0' });
    expect(found.state).toBe('running');
    if (found.state !== 'running') return;
    expect(found.status).toMatchObject({
      pid: readLock(box.files.lock)?.pid,
      socket: box.files.socket,
      clients: 1,
      runningTurns: 0,
    });
    expect(found.status.uptimeMs).toBeGreaterThanOrEqual(0);
  });

  it('finds the pidfile and socket a SIGKILLed daemon left, removes them only with fix, and a new daemon starts', async () => {
    const box = sandbox();
    const dead = await box.run('--idle-exit', '60');
    const link = await box.connect({ control: 'status' });
    dead.kill('SIGKILL');
    await box.exitOf(dead);

    const seen = await inspectDaemon(box.files, { fix: false, version: '1.0.0' });
    expect(seen).toEqual({
      state: 'stale',
      leftovers: [
        `pidfile ${box.files.lock} of pid ${link.welcome.pid}, which no longer runs`,
        `socket ${box.files.socket}, which nothing listens on`,
      ],
      fixed: [],
    });
    expect(existsSync(box.files.lock) && existsSync(box.files.socket)).toBe(true);

    const fixed = await inspectDaemon(box.files, { fix: true, version: '1.0.0' });
    expect(fixed.state === 'stale' && fixed.fixed).toEqual([
      `removed the stale pidfile ${box.files.lock}`,
      `removed the stale socket ${box.files.socket}`,
    ]);
    expect(existsSync(box.files.lock) || existsSync(box.files.socket)).toBe(false);
    expect(await inspectDaemon(box.files, { fix: true, version: '1.0.0' })).toEqual({ state: 'not-running' });

    await box.run('--idle-exit', '60');
    const again = await box.connect({ control: 'status' });
    expect(again.welcome.pid).not.toBe(link.welcome.pid);
  });

  it.runIf(process.platform === 'linux')(
    'calls a live daemon that holds the lock but does not answer unresponsive, and removes nothing of it',
    async () => {
      const box = sandbox();
      await box.run('--idle-exit', '60');
      await box.connect({ control: 'status' });
      // A process whose command line names "daemon" and that holds the pidfile, but never listens.
      const hung = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'daemon'], { stdio: 'ignore' });
      strays.push(hung);
      const held = readLock(box.files.lock)!;
      writeFileSync(box.files.lock, JSON.stringify({ ...held, pid: hung.pid }));
      writeFileSync(box.files.token, 'not-the-token');

      const found = await inspectDaemon(box.files, { fix: true, version: '1.0.0' });
      expect(found).toMatchObject({ state: 'unresponsive', pid: hung.pid });
      expect(readLock(box.files.lock)?.pid).toBe(hung.pid);
      expect(existsSync(box.files.socket)).toBe(true);
    },
  );

  it('writes an uptime in minutes and seconds, or hours and minutes past an hour', () => {
    expect(formatUptime(192_000)).toBe('3 min 12 s');
    expect(formatUptime((2 * 60 + 5) * 60_000)).toBe('2 h 5 min');
  });
});
