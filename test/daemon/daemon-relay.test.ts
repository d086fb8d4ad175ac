import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectWholeAnswer } from '../host/answer-checks';
import { deltaText, HOST_ENTRY, type HostProcess, isAlive, type Msg } from '../host/host-process';
import { type DaemonEnv, threadJournal, waitUntil } from './daemon-env';
import { daemonPerTest } from './daemon-per-test';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string })
  .version;

const each = daemonPerTest();
const host = (d: DaemonEnv): HostProcess => each.host({ env: d.env });

async function initialize(h: HostProcess): Promise<void> {
  const init = await h.request('initialize', { clientInfo: { name: 'daemon-test', version: '1' } }, 20_000);
  expect(init.error).toBeUndefined();
  h.send({ method: 'initialized' });
}

/** Pids of the processes whose command line names `text` (Linux /proc). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const textOf = (item: any): string => item.content.text;

describe('tether host relaying to the daemon (TETHER_DAEMON=1)', () => {
  it("starts the daemon and answers bridge/hello with the daemon's version beside the host's", async () => {
    const daemon = each.daemon();
    const h = host(daemon);
    const hello = await h.request('bridge/hello', { clientInfo: { name: 'daemon-test', version: '1' } }, 20_000);
    expect(hello.result).toMatchObject({ hostVersion: VERSION, daemonVersion: VERSION, backend: 'embedded' });
    expect(hello.result.daemonUnavailable).toBeUndefined();
    expect(daemon.pid()).toBeDefined();
    expect(isAlive(daemon.pid()!)).toBe(true);
  });

  it('keeps a streamed turn running into the journal after the host exits, and a new host reads it whole, once', async () => {
    const daemon = each.daemon();
    const first = host(daemon);
    await initialize(first);
    const started = await first.request('thread/start', { title: 'outlives the browser' });
    const threadId: string = started.result.thread.id;
    const from = first.messages.length;
    await first.request('turn/start', { threadId, input: [{ text: '/stream 300 10' }] });
    await first.waitFor((m) => m.method === 'item/agentMessage/delta', 10_000, from);
    first.closeInput();
    const exit = await first.exited;
    expect(exit.code).toBe(0);
    const daemonPid = daemon.pid()!;
    expect(isAlive(daemonPid)).toBe(true);
    const turnEnd = () =>
      threadJournal(daemon, threadId).find((r) => r.type === 'turn' && r.turn?.status !== 'running');
    // The turn was not finished when the browser left: it finishes in the daemon, journaled as completed.
    expect(turnEnd()).toBeUndefined();
    await waitUntil(() => turnEnd() !== undefined, 'the turn to end in the journal', 20_000);
    expect(turnEnd()?.turn?.status).toBe('completed');

    const second = host(daemon);
    await initialize(second);
    const read = await second.request('thread/read', { threadId });
    const answers = (read.result.items as Msg[]).filter((i: any) => i.type === 'agentMessage');
    expect(answers).toHaveLength(1);
    const expected = Array.from({ length: 300 }, (_, i) => `${i + 1} `).join('');
    expect(textOf(answers[0])).toBe(expected);
    expect(daemon.pid()).toBe(daemonPid);
  });

  it('lets a new host resume a turn still streaming: the answer so far, then the rest live, no gap, no duplicate', async () => {
    const daemon = each.daemon();
    const first = host(daemon);
    await initialize(first);
    const threadId: string = (await first.request('thread/start', { title: 'resumed live' })).result.thread.id;
    const from = first.messages.length;
    await first.request('turn/start', { threadId, input: [{ text: '/stream 800 10' }] });
    await first.waitFor((m) => m.method === 'item/agentMessage/delta', 10_000, from);
    first.closeInput();
    await first.exited;

    const second = host(daemon);
    await initialize(second);
    const mark = second.messages.length;
    const resumed = await second.request('thread/resume', { threadId });
    expect(resumed.result.activeTurn?.status).toBe('running');
    const open = (resumed.result.items as Msg[]).filter((i: any) => i.type === 'agentMessage');
    expect(open).toHaveLength(1);
    const soFar = textOf(open[0]);
    const done = await second.waitFor((m) => m.method === 'turn/completed', 20_000, mark);
    expect(done.params.turn.status).toBe('completed');
    const rest = deltaText(second, mark);
    const expected = Array.from({ length: 800 }, (_, i) => `${i + 1} `).join('');
    expect(soFar.length).toBeGreaterThan(0);
    expect(soFar + rest).toBe(expected);
  });

  it('serves two browsers at once, each a session of its own, through one daemon', async () => {
    const daemon = each.daemon();
    const chrome = host(daemon);
    const manifest = join(daemon.dir, 'tether.json');
    const firefox = each.host({ env: daemon.env, args: ['--allow-dev-extension', manifest, 'tether@tether.dev'] });
    await Promise.all([initialize(chrome), initialize(firefox)]);
    const [a, b] = await Promise.all([
      chrome.request('thread/start', { title: 'in chrome' }),
      firefox.request('thread/start', { title: 'in firefox' }),
    ]);
    const chromeThread: string = a.result.thread.id;
    const fromChrome = chrome.messages.length;
    const fromFirefox = firefox.messages.length;
    await chrome.request('turn/start', { threadId: chromeThread, input: [{ text: '/stream 3' }] });
    await chrome.waitFor((m) => m.method === 'turn/completed', 10_000, fromChrome);
    // Firefox's connection gets none of the turn of Chrome's thread. (Thread lifecycle notifications, thread/started
    // and thread/status/changed, go to every connection of the engine, as they did to every window of one browser:
    // History lists every thread.)
    const leaked = firefox.messages
      .slice(fromFirefox)
      .filter((m) => /^(turn|item)\//.test(m.method ?? '') && JSON.stringify(m).includes(chromeThread));
    expect(leaked.map((m) => m.method)).toEqual([]);
    expect(b.result.thread.id).not.toBe(chromeThread);
    expect(daemon.tether('daemon', 'status').stdout).toMatch(/clients\s+2/);
  });

  it('keeps a command backend and its running turn after the relay left, then stops it once the turn ends', async () => {
    const daemon = each.daemon();
    const backendData = join(daemon.dir, 'backend-data');
    const config = {
      defaultBackend: 'child',
      backends: {
        child: {
          kind: 'command',
          argv: [process.execPath, HOST_ENTRY, 'app-server', '--listen', 'stdio', '--data-dir', backendData],
        },
      },
    };
    const first = each.host({ env: daemon.env, config });
    await initialize(first);
    const started = await first.request('thread/start', { title: 'a child backend outlives the browser' });
    const threadId: string = started.result.thread.id;
    const from = first.messages.length;
    await first.request('turn/start', { threadId, input: [{ text: '/stream 600 10' }] });
    await first.waitFor((m) => m.method === 'item/agentMessage/delta', 10_000, from);
    first.closeInput();
    expect((await first.exited).code).toBe(0);
    const status = (): string => daemon.tether('daemon', 'status').stdout;
    expect(status()).toMatch(/running turns\s+1/);
    const file = join(backendData, 'threads', `${threadId}.jsonl`);
    const ended = () =>
      existsSync(file) && /"type":"turn","turn":\{[^\n]*"status":"completed"/.test(readFileSync(file, 'utf8'));
    await waitUntil(ended, 'the child backend to finish the turn', 20_000);
    await waitUntil(() => /running turns\s+0/.test(status()), 'the daemon to count the turn as ended');
    const answer = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type":"item"') && l.includes('"agentMessage"'))
      .map((l) => JSON.parse(l).item);
    expect(answer).toHaveLength(1);
    expect(textOf(answer[0])).toBe(Array.from({ length: 600 }, (_, i) => `${i + 1} `).join(''));
    // Its turn done and no browser left, the backend is stopped.
    await waitUntil(() => processesNaming(backendData).length === 0, 'the child backend to be stopped');
  });

  it('delivers a 3 MB answer through the relay whole, in frames of at most 1 MiB, however the daemon joined its lines', async () => {
    const daemon = each.daemon();
    const h = host(daemon);
    await initialize(h);
    const threadId: string = (await h.request('thread/start', { title: 'big' })).result.thread.id;
    const from = h.messages.length;
    await h.request('turn/start', { threadId, input: [{ text: '/big 3000000' }] });
    await h.waitFor((m) => m.method === 'turn/completed', 30_000, from);
    expectWholeAnswer(h, from, 3_000_000);
  });

  describe('with a daemon of another version', () => {
    /** Starts `tether daemon run` reporting version 0.0.1, and resolves once it answers. */
    async function oldDaemon(d: DaemonEnv): Promise<number> {
      const child = spawn(process.execPath, [HOST_ENTRY, 'daemon', 'run'], {
        env: { ...process.env, ...d.env, TETHER_TEST_DAEMON_VERSION: '0.0.1' },
        stdio: 'ignore',
        detached: true,
      });
      child.unref();
      await waitUntil(() => /version\s+0\.0\.1/.test(d.tether('daemon', 'status').stdout), 'the old daemon');
      return child.pid!;
    }

    it("replaces it when idle: bridge/hello then reports a daemon of the host's version", async () => {
      const daemon = each.daemon();
      const old = await oldDaemon(daemon);
      const h = host(daemon);
      const hello = await h.request('bridge/hello', {}, 20_000);
      expect(hello.result).toMatchObject({ hostVersion: VERSION, daemonVersion: VERSION });
      expect(isAlive(old)).toBe(false);
      expect(daemon.pid()).not.toBe(old);
    });

    it('keeps it while a browser uses it, and bridge/hello shows both versions', async () => {
      const daemon = each.daemon();
      const old = await oldDaemon(daemon);
      const token = readFileSync(join(daemon.dir, 'run', 'daemon.token'), 'utf8');
      const browser = connect(join(daemon.dir, 'run', 'daemon.sock'));
      await new Promise((resolve) => browser.once('connect', resolve));
      browser.write(`${JSON.stringify({ token, browser: 'other' })}\n`);
      await waitUntil(() => /clients\s+1/.test(daemon.tether('daemon', 'status').stdout), 'the other browser');
      const h = host(daemon);
      const hello = await h.request('bridge/hello', {}, 20_000);
      expect(hello.result).toMatchObject({ hostVersion: VERSION, daemonVersion: '0.0.1' });
      expect(daemon.pid()).toBe(old);
      browser.destroy();
    });
  });

  it('serves in-process and says why in bridge/hello when the daemon cannot run', async () => {
    // A runtime folder that is a file: the daemon cannot make its socket there.
    const daemon = each.daemon();
    const blocker = join(daemon.dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const h = each.host({ env: { ...daemon.env, TETHER_RUNTIME_DIR: blocker } });
    const hello = await h.request('bridge/hello', {}, 20_000);
    expect(hello.result.hostVersion).toBe(VERSION);
    expect(hello.result.daemonVersion).toBeUndefined();
    expect(hello.result.daemonUnavailable).toMatch(/daemon/);
    await initialize(h);
    const started = await h.request('thread/start', { title: 'in-process' });
    expect(started.result.thread.id).toEqual(expect.any(String));
    expect(readdirSync(daemon.dir)).not.toContain('run');
  });
});
