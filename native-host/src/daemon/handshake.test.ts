import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs';
import { DaemonHello, DaemonWelcome, HandshakeError, parseLine, readFirstLine } from './handshake';

const tempDir = useTempDirs('tether-hs-');

/** A connected socket pair over a Unix socket: what the server side reads, after the client writes `bytes`. */
async function serverSideOf(bytes: string[], endAfter = false): Promise<Socket> {
  const path = join(tempDir(), 's.sock');
  return new Promise((resolve) => {
    const server = createServer({ pauseOnConnect: true }, (socket) => {
      server.close();
      resolve(socket);
    });
    server.listen(path, () => {
      const client = connect(path, () => {
        for (const b of bytes) client.write(b);
        if (endAfter) client.end();
      });
    });
  });
}

describe('the daemon handshake', () => {
  it('reads the first line across chunks and keeps what follows it', async () => {
    const split = await serverSideOf(['{"tok', 'en":"t"}\n']);
    expect(parseLine((await readFirstLine(split)).line, DaemonHello, 'the first line')).toEqual({ token: 't' });
    split.destroy();
    const socket = await serverSideOf(['{"token":"t"}\n{"id":1}\n']);
    const { rest } = await readFirstLine(socket);
    // What arrived after the newline in the same read is handed on, not lost.
    expect(rest.toString()).toBe('{"id":1}\n');
    socket.destroy();
  });

  it('refuses a first line that never ends within 4 KiB, and one that closes early', async () => {
    const long = await serverSideOf(['x'.repeat(5000)]);
    await expect(readFirstLine(long)).rejects.toThrow(/longer than 4096 bytes/);
    long.destroy();
    const early = await serverSideOf(['{"token":'], true);
    await expect(readFirstLine(early)).rejects.toBeInstanceOf(HandshakeError);
    early.destroy();
  });

  it('says what is wrong with a first line that is not a hello', () => {
    expect(() => parseLine('nope', DaemonHello, 'the first line')).toThrow('the first line is not JSON');
    expect(() => parseLine('{"id":1}', DaemonHello, 'the first line')).toThrow(/the first line is not valid/);
  });

  it('reads a welcome with its status and connections, dropping members it does not know', () => {
    const status = {
      pid: 7,
      version: '0.1.0',
      startedAtMs: 1,
      uptimeMs: 2,
      socket: '/run/tether/daemon.sock',
      log: '/state/tether/daemon.log',
      clients: 1,
      connections: [{ id: 1, browser: 'chromium', mcpSocket: '/run/tether/host-7-1.sock', extra: true }],
      runningTurns: 0,
      idleExitMs: 600_000,
    };
    const line = JSON.stringify({ ok: true, daemonVersion: '0.1.0', pid: 7, status, later: 'ignored' });
    expect(parseLine(line, DaemonWelcome, 'the welcome')).toEqual({
      ok: true,
      daemonVersion: '0.1.0',
      pid: 7,
      status: { ...status, connections: [{ id: 1, browser: 'chromium', mcpSocket: '/run/tether/host-7-1.sock' }] },
    });
    expect(parseLine('{"ok":false,"error":"refused: wrong token"}', DaemonWelcome, 'the welcome')).toEqual({
      ok: false,
      error: 'refused: wrong token',
    });
  });

  it('names the member that is missing or of the wrong kind, and takes no inherited one', () => {
    expect(() => parseLine('{"ok":true,"daemonVersion":"1","pid":"7"}', DaemonWelcome, 'the welcome')).toThrow(
      'the welcome is not valid: the welcome.pid must be a number',
    );
    expect(() => parseLine('{"ok":true,"daemonVersion":"1","pid":7,"status":{}}', DaemonWelcome, 'x')).toThrow(
      'status.pid must be a number',
    );
    expect(() => parseLine('{"token":"t","control":"reboot"}', DaemonHello, 'x')).toThrow(
      'the hello.control must be "status" or "stop"',
    );
    expect(() => parseLine(JSON.stringify({ token: 'x'.repeat(257) }), DaemonHello, 'x')).toThrow(
      'the hello.token must be at most 256 characters',
    );
    expect(() => parseLine('{"toString":"t"}', DaemonHello, 'x')).toThrow('the hello.token must be a string');
    expect(() => parseLine('[]', DaemonHello, 'x')).toThrow('the hello is not a JSON object');
  });
});
