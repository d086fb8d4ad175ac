/**
 * `tether host` as a real process fed what no browser sends: deep nesting, nested batches, bad lengths, invalid UTF-8.
 * Each must get a clear error answer and a line in host.log, and the host must go on serving (or, when the stream
 * itself is unreadable, exit with its documented code); nothing may crash it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameHeader, JsonlDecoder } from '@tether/protocol/codec';
import { afterEach, describe, expect, it } from 'vitest';
import { stopDaemonIn } from '../support/daemons';
import { DEV_ORIGIN, HOST_ENTRY, type HostProcess, logsOf, type Msg, startHost } from './host-process';

const hosts: HostProcess[] = [];
function host(): HostProcess {
  const h = startHost({ args: ['--allow-dev-extension', DEV_ORIGIN] });
  hosts.push(h);
  return h;
}
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const INITIALIZE = { clientInfo: { name: 'hostile-input-test', version: '1' } };

/** One native-messaging frame holding exactly `payload`. */
function rawFrame(payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([frameHeader(body.length), body]);
}

/** host.log and daemon.log: a frame error is the relay's, a message refused the daemon's (host.log in-process). */
function hostLog(h: HostProcess): string {
  return logsOf(h);
}

/** The error answers with a null id received from `from` on. */
function refusals(h: HostProcess, from = 0): Msg[] {
  return h.messages.slice(from).filter((m) => m.id === null && m.error !== undefined);
}

/** Sends `initialize` after whatever was sent before, and checks that it is answered (the host survived). */
async function stillServes(h: HostProcess): Promise<void> {
  const init = await h.request('initialize', INITIALIZE, 20_000);
  expect(init.result.serverInfo.name).toBe('tether-app-server');
}

describe('tether host fed hostile input', () => {
  it('answers a frame of 200 KB of "[" with -32700, logs it, and still answers initialize', async () => {
    const h = host();
    h.sendRaw(rawFrame('['.repeat(200_000)));
    await stillServes(h);
    expect(refusals(h)).toEqual([
      {
        id: null,
        error: {
          code: -32700,
          message: expect.stringMatching(
            /^Parse error: a batch must be a JSON array of messages, and this one is not well-formed/,
          ),
        },
      },
    ]);
    expect(hostLog(h)).toContain('refused a message from the browser: Parse error: a batch must be a JSON array');
  });

  it('refuses 5,000-deep and 100,000-deep members of a batch with -32600 each, logs it, and still answers initialize', async () => {
    const h = host();
    h.sendRaw(rawFrame(`[${deep(5000)},${deep(100_000)}]`));
    await stillServes(h);
    const refused = refusals(h);
    expect(refused).toHaveLength(2);
    for (const m of refused)
      expect(m.error).toEqual({
        code: -32600,
        message: 'Invalid request: a batch cannot contain a batch; send its messages as members of one batch',
      });
    expect(hostLog(h)).toContain('refused a message from the browser: Invalid request: a batch cannot contain a batch');
  });

  it('passes a request holding a 100,000-deep value inside a batch to the app-server, which answers it', async () => {
    const h = host();
    await stillServes(h);
    h.sendRaw(rawFrame(`[{"id":"deep","method":"thread/list","params":{"cursor":${deep(100_000)}}}]`));
    const answer = await h.waitFor((m) => m.id === 'deep', 20_000);
    expect(answer.error).toEqual({ code: -32602, message: expect.stringContaining('cursor'), data: expect.anything() });
    const list = await h.request('thread/list', {}, 20_000);
    expect(list.result.threads).toEqual([]);
  });

  it('refuses a batch nested in a batch at the first level, with id null, and routes its sibling', async () => {
    const h = host();
    h.sendRaw(
      rawFrame(
        `[[{"id":"inner","method":"initialize","params":${JSON.stringify(INITIALIZE)}}],{"id":"outer","method":"initialize","params":${JSON.stringify(INITIALIZE)}}]`,
      ),
    );
    const outer = await h.waitFor((m) => m.id === 'outer', 20_000);
    expect(outer.result.serverInfo.name).toBe('tether-app-server');
    expect(refusals(h)).toEqual([
      { id: null, error: { code: -32600, message: expect.stringContaining('a batch cannot contain a batch') } },
    ]);
    expect(h.messages.some((m) => m.id === 'inner')).toBe(false);
    expect(hostLog(h)).toContain('a batch cannot contain a batch');
  });

  it('answers invalid UTF-8 with -32700 naming UTF-8, logs it, and still answers initialize', async () => {
    const h = host();
    const bad = Buffer.concat([
      Buffer.from('{"id":"bad","method":"initialize","params":{"clientInfo":{"name":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","version":"1"}}}'),
    ]);
    h.sendRaw(rawFrame(bad));
    await stillServes(h);
    expect(h.messages.some((m) => m.id === 'bad')).toBe(false);
    expect(refusals(h)).toEqual([
      {
        id: null,
        error: {
          code: -32700,
          message: `Parse error: Message of ${bad.length} bytes is not valid UTF-8: the peer must write UTF-8 JSON`,
        },
      },
    ]);
    expect(hostLog(h)).toContain(`undecodable input: Message of ${bad.length} bytes is not valid UTF-8`);
  });

  it('answers a frame declaring a 4 GB length with a frameError notification, logs it, and exits with code 5', async () => {
    const h = host();
    await stillServes(h);
    h.sendRaw(Buffer.from([0xf0, 0xff, 0xff, 0xff, 0x7b, 0x7d]));
    const exit = await h.exited;
    expect(exit.code).toBe(5);
    const notice = h.messages.find((m) => m.method === 'error');
    expect(notice?.params).toEqual({
      code: 'frameError',
      message: expect.stringContaining('the input is not a native-messaging stream'),
    });
    expect(hostLog(h)).toMatch(/Native-messaging frame .*4294967280 bytes/);
    expect(hostLog(h)).toContain('stopped (exit 5)');
  });

  it('treats a zero-length frame as a corrupt stream: a frameError notification, then exit code 5', async () => {
    const h = host();
    await stillServes(h);
    h.sendRaw(
      Buffer.concat([
        Buffer.alloc(4),
        rawFrame(JSON.stringify({ id: 'after', method: 'initialize', params: INITIALIZE })),
      ]),
    );
    expect((await h.exited).code).toBe(5);
    const notice = h.messages.find((m) => m.method === 'error');
    expect(notice?.params).toEqual({
      code: 'frameError',
      message: expect.stringContaining('Zero-length native-messaging frame'),
    });
    expect(h.messages.some((m) => m.id === 'after')).toBe(false);
    expect(hostLog(h)).toContain('stopped (exit 5)');
  });

  it('logs a frame cut short by the end of input and exits with code 5', async () => {
    const h = host();
    await stillServes(h);
    const cut = rawFrame(JSON.stringify({ id: 'cut', method: 'initialize', params: INITIALIZE })).subarray(0, 30);
    h.sendRaw(cut);
    h.closeInput();
    expect((await h.exited).code).toBe(5);
    expect(hostLog(h)).toContain(
      `Input ended in the middle of a native-messaging frame: got 26 of ${cut.readUInt32LE(0)} payload bytes`,
    );
    expect(h.messages.some((m) => m.id === 'cut')).toBe(false);
  });
});

