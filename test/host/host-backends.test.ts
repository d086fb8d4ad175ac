/**
 * `tether host` as a real process with a command backend (a fake JSONL app-server): passthrough, coalescing, limits,
 * crashes, garbage, shutdown and the process table.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useSleeps, setsidSleep, survivorsAfter, waitForSleepers } from '../../native-host/src/testing/orphans';
import {
  DEV_ORIGIN,
  FAKE_BACKEND,
  fakeBackendConfig,
  frame,
  type HostProcess,
  isAlive,
  type Msg,
  startHost,
} from './host-process';

const hosts: HostProcess[] = [];
function host(options: Parameters<typeof startHost>[0]): HostProcess {
  const h = startHost(options);
  hosts.push(h);
  return h;
}
const testSleeps = useSleeps();
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

/** The fake backend, started by a shell that first leaves a `sleep` in a session of its own, as an agent's command might. */
function backendLeavingADaemon(): { config: unknown; daemon: string } {
  const daemon = testSleeps.one();
  const argv = ['/bin/sh', '-c', `${setsidSleep(daemon)}; exec "$0" "$1"`, process.execPath, FAKE_BACKEND];
  return { config: fakeBackendConfig({ argv }), daemon };
}

const isExited = (m: Msg) => m.method === 'bridge/backend/exited';

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !isAlive(pid);
}

