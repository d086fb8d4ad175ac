import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapingCommand, survivorsAfter, useSleeps, waitForSleepers } from '../testing/orphans';
import { readLock } from './lock';
import { daemonAlive, lineClient, until, useDaemonSandboxes } from '../testing/daemon';

const sandbox = useDaemonSandboxes();
const testSleeps = useSleeps();

/** What the daemon answers a raw first line, and whether it then closed the connection. */
function rawFirstLine(socketPath: string, line: string): Promise<{ answer: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, closed: true }));
    socket.on('connect', () => socket.write(line));
    setTimeout(() => resolve({ answer, closed: false }), 8000).unref();
  });
}

/** Journal records of a thread. */
function turnsOf(dataDir: string, threadId: string): Array<{ status: string }> {
  const file = join(dataDir, 'tether', 'threads', `${threadId}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"type":"turn"'))
    .map((l) => JSON.parse(l).turn);
}

describe('tether daemon', () => {
  it('two daemons started at the same instant make one: the other exits 0 and both clients reach the winner', async () => {
    const box = sandbox();
    const [a, b] = await Promise.all([box.run('--idle-exit', '60'), box.run('--idle-exit', '60')]);
    const first = await box.connect();
    const second = await box.connect();
    expect(second.welcome.pid).toBe(first.welcome.pid);
    const loser = first.welcome.pid === a.pid ? b : a;
    expect(await box.exitOf(loser)).toBe(0);
    expect([a.pid, b.pid]).toContain(first.welcome.pid);
    expect(readLock(box.files.lock)?.pid).toBe(first.welcome.pid);
  });

  it('refuses a wrong token, garbage and an over-long first line, and closes the connection', async () => {
    const box = sandbox();
    await box.run('--idle-exit', '60');
    await box.connect();
    const wrong = await rawFirstLine(box.files.socket, `${JSON.stringify({ token: 'x'.repeat(43) })}\n`);
    expect(wrong).toEqual({ answer: expect.stringContaining('wrong token'), closed: true });
    expect(JSON.parse(wrong.answer)).toMatchObject({ ok: false });
    const garbage = await rawFirstLine(box.files.socket, '{"id":1,"method":"initialize"}\n');
    expect(garbage.closed).toBe(true);
    expect(JSON.parse(garbage.answer)).toMatchObject({ ok: false });
    const long = await rawFirstLine(box.files.socket, 'a'.repeat(10_000));
    expect(long.closed).toBe(true);
    expect(long.answer).toContain('longer than 4096 bytes');
    // The right token still works afterwards.
    expect((await box.connect({ control: 'status' })).welcome.ok).toBe(true);
  });

  it('keeps other users out: the folder is 0700, the socket and token 0600, and another uid cannot connect', async () => {
    const box = sandbox();
    await box.run('--idle-exit', '60');
    await box.connect();
    expect(statSync(box.files.dir).mode & 0o777).toBe(0o700);
    expect(statSync(box.files.socket).mode & 0o777).toBe(0o600);
    expect(statSync(box.files.token).mode & 0o777).toBe(0o600);
    expect(statSync(box.files.lock).mode & 0o777).toBe(0o600);
    // Node cannot read SO_PEERCRED without an addon, so the file modes are the uid check: the kernel refuses another
    // user's connect() before the daemon sees it (root passes any mode; it can read the token anyway). Tried for real
    // when the tests run as root, which can start a process as another user.
    if (process.getuid?.() === 0) {
      const probe = spawnSync(
        process.execPath,
        [
          '-e',
          `require('net').connect(${JSON.stringify(box.files.socket)}).on('error', e => { console.log(e.code); process.exit(0) }).on('connect', () => { console.log('connected'); process.exit(0) })`,
        ],
        { uid: 65534, gid: 65534, encoding: 'utf8', timeout: 10_000 },
      );
      expect(probe.stdout.trim()).toBe('EACCES');
    }
  });

  it('forgets a relay that left while its connection was being set up, and then idles out', async () => {
    const box = sandbox();
    // A config file to load makes the set-up take a while (the loader and its schema are imported then).
    const config = join(box.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ backends: { embedded: { kind: 'embedded' } } }));
    box.env['TETHER_CONFIG'] = config;
    const child = await box.run('--idle-exit', '0.3');
    await box.connect({ control: 'status' });
    const token = readFileSync(box.files.token, 'utf8');
    const socket = connect(box.files.socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.end(`${JSON.stringify({ token, browser: 'gone-at-once' })}\n`);
    socket.destroy();
    expect(await box.exitOf(child)).toBe(0);
  });

  it('recovers the socket and pidfile a SIGKILLed daemon left behind', async () => {
    const box = sandbox();
    const dead = await box.run('--idle-exit', '60');
    const first = await box.connect({ control: 'status' });
    dead.kill('SIGKILL');
    await box.exitOf(dead);
    expect(existsSync(box.files.socket)).toBe(true);
    expect(readLock(box.files.lock)?.pid).toBe(first.welcome.pid);
    await box.run('--idle-exit', '60');
    const second = await box.connect({ control: 'status' });
    expect(second.welcome.pid).not.toBe(first.welcome.pid);
    expect(readLock(box.files.lock)?.pid).toBe(second.welcome.pid);
  });

  it('exits when idle, but not while a turn runs after its client left', async () => {
    const box = sandbox();
    // 3 s: long enough for this client to connect on a loaded machine (at 0.3 s the daemon sometimes left first).
    const child = await box.run('--idle-exit', '3');
    const client = lineClient(await box.connect());
    await client.request('initialize', { clientInfo: { name: 'idle-test', version: '1' } });
    client.send({ method: 'initialized' });
    const started = await client.request('thread/start', { title: 'idle' });
    const threadId: string = started.result.thread.id;
    await client.request('turn/start', { threadId, input: [{ text: '/stream 800 10' }] });
    await client.waitFor((m) => m.method === 'item/agentMessage/delta');
    client.close();
    const leftAt = Date.now();
    const dataDir = box.env['XDG_DATA_HOME']!;
    // The client is gone; the turn (8 s) keeps the daemon up well past its 3 s idle time.
    expect(await box.exitOf(child)).toBe(0);
    const exitedAt = Date.now();
    expect(turnsOf(dataDir, threadId).at(-1)?.status).toBe('completed');
    expect(exitedAt - leftAt).toBeGreaterThan(3000);
    expect(existsSync(box.files.socket)).toBe(false);
    expect(existsSync(box.files.lock)).toBe(false);
  });

  it('stops cleanly on SIGTERM: the running turn is journaled as interrupted and its files are removed', async () => {
    const box = sandbox();
    const child = await box.run('--idle-exit', '60');
    const client = lineClient(await box.connect());
    await client.request('initialize', { clientInfo: { name: 'sigterm-test', version: '1' } });
    client.send({ method: 'initialized' });
    const started = await client.request('thread/start', { title: 'sigterm' });
    const threadId: string = started.result.thread.id;
    await client.request('turn/start', { threadId, input: [{ text: '/stream 100000 10' }] });
    await client.waitFor((m) => m.method === 'item/agentMessage/delta');
    child.kill('SIGTERM');
    expect(await box.exitOf(child)).toBe(0);
    expect(turnsOf(box.env['XDG_DATA_HOME']!, threadId).at(-1)?.status).toBe('interrupted');
    for (const file of [box.files.socket, box.files.token, box.files.lock]) expect(existsSync(file)).toBe(false);
    expect(daemonAlive(child.pid!)).toBe(false);
  });

  it.runIf(process.platform === 'linux').each(['SIGTERM', 'SIGKILL'] as const)(
    "leaves nothing its turns' commands started after %s, not even what escaped their process group",
    async (signal) => {
      const box = sandbox();
      const child = await box.run('--idle-exit', '60');
      const client = lineClient(await box.connect());
      await client.request('initialize', { clientInfo: { name: 'reaper-test', version: '1' } });
      client.send({ method: 'initialized' });
      const threadId: string = (await client.request('thread/start', { title: 'reaped' })).result.thread.id;
      const sleeps = testSleeps.five();
      await client.request('turn/start', { threadId, input: [{ text: `/bash ${escapingCommand(sleeps)}` }] });
      const ask = await client.waitFor((m) => m.method === 'approval/request');
      client.send({ id: ask.id, result: { decision: 'allow' } });
      await waitForSleepers(sleeps);
      child.kill(signal);
      expect(await box.exitOf(child)).toBe(signal === 'SIGTERM' ? 0 : null);
      expect(await survivorsAfter(sleeps)).toEqual([]);
    },
  );

  it('answers status with pid, version, clients and running turns, and stop ends it', async () => {
    const box = sandbox();
    const child = await box.run('--idle-exit', '60');
    const client = lineClient(await box.connect());
    await client.request('initialize', { clientInfo: { name: 'status-test', version: '1' } });
    const status = (await box.connect({ control: 'status' })).welcome.status!;
    expect(status).toMatchObject({ pid: child.pid, clients: 1, runningTurns: 0, socket: box.files.socket });
    await box.connect({ control: 'stop' });
    expect(await box.exitOf(child)).toBe(0);
    await until(() => !daemonAlive(child.pid!), 'the daemon to exit');
  });
});