describe('invalid UTF-8, with and without the host', () => {
  it('gets the same -32700 from the standalone app-server as through the host', async () => {
    const child = spawn(process.execPath, [HOST_ENTRY, 'app-server', '--listen', 'stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const line = Buffer.concat([
      Buffer.from('{"id":"bad","method":"initialize","params":{"clientInfo":{"name":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","version":"1"}}}'),
    ]);
    const answers: Msg[] = [];
    const decoder = new JsonlDecoder({
      message: (m) => answers.push(m as Msg),
      error: (error) => {
        throw error;
      },
    });
    child.stdout.on('data', (c: Buffer) => decoder.push(c));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end(Buffer.concat([line, Buffer.from('\n')]));
    await exited;
    decoder.end();
    expect(answers).toContainEqual(
      expect.objectContaining({
        id: null,
        error: {
          code: -32700,
          message: `Parse error: JSONL line of ${line.length} bytes is not valid UTF-8: the peer must write UTF-8 JSON`,
        },
      }),
    );
    expect(answers.some((m) => m.id === 'bad')).toBe(false);
  });
});

describe('a crash of the host', () => {
  it('leaves a line in host.log and exits with code 70', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-host-crash-'));
    try {
      // Planted before the host starts: throws from a timer once the host has installed its crash handlers, as a
      // bug anywhere in an event handler would.
      const plant = `data:text/javascript,const t = setInterval(() => { if (process.listenerCount('uncaughtException') > 0) { clearInterval(t); throw new Error('planted by the test'); } }, 10);`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        XDG_STATE_HOME: join(dir, 'state'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        XDG_DATA_HOME: join(dir, 'data'),
        TETHER_RUNTIME_DIR: join(dir, 'run'),
      };
      delete env['TETHER_CONFIG'];
      const run = spawnSync(
        process.execPath,
        ['--import', plant, HOST_ENTRY, 'host', '--allow-dev-extension', DEV_ORIGIN],
        { env, input: '', timeout: 60_000 },
      );
      expect(run.status).toBe(70);
      expect(readFileSync(join(dir, 'state/tether/host.log'), 'utf8')).toMatch(
        /\] crashed: uncaught exception: Error: planted by the test \| at .*; exiting with code 70\n$/,
      );
    } finally {
      // A daemon the host may have started before it crashed is its folder's: stopped with it.
      await stopDaemonIn(join(dir, 'run'));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
