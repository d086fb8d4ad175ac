import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SharedCommands, SharedEngine } from '../backends/types';
import { BRIDGE_SHUTDOWN_MS, serveConnection } from './connection';

const ENV = ['TETHER_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'TETHER_CONFIG'] as const;
let dir = '';
let saved: Record<string, string | undefined> = {};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-conn-'));
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  process.env['TETHER_RUNTIME_DIR'] = join(dir, 'run');
  process.env['XDG_CONFIG_HOME'] = join(dir, 'config');
  process.env['XDG_DATA_HOME'] = join(dir, 'data');
  process.env['XDG_STATE_HOME'] = join(dir, 'state');
  delete process.env['TETHER_CONFIG'];
});

afterEach(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Both ends of a connection: the daemon's socket and the relay's. */
async function socketPair(): Promise<{ daemon: Socket; relay: Socket; done: () => void }> {
  const server = createServer({ pauseOnConnect: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const relay = connect(address.port, '127.0.0.1');
  const daemon = await accepted;
  return { daemon, relay, done: () => server.close() };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a daemon connection', () => {
  it("closes its MCP endpoint and settles `closed` when the relay left and the backend's stop never ends", async () => {
    const { daemon, relay, done } = await socketPair();
    let connected = false;
    // An engine whose connection never finishes closing: the bridge's shutdown cannot complete.
    const stuckEngine: SharedEngine = {
      connect: () => {
        connected = true;
        return { closed: new Promise<void>(() => undefined), close: () => new Promise<void>(() => undefined) };
      },
      close: async () => undefined,
      runningTurns: 0,
      runningTurnsBeyond: () => 0,
      replace: async () => undefined,
      endedBecause: () => undefined,
    };
    const sharedCommands: SharedCommands = {
      connect: () => {
        throw new Error('no command backend in this test');
      },
    };
    const lines: string[] = [];
    const connection = await serveConnection({
      socket: daemon,
      rest: Buffer.alloc(0),
      hello: { token: 'x', browser: 'test', hostVersion: '0.0.0' },
      id: 1,
      log: (line) => lines.push(line),
      sharedEngine: () => stuckEngine,
      sharedCommands,
    });
    relay.on('error', () => undefined);
    relay.write(
      `${JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await until(() => connected && connection.client.mcpSocket !== undefined);
    const mcpSocket = connection.client.mcpSocket ?? '';
    expect(existsSync(mcpSocket)).toBe(true);

    const leftAt = Date.now();
    relay.destroy();
    const settled = await Promise.race([
      connection.closed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('stuck'), BRIDGE_SHUTDOWN_MS + 3000).unref()),
    ]);
    expect(settled).toBe('closed');
    expect(Date.now() - leftAt).toBeGreaterThanOrEqual(BRIDGE_SHUTDOWN_MS - 50);
    expect(existsSync(mcpSocket)).toBe(false);
    expect(lines.some((line) => line.includes('closing without it'))).toBe(true);
    done();
  }, 30_000);
});
