/**
 * External MCP clients (Claude Code, Codex CLI, Cursor) through `tether mcp` against a real `tether host`: the client,
 * built on @modelcontextprotocol/sdk, spawns `tether mcp`, which finds the host in the per-user runtime folder and
 * says hello with the token from the host's 0600 file. The test plays the extension: it declares the page tools, shares
 * a conversation's tab (`bridge/mcp/share`) and answers the `item/tool/call` that names the client. Each test has a
 * runtime folder of its own (TETHER_RUNTIME_DIR), except the one that checks the folder every process finds unaided.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonPidIn, stopDaemonIn, tetherDaemons } from '../support/daemons';
import { HOST_ENTRY, type HostProcess, startHost } from './host-process';
import { privateDir, initializeAsExtension } from './mcp-host';

const hosts: HostProcess[] = [];
const clients: Client[] = [];
/** Runtime folders outside the test's own whose daemon a test started (with TETHER_DAEMON=1): stopped after it. */
const daemonFolders: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const h of hosts.splice(0)) {
    // A host started through a launcher is the launcher's child: end it by closing its input, as a browser does.
    h.closeInput();
    await Promise.race([h.exited, new Promise((r) => setTimeout(r, 3000))]);
    await h.dispose();
  }
  for (const folder of daemonFolders.splice(0)) await stopDaemonIn(folder);
});

/** The folder a host and `tether mcp` share in these tests (and the data folder the host saves its tools in). */
interface Place {
  readonly runtime?: string;
  readonly data: string;
}

function isolated(): Place {
  return { runtime: privateDir(), data: privateDir('tether-data-') };
}

/** A host initialized as the extension does, once it announced itself in `announced` (its runtime folder). */
async function hostWithTools(
  place: Place,
  options: { launcher?: string; env?: Record<string, string>; announced?: string } = {},
): Promise<HostProcess> {
  const h = startHost({
    // No runtime folder: the one every process finds unaided (an empty TETHER_RUNTIME_DIR counts as none).
    env: { XDG_DATA_HOME: place.data, TETHER_RUNTIME_DIR: place.runtime ?? '', ...options.env },
    ...(options.launcher ? { launcher: options.launcher } : {}),
  });
  hosts.push(h);
  await initializeAsExtension(h);
  const folder = options.announced ?? place.runtime!;
  const browser = options.launcher ? basename(options.launcher) : 'chrome';
  const announced = (): boolean =>
    existsSync(folder) &&
    readdirSync(folder).some(
      // host-PID.json for a host serving in-process, host-PID-N.json for a connection its daemon serves.
      (n) =>
        /^host-\d+(?:-\d+)?\.json$/.test(n) && readFileSync(join(folder, n), 'utf8').includes(`"browser":"${browser}"`),
    );
  for (let i = 0; i < 200 && !announced(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(announced()).toBe(true);
  return h;
}

/** `tether mcp` with only PATH, the test's folders and `extra` in its environment. */
function mcpEnv(place: Place, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    XDG_DATA_HOME: place.data,
    ...(place.runtime ? { TETHER_RUNTIME_DIR: place.runtime } : {}),
    ...extra,
  };
}

interface Connected {
  readonly client: Client;
  stderr(): string;
  readonly listChanged: number[];
}

async function connect(env: Record<string, string>, args: string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HOST_ENTRY, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'claude-code', version: '9.9.9' });
  const listChanged: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged.push(Date.now()));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr, listChanged };
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** Shares a tab, calls page_read through `client` and answers it as the extension; resolves with the call's params. */
async function readThrough(h: HostProcess, client: Client, text: string): Promise<Record<string, unknown>> {
  const share = await h.request('bridge/mcp/share', { threadId: 'thr_shared', shared: true });
  expect(share.error).toBeUndefined();
  const from = h.messages.length;
  const reading = client.callTool({ name: 'page_read', arguments: { maxChars: 1000 } });
  const call = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, from);
  h.send({ id: call.id, result: { success: true, content: [{ type: 'text', text }] } });
  expect(await reading).toEqual({ isError: false, content: [{ type: 'text', text }] });
  return call.params;
}

