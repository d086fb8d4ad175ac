import { createServer, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs';
import { DaemonHello, HandshakeError, parseLine, readFirstLine, tokenMatches } from './handshake';

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
  it('compares tokens in full, whatever their lengths', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    expect(tokenMatches('abcabc', 'abc')).toBe(false);
  });

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
});