describe('tether host with a command backend', () => {
  it('answers bridge/hello with its version, backends and limits, and passes requests through', async () => {
    const h = host({ config: fakeBackendConfig() });
    const hello = await h.request('bridge/hello', { clientInfo: { name: 'test', version: '1' } });
    expect(hello.result.backend).toBe('fake');
    expect(hello.result.hostVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(hello.result.backends.map((b: { id: string }) => b.id).sort()).toEqual(['embedded', 'fake']);
    expect(hello.result.limits).toEqual({
      maxOutboundFrameBytes: 1_048_576,
      maxInboundMessageBytes: 67_108_864,
      maxChunkedMessageBytes: 67_108_864,
    });
    const init = await h.request('initialize', { clientInfo: { name: 'test', version: '1' } });
    expect(init.result.serverInfo.name).toBe('fake-backend');
    const echo = await h.request('fake/echo', { text: 'héllo "quoted" \\ \u2028' });
    expect(echo.result).toEqual({ text: 'héllo "quoted" \\ \u2028' });
  });

  it('rejects an unknown backend in bridge/hello, naming the configured ones', async () => {
    const h = host({ config: fakeBackendConfig() });
    const hello = await h.request('bridge/hello', { backend: 'nope' });
    expect(hello.error.code).toBe(-32602);
    expect(hello.error.message).toContain('configured backends are embedded, fake');
  });

  it('answers bridge/hello for "__proto__", "constructor" and "toString" with -32602 and keeps serving its backend', async () => {
    const h = host({ config: fakeBackendConfig() });
    expect((await h.request('fake/echo', { before: 1 })).result).toEqual({ before: 1 });
    for (const backend of ['__proto__', 'constructor', 'toString']) {
      const hello = await h.request('bridge/hello', { backend });
      expect(hello.error.code).toBe(-32602);
      expect(hello.error.message).toContain(`Unknown backend "${backend}": the configured backends are embedded, fake`);
    }
    expect((await h.request('fake/echo', { after: 2 })).result).toEqual({ after: 2 });
    expect(h.messages.some((m) => m.method === 'bridge/backend/exited')).toBe(false);
  });

  it('packs messages that queue up into array frames, in order, within 1 MiB', async () => {
    const h = host({ config: fakeBackendConfig() });
    const count = 20_000;
    const done = await h.request('fake/flood', { count, size: 120 }, 30_000);
    expect(done.result.count).toBe(count);
    const ticks = h.messages.filter((m) => m.method === 'fake/tick');
    expect(ticks.map((m) => m.params.i)).toEqual([...Array(count).keys()]);
    const arrays = h.frames.filter((f) => f.payload[0] === 0x5b);
    expect(arrays.length).toBeGreaterThan(0);
    expect(h.frames.length).toBeLessThan(count / 20);
    expect(
      Math.max(...arrays.map((f) => (JSON.parse(f.payload.toString()) as unknown[]).length)),
    ).toBeGreaterThanOrEqual(50);
    expect(Math.max(...h.frames.map((f) => f.payload.length))).toBeLessThanOrEqual(1_048_576);
  });

  it('stops reading a flooding backend while the browser is not reading, so its memory stays bounded', async () => {
    const h = host({ config: fakeBackendConfig() });
    await h.request('fake/echo', {});
    h.child.stdout.pause();
    const count = 100_000;
    h.send({ id: 'flood', method: 'fake/flood', params: { count, size: 1000 } });
    // Without flow control the host buffers the whole 100 MB: its RSS passed 180 MB within 4 s here.
    await new Promise((r) => setTimeout(r, 5000));
    const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${h.child.pid}/status`, 'utf8'))![1]) / 1024;
    expect(rssMb).toBeLessThan(120);
    h.child.stdout.resume();
    await h.waitFor((m) => m.id === 'flood', 60_000);
    expect(h.messages.filter((m) => m.method === 'fake/tick')).toHaveLength(count);
  });

  it('does not hold back a lone message: each answer of a request-response exchange is its own frame', async () => {
    const h = host({ config: fakeBackendConfig() });
    for (let i = 0; i < 5; i++) await h.request('fake/echo', { i });
    expect(h.frames.every((f) => f.payload[0] === 0x7b)).toBe(true);
    expect(h.frames).toHaveLength(5);
  });

  it('reads a browser frame of exactly 1,048,576 bytes and one of a byte more', async () => {
    const h = host({ config: fakeBackendConfig() });
    for (const size of [1_048_576, 1_048_577]) {
      const id = `big-${size}`;
      const skeleton = JSON.stringify({ id, method: 'fake/echo', params: { pad: '' } });
      const message = JSON.stringify({ id, method: 'fake/echo', params: { pad: 'p'.repeat(size - skeleton.length) } });
      expect(Buffer.byteLength(message)).toBe(size);
      h.sendRaw(frame(message));
      const answer = await h.waitFor((m) => m.id === id, 20_000);
      expect(answer.result.pad).toHaveLength(size - skeleton.length);
    }
    expect(Math.max(...h.frames.map((f) => f.payload.length))).toBeLessThanOrEqual(1_048_576);
  });

  it('reads a 40 MiB browser message and returns its 40 MiB echo in pieces', async () => {
    const h = host({ config: fakeBackendConfig() });
    const text = 'ü'.repeat(20 * 1024 * 1024);
    const answer = await h.request('fake/echo', { text }, 60_000);
    expect(answer.result.text === text).toBe(true);
    expect(h.chunkedTexts).toHaveLength(1);
  });

  it('sends a 3 MB answer as bridge/chunk pieces of at most 1 MiB that reassemble byte for byte', async () => {
    const h = host({ config: fakeBackendConfig() });
    const answer = await h.request('fake/big', { bytes: 3_000_000 }, 20_000);
    expect(answer.result.text).toBe('é'.repeat(1_500_000));
    expect(h.chunkedTexts).toEqual([JSON.stringify(answer)]);
    const pieces = h.frames.filter((f) => f.payload.includes('"bridge/chunk"'));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...pieces.map((f) => f.payload.length))).toBeLessThanOrEqual(1_048_576);
  });

  it('reports a backend crash with its stderr tail, fails pending requests with -32050, then restarts it', async () => {
    const h = host({ config: fakeBackendConfig() });
    const first = await h.request('fake/pid');
    const hang = h.request('fake/hang');
    const crash = h.request('fake/crash', { code: 7, stderr: ['loading model', 'fatal: out of tokens'] });
    const exited = await h.waitFor(isExited);
    expect(exited.params).toMatchObject({ backend: 'fake', code: 7, signal: null, restartInMs: 0 });
    expect(exited.params.stderrTail.slice(-2)).toEqual(['loading model', 'fatal: out of tokens']);
    expect(exited.params.message).toContain('exited with code 7');
    expect(exited.params.message).toContain('fatal: out of tokens');
    for (const answer of [await hang, await crash]) {
      expect(answer.error.code).toBe(-32050);
      expect(answer.error.message).toContain('"fake" backend exited with code 7');
      expect(answer.error.data).toMatchObject({ backend: 'fake', code: 7 });
    }
    expect((await hang).error.message).toContain('fake/hang was not answered');
    const second = await h.request('fake/pid');
    expect(second.result.pid).not.toBe(first.result.pid);
    const restarted = await h.request('bridge/backend/restart');
    expect(restarted.result).toEqual({ backend: 'fake' });
    const third = await h.request('fake/pid');
    expect(third.result.pid).not.toBe(second.result.pid);
    expect(await waitGone(second.result.pid, 2000)).toBe(true);
  });

  it('backs off when the backend keeps crashing', async () => {
    const h = host({ config: fakeBackendConfig() });
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const from = h.messages.length;
      void h.request('fake/crash', { code: 1 });
      delays.push((await h.waitFor(isExited, 10_000, from)).params.restartInMs);
    }
    expect(delays).toEqual([0, 250, 500]);
  });

  it('reports a backend that cannot be started, naming the command and the fix', async () => {
    const h = host({
      config: {
        defaultBackend: 'gone',
        backends: { gone: { kind: 'command', argv: ['tether-no-such-agent', 'app-server'] } },
      },
    });
    const answer = await h.request('initialize', {});
    expect(answer.error.code).toBe(-32050);
    expect(answer.error.message).toContain('"tether-no-such-agent" was not found on PATH');
    expect(answer.error.message).toContain('backends.gone.argv[0]');
  });

  it('turns garbage and oversized backend lines into error notifications and keeps serving', async () => {
    const h = host({ config: fakeBackendConfig() });
    await h.request('fake/garbage', { lines: ['Loading config...', '{"broken": '] });
    const errors = h.messages.filter((m) => m.method === 'error');
    expect(errors).toHaveLength(2);
    expect(errors[0]!.params.message).toContain('not a JSON message');
    expect(errors[0]!.params.message).toContain('Loading config...');
    await h.request('fake/giant', { bytes: 64 * 1024 * 1024 + 10 }, 30_000);
    const giant = h.messages.filter((m) => m.method === 'error')[2];
    expect(giant?.params.message).toContain('line of more than 67108864 bytes');
    expect((await h.request('fake/echo', { ok: true })).result).toEqual({ ok: true });
  });

  it('stops the backend and exits well inside 2 s after stdin EOF, even when the backend ignores SIGTERM', async () => {
    const h = host({ config: fakeBackendConfig() });
    const { result } = await h.request('fake/pid');
    await h.request('fake/ignoreTerm');
    const t0 = performance.now();
    h.closeInput();
    const exit = await h.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - t0).toBeLessThan(2000);
    expect(isAlive(result.pid)).toBe(false);
  });

  it('leaves no backend process behind when the host is SIGKILLed', async () => {
    const h = host({ config: fakeBackendConfig() });
    const { result } = await h.request('fake/pid');
    expect(isAlive(result.pid)).toBe(true);
    h.child.kill('SIGKILL');
    await h.exited;
    expect(await waitGone(result.pid, 2000)).toBe(true);
  });

  it.runIf(process.platform === 'linux').each([
    [
      'the host is SIGKILLed',
      async (h: HostProcess) => {
        h.child.kill('SIGKILL');
        await h.exited;
      },
    ],
    [
      'the backend exits',
      async (h: HostProcess) => {
        h.send({ id: 99, method: 'fake/crash', params: { code: 3 } });
        await h.waitFor(isExited);
      },
    ],
  ])('kills what a backend started, even outside its process group, when %s', async (_, end) => {
    const { config, daemon } = backendLeavingADaemon();
    const h = host({ config });
    await h.request('fake/pid');
    await waitForSleepers([daemon]);
    await end(h);
    expect(await survivorsAfter([daemon])).toEqual([]);
  });
});

describe('tether host input checks', () => {
  it('refuses an extension that is not allowed, and says how to allow it', async () => {
    const h = host({ args: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'] });
    const exit = await h.exited;
    expect(exit.code).toBe(3);
    expect(h.frames).toHaveLength(0);
    expect(h.stderr()).toContain('extension abcdefghijklmnopabcdefghijklmnop is not allowed');
    expect(h.stderr()).toContain('allowedExtensionIds');
  });

  it('accepts an id allowed by the config file and the Firefox form of the arguments', async () => {
    const chrome = host({
      args: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'],
      config: { ...(fakeBackendConfig() as object), allowedExtensionIds: ['abcdefghijklmnopabcdefghijklmnop'] },
    });
    expect((await chrome.request('fake/echo', { a: 1 })).result).toEqual({ a: 1 });
    const firefox = host({
      args: ['/home/u/.mozilla/native-messaging-hosts/dev.tether.bridge.json', 'me@example.org'],
      config: { ...(fakeBackendConfig() as object), allowedExtensionIds: ['me@example.org'] },
    });
    expect((await firefox.request('fake/echo', { b: 2 })).result).toEqual({ b: 2 });
  });

  it('exits with a clear error on a 0xFFFFFFFF length instead of waiting for 4 GB', async () => {
    const h = host({ config: fakeBackendConfig() });
    h.sendRaw(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7b]));
    const error = await h.waitFor((m) => m.method === 'error');
    expect(error.params.message).toContain('4294967295 bytes exceeds the limit of 67108864');
    expect((await h.exited).code).toBe(5);
  });

  it('exits with a clear error on text that is not framed', async () => {
    const h = host({ config: fakeBackendConfig() });
    h.sendRaw(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    const error = await h.waitFor((m) => m.method === 'error');
    expect(error.params.message).toContain('"GET "');
    expect((await h.exited).code).toBe(5);
  });

  it('answers a frame that is not JSON with -32700 and keeps going', async () => {
    const h = host({ config: fakeBackendConfig() });
    h.sendRaw(frame('hello'));
    const error = await h.waitFor((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect((await h.request('fake/echo', { still: 'here' })).result).toEqual({ still: 'here' });
  });

  it('answers every request with the config problem when the config file is invalid', async () => {
    const h = host({ config: { backends: { vv: { kind: 'command', argv: 'vv-agent' } } } });
    const notice = await h.waitFor((m) => m.method === 'error');
    expect(notice.params.message).toContain('backends.vv.argv');
    const hello = await h.request('bridge/hello', {});
    expect(hello.error.code).toBe(-32050);
    expect(hello.error.message).toContain('JSON array of strings');
    expect(hello.error.data.issues[0].field).toBe('backends.vv.argv');
  });

  it("keeps the development origin usable after a --dev launcher's flag when no config file exists", async () => {
    const h = host({ args: ['--allow-dev-extension', DEV_ORIGIN] });
    const hello = await h.request('bridge/hello', {});
    expect(hello.result.backend).toBe('embedded');
  });
});