describe('external MCP clients through tether mcp', () => {
  it('lists the page tools, refuses calls until a tab is shared, then asks the extension naming the client', async () => {
    const place = isolated();
    const h = await hostWithTools(place);
    expect(statSync(place.runtime!).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(place.runtime!)) expect(statSync(join(place.runtime!, name)).mode & 0o077).toBe(0);

    const { client, stderr } = await connect(mcpEnv(place));
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['page_read', true],
      ['page_click', false],
    ]);
    // With TETHER_DAEMON=1 the daemon serves this browser: its pid is the one announced.
    expect(stderr()).toContain(`using the Tether host of chrome (pid ${daemonPidIn(place.runtime!) ?? h.child.pid}`);
    const joined = await h.waitFor((m) => m.method === 'bridge/mcp/clients' && m.params.clients.length === 1);
    expect(joined.params.clients[0]).toMatchObject({ name: 'claude-code', version: '9.9.9' });

    const unshared = await client.callTool({ name: 'page_read', arguments: {} });
    expect(unshared.isError).toBe(true);
    expect(textOf(unshared)).toContain('Share this tab with external agents');

    const params = await readThrough(h, client, 'Shared page text.');
    expect(params).toMatchObject({
      threadId: 'thr_shared',
      tool: 'page_read',
      arguments: { maxChars: 1000 },
      caller: { kind: 'mcpClient', name: 'claude-code', version: '9.9.9' },
    });

    const next = h.messages.length;
    const clicking = client.callTool({ name: 'page_click', arguments: { ref: 'e1' } });
    const denied = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, next);
    const text = 'The user did not allow page_click on https://example.com.';
    h.send({ id: denied.id, result: { success: false, content: [{ type: 'text', text }] } });
    expect(await clicking).toEqual({ isError: true, content: [{ type: 'text', text }] });

    await client.close();
    await h.waitFor((m) => m.method === 'bridge/mcp/clients' && m.params.clients.length === 0);
  });

  it('finds a host started with XDG_RUNTIME_DIR while given only what Codex passes (HOME, PATH, LANG, SHELL, TERM)', async () => {
    // The browser's session has XDG_RUNTIME_DIR; the host's parent is named like a browser, so --browser finds this
    // host among any others of this user in the shared per-user folder.
    const browser = `tb${process.pid}${Date.now() % 1000}`;
    const launcher = join(privateDir('tether-launcher-'), browser);
    writeFileSync(launcher, `#!/bin/sh\n'${process.execPath}' '${HOST_ENTRY}' host "$@"\n`, { mode: 0o700 });
    const place: Place = { data: privateDir('tether-data-') };
    const session = privateDir('tether-xdg-');
    const uid = process.getuid?.() ?? 0;
    const announced = existsSync(`/run/user/${uid}`) ? `/run/user/${uid}/tether` : `/tmp/tether-${uid}`;
    // A daemon this host starts there is the test's to stop; one that already ran is the user's and stays.
    const running = daemonPidIn(announced);
    if (running === undefined || !tetherDaemons().includes(running)) daemonFolders.push(announced);
    const h = await hostWithTools(place, { launcher, env: { XDG_RUNTIME_DIR: session }, announced });
    expect(existsSync(join(session, 'tether'))).toBe(false);

    const codexEnv = {
      HOME: privateDir('tether-home-'),
      PATH: process.env['PATH'] ?? '',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      TERM: 'dumb',
    };
    const { client, stderr } = await connect(codexEnv, ['--browser', browser]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['page_read', 'page_click']);
    expect(stderr()).toContain(`using the Tether host of ${browser}`);
    expect(await readThrough(h, client, 'Found without XDG_RUNTIME_DIR.')).toMatchObject({ tool: 'page_read' });
  });

  it('with no host answers initialize, tools/list and each call with what to do, then uses the host that starts later', async () => {
    const place = isolated();
    const { client, listChanged, stderr } = await connect(mcpEnv(place));
    expect(client.getServerVersion()?.name).toBe('tether');
    expect((await client.listTools()).tools).toEqual([]);
    const early = await client.callTool({ name: 'page_read', arguments: {} });
    expect(early.isError).toBe(true);
    expect(textOf(early)).toContain('Tether is not running: open your browser with Tether and share a tab');
    expect(stderr()).toContain('Tether is not running');

    const h = await hostWithTools(place);
    await expect.poll(() => listChanged.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['page_read', 'page_click']);
    expect(await readThrough(h, client, 'The browser came later.')).toMatchObject({ tool: 'page_read' });

    // The host saved its tools (0600, in a 0700 folder): a client started while no browser runs lists them.
    const saved = join(place.data, 'tether', 'mcp-tools.json');
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    expect(statSync(join(saved, '..')).mode & 0o777).toBe(0o700);
    h.closeInput();
    await h.exited;
    const later = await connect(mcpEnv(place));
    expect((await later.client.listTools()).tools.map((t) => t.name)).toEqual(['page_read', 'page_click']);
    expect((await later.client.callTool({ name: 'page_click', arguments: { ref: 'e1' } })).isError).toBe(true);
  });

  it('passes a cancelled call, and a client that goes away mid-call, on to the host, which withdraws the call', async () => {
    const place = isolated();
    const h = await hostWithTools(place);
    const share = await h.request('bridge/mcp/share', { threadId: 'thr_shared', shared: true });
    expect(share.error).toBeUndefined();

    const first = await connect(mcpEnv(place));
    const stop = new AbortController();
    let from = h.messages.length;
    const clicking = first.client.callTool({ name: 'page_click', arguments: { ref: 'e1' } }, undefined, {
      signal: stop.signal,
    });
    const call = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, from);
    stop.abort('the user pressed Esc');
    await expect(clicking).rejects.toThrow();
    const cancelled = await h.waitFor((m) => m.method === 'item/tool/call/cancelled', 10_000, from);
    expect(cancelled.params).toMatchObject({ callId: call.params.callId, reason: 'cancelled' });

    const second = await connect(mcpEnv(place));
    from = h.messages.length;
    void second.client.callTool({ name: 'page_click', arguments: { ref: 'e2' } }).catch(() => undefined);
    const pending = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, from);
    await second.client.close();
    const gone = await h.waitFor((m) => m.method === 'item/tool/call/cancelled', 10_000, from);
    expect(gone.params).toMatchObject({ callId: pending.params.callId, reason: 'disconnected' });
  });

  it("answers calls with the host's refusal of a wrong token, and names the browsers that do run", async () => {
    const place = isolated();
    await hostWithTools(place);
    const wrong = await connect(mcpEnv(place, { TETHER_MCP_TOKEN: 'not-the-token' }));
    const refused = await wrong.client.callTool({ name: 'page_read', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('The Tether host refused: the token is not valid');
    const other = await connect(mcpEnv(place), ['--browser', 'firefox']);
    expect(textOf(await other.client.callTool({ name: 'page_read', arguments: {} }))).toContain(
      'No Tether host runs for "firefox"; running: chrome',
    );
  });

  it('prints the lines that point Claude Code, Codex and Cursor at tether mcp', async () => {
    const child = spawn(process.execPath, [HOST_ENTRY, 'mcp', '--print-config'], { env: mcpEnv(isolated()) });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((r) => child.once('exit', r));
    expect(out).toContain('claude mcp add --scope user tether -e TETHER_RUNTIME_DIR=');
    expect(out).toContain('[mcp_servers.tether]');
    expect(out).toContain('default_tools_approval_mode = "approve"');
    expect(out).toContain('"mcpServers"');
  });
});
