import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { helloLine } from './hello';
import { liveHosts } from './host-registry';
import { McpHub } from './hub';
import { ANNOUNCEMENT_FILE, hostFiles, hubName } from './runtime-dir';

const hubs: McpHub[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A runtime folder of the test's own (0700, as the hub requires). */
function privateTestDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-hubs-'));
  chmodSync(dir, 0o700);
  dirs.push(dir);
  return dir;
}

function hub(dir: string, browser: string, connection?: number): McpHub {
  const h = new McpHub({ browser, log: () => undefined, dir, ...(connection === undefined ? {} : { connection }) });
  hubs.push(h);
  return h;
}

describe("the daemon's MCP hubs, one per browser connection", () => {
  it('are named by the daemon pid and the connection id, apart from each other and from a host of that pid', () => {
    const names = [hubName(4242), hubName(4242, 1), hubName(4242, 2)];
    expect(names).toEqual(['4242', '4242-1', '4242-2']);
    const files = names.map((name) => hostFiles('/run/t', name, 'linux'));
    expect(new Set(files.flatMap((f) => [f.socket, f.info, f.token])).size).toBe(9);
    expect(files.every((f) => ANNOUNCEMENT_FILE.test(f.info.slice('/run/t/'.length)))).toBe(true);
    expect(ANNOUNCEMENT_FILE.test('host-4242-1.token')).toBe(false);
    expect(hostFiles('C:\\run', '4242-2', 'win32').socket).toMatch(/\\\\\.\\pipe\\tether-.+-4242-2$/);
  });

  it('announce each connection on its own socket (0600) with its own token, both found by tether mcp', async () => {
    const dir = privateTestDir();
    const [chromium, firefox] = [hub(dir, 'chromium', 1), hub(dir, 'firefox-esr', 2)];
    const paths = await Promise.all([chromium.announce(), firefox.announce()]);
    expect(paths).toEqual([
      hostFiles(dir, hubName(process.pid, 1)).socket,
      hostFiles(dir, hubName(process.pid, 2)).socket,
    ]);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o077).toBe(0);
    const live = await liveHosts(dir);
    expect(live.map((h) => [h.browser, h.pid, h.connection]).sort()).toEqual([
      ['chromium', process.pid, 1],
      ['firefox-esr', process.pid, 2],
    ]);
    expect(new Set(live.map((h) => h.tokenFile)).size).toBe(2);
  });

  it('withdraw a connection whose browser left (tether mcp stops finding it), and remove its files when it closes', async () => {
    const dir = privateTestDir();
    const [gone, stays] = [hub(dir, 'chromium', 1), hub(dir, 'chromium', 2)];
    await Promise.all([gone.announce(), stays.announce()]);
    const files = hostFiles(dir, hubName(process.pid, 1));
    const client = connect(files.socket);
    let answer = '';
    client.on('data', (c: Buffer) => (answer += c.toString()));
    const clientClosed = new Promise((r) => client.once('close', r));
    client.write(helloLine({ token: readFileSync(files.token, 'utf8').trim() }));
    await expect.poll(() => answer).toContain('"ok"');
    await gone.withdraw();
    // An external client's session ends with it, so its tether mcp looks for another host.
    await clientClosed;
    expect(existsSync(files.info) || existsSync(files.token)).toBe(false);
    // Its socket stays for the agents it launched until the connection closes.
    expect(existsSync(files.socket)).toBe(true);
    expect((await liveHosts(dir)).map((h) => h.connection)).toEqual([2]);
    await gone.close();
    expect(existsSync(files.socket)).toBe(false);
  });

  it("leave the files of a killed daemon's connection to be removed by the next hub that announces", async () => {
    const dir = privateTestDir();
    const dead = hostFiles(dir, hubName(999_999, 3));
    writeFileSync(
      dead.info,
      JSON.stringify({ pid: 999_999, connection: 3, browser: 'chromium', socket: dead.socket, tokenFile: dead.token }),
    );
    writeFileSync(dead.token, 'old\n');
    writeFileSync(dead.socket, '');
    await hub(dir, 'firefox-esr', 1).announce();
    await expect.poll(() => existsSync(dead.info) || existsSync(dead.token) || existsSync(dead.socket)).toBe(false);
    expect((await liveHosts(dir)).map((h) => h.browser)).toEqual(['firefox-esr']);
  });
});
