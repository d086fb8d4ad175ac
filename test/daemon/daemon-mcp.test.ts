/**
 * `tether mcp` against browsers the daemon serves: two hosts (each started by a launcher named like a browser, as a
 * browser starts the host its manifest names) relay to one daemon, each browser connection announces its own MCP hub,
 * and `tether mcp --browser` reaches the one it names, whose extension alone is asked.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { HOST_ENTRY, type HostProcess, startHost } from '../host/host-process';
import { initializeAsExtension, privateDir } from '../host/mcp-host';
import { type DaemonEnv, daemonEnv, waitUntil } from './daemon-env';

let daemon: DaemonEnv | undefined;
const hosts: HostProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const h of hosts.splice(0)) {
    h.closeInput();
    await Promise.race([h.exited, new Promise((r) => setTimeout(r, 3000))]);
    await h.dispose();
  }
  await daemon?.dispose();
  daemon = undefined;
});

/** A host relaying to `d`'s daemon, started by a launcher named `browser`, initialized as the extension. */
async function browserHost(d: DaemonEnv, browser: string): Promise<HostProcess> {
  const launcher = join(privateDir('tether-launcher-'), browser);
  writeFileSync(launcher, `#!/bin/sh\n'${process.execPath}' '${HOST_ENTRY}' host "$@"\n`, { mode: 0o700 });
  const h = startHost({ env: d.env, launcher });
  hosts.push(h);
  await initializeAsExtension(h);
  return h;
}

/** The announcements in the daemon's runtime folder, as `host-NAME.json` -> browser. */
function announced(d: DaemonEnv): Record<string, string> {
  const run = d.env['TETHER_RUNTIME_DIR']!;
  const found: Record<string, string> = {};
  for (const name of readdirSync(run).filter((n) => /^host-.*\.json$/.test(n))) {
    found[name] = (JSON.parse(readFileSync(join(run, name), 'utf8')) as { browser: string }).browser;
  }
  return found;
}

async function mcp(d: DaemonEnv, browser: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HOST_ENTRY, 'mcp', '--browser', browser],
    env: { PATH: process.env['PATH'] ?? '', ...d.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: `agent-for-${browser}`, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

/** Calls page_read through `client` and answers it as `h`'s extension; resolves with the call it was asked. */
async function readThrough(h: HostProcess, client: Client, text: string): Promise<Record<string, any>> {
  const from = h.messages.length;
  const reading = client.callTool({ name: 'page_read', arguments: {} });
  const call = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, from);
  h.send({ id: call.id, result: { success: true, content: [{ type: 'text', text }] } });
  expect(await reading).toEqual({ isError: false, content: [{ type: 'text', text }] });
  return call.params;
}

describe('tether mcp and the browsers one daemon serves', () => {
  it('reaches each browser connection by --browser, asks only that browser, and forgets one that leaves', async () => {
    daemon = daemonEnv();
    const d = daemon;
    const tag = `${process.pid}`;
    const [chromium, firefox] = [`chromium${tag}`, `firefox${tag}`];
    const a = await browserHost(d, chromium);
    const b = await browserHost(d, firefox);
    const daemonPid = d.pid();
    expect(daemonPid).toBeDefined();
    await waitUntil(() => Object.keys(announced(d)).length === 2, 'both connections to be announced');
    // Named by the daemon's pid and each connection's id: no host-PID of a host, no collision between the two.
    expect(Object.keys(announced(d)).every((n) => n.startsWith(`host-${daemonPid}-`))).toBe(true);
    expect(Object.values(announced(d)).sort()).toEqual([chromium, firefox].sort());
    const run = d.env['TETHER_RUNTIME_DIR']!;
    for (const name of readdirSync(run)) expect(statSync(join(run, name)).mode & 0o077).toBe(0);

    expect((await a.request('bridge/mcp/share', { threadId: 'thr_a', shared: true })).error).toBeUndefined();
    expect((await b.request('bridge/mcp/share', { threadId: 'thr_b', shared: true })).error).toBeUndefined();
    const toA = await mcp(d, chromium);
    const toB = await mcp(d, firefox);
    await expect
      .poll(() => toA.stderr(), { timeout: 10_000 })
      .toContain(`using the Tether host of ${chromium} (pid ${daemonPid}, daemon connection`);
    await expect
      .poll(() => toB.stderr(), { timeout: 10_000 })
      .toContain(`using the Tether host of ${firefox} (pid ${daemonPid}, daemon connection`);

    const bAsked = b.messages.length;
    expect(await readThrough(a, toA.client, 'Chromium page.')).toMatchObject({
      threadId: 'thr_a',
      caller: { kind: 'mcpClient', name: `agent-for-${chromium}` },
    });
    expect(await readThrough(b, toB.client, 'Firefox page.')).toMatchObject({
      threadId: 'thr_b',
      caller: { kind: 'mcpClient', name: `agent-for-${firefox}` },
    });
    expect(b.messages.slice(bAsked).filter((m) => m.method === 'item/tool/call')).toHaveLength(1);
    // Each browser hears of its own client only.
    await a.waitFor((m) => m.method === 'bridge/mcp/clients' && m.params.clients.length === 1);
    expect(
      a.messages.some(
        (m) => m.method === 'bridge/mcp/clients' && m.params.clients.some((c: any) => c.name.includes(firefox)),
      ),
    ).toBe(false);

    // Chromium closes: its connection's files go, the daemon and Firefox's connection stay.
    const aFiles = Object.entries(announced(d))
      .find(([, browser]) => browser === chromium)![0]
      .replace(/\.json$/, '.');
    a.closeInput();
    await a.exited;
    await waitUntil(() => Object.keys(announced(d)).length === 1, "the closed browser's announcement to go");
    expect(Object.values(announced(d))).toEqual([firefox]);
    // The socket goes too, once the connection has closed (no turn of its kept it).
    await waitUntil(() => !readdirSync(run).some((n) => n.startsWith(aFiles)), "the closed connection's files to go");
    const late = await mcp(d, chromium);
    const refused = await late.client.callTool({ name: 'page_read', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(`No Tether host runs for \\"${chromium}\\"; running: ${firefox}`);
    expect(await readThrough(b, toB.client, 'Still Firefox.')).toMatchObject({ threadId: 'thr_b' });
    expect(d.pid()).toBe(daemonPid);
  });

  it("drops a SIGKILLed daemon's announcements: tether mcp says Tether is not running and removes the stale files", async () => {
    daemon = daemonEnv();
    const d = daemon;
    const browser = `firefox${process.pid}`;
    await browserHost(d, browser);
    await waitUntil(() => Object.keys(announced(d)).length === 1, 'the connection to be announced');
    const stale = Object.keys(announced(d))[0]!.replace(/\.json$/, '.');
    const run = d.env['TETHER_RUNTIME_DIR']!;
    process.kill(d.pid()!, 'SIGKILL');
    // The daemon had no time to remove them.
    expect(readdirSync(run).filter((n) => n.startsWith(stale))).toHaveLength(3);
    const late = await mcp(d, browser);
    const refused = await late.client.callTool({ name: 'page_read', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('Tether is not running');
    expect(readdirSync(run).filter((n) => n.startsWith(stale))).toEqual([]);
  });
});
