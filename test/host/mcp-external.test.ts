/**
 * External MCP clients (Claude Code, Codex CLI, Cursor) through `tether mcp` against a real `tether host`: the client,
 * built on @modelcontextprotocol/sdk, spawns `tether mcp`, which finds the host in the per-user runtime folder and
 * says hello with the token from the host's 0600 file. The test plays the extension: it declares the page tools, shares
 * a conversation's tab (`bridge/mcp/share`) and answers the `item/tool/call` that names the client.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_TOOLS } from '../agents/agent-host';
import { HOST_ENTRY, type HostProcess, startHost } from './host-process';

const hosts: HostProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const h of hosts.splice(0)) await h.dispose();
});

/** A host whose runtime folder is a fresh private one, initialized as the extension does, once it announced itself. */
async function hostWithTools(runtime: string): Promise<HostProcess> {
  const h = startHost({ env: { XDG_RUNTIME_DIR: runtime } });
  hosts.push(h);
  const init = await h.request('initialize', {
    clientInfo: { name: 'tether-extension', version: '1' },
    capabilities: { clientTools: PAGE_TOOLS },
  });
  expect(init.error).toBeUndefined();
  h.send({ method: 'initialized' });
  const info = join(runtime, 'tether', `host-${h.child.pid}.json`);
  for (let i = 0; i < 200 && !existsSync(info); i++) await new Promise((r) => setTimeout(r, 25));
  expect(existsSync(info)).toBe(true);
  return h;
}

/** `tether mcp` with only PATH and the runtime folder (and `extra`) in its environment. */
function mcpEnv(runtime: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', XDG_RUNTIME_DIR: runtime, ...extra };
}

async function connect(runtime: string, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HOST_ENTRY, 'mcp', ...args],
    env: mcpEnv(runtime),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'claude-code', version: '9.9.9' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOST_ENTRY, 'mcp', ...args], { env });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end();
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

function privateDir(): string {
  return mkdtempSync(join(tmpdir(), 'tether-runtime-'));
}

describe('external MCP clients through tether mcp', () => {
  it('lists the page tools, refuses calls until a tab is shared, then asks the extension naming the client', async () => {
    const runtime = privateDir();
    const h = await hostWithTools(runtime);
    const folder = join(runtime, 'tether');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(folder)) expect(statSync(join(folder, name)).mode & 0o077).toBe(0);

    const { client, stderr } = await connect(runtime);
    expect(stderr()).toContain(`using the Tether host of chrome (pid ${h.child.pid}`);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['page_read', true],
      ['page_click', false],
    ]);
    const joined = await h.waitFor((m) => m.method === 'bridge/mcp/clients' && m.params.clients.length === 1);
    expect(joined.params.clients[0]).toMatchObject({ name: 'claude-code', version: '9.9.9' });

    const unshared = await client.callTool({ name: 'page_read', arguments: {} });
    expect(unshared.isError).toBe(true);
    expect(JSON.stringify(unshared.content)).toContain('Share this tab with external agents');

    const share = await h.request('bridge/mcp/share', { threadId: 'thr_shared', shared: true });
    expect(share.result).toMatchObject({ shared: ['thr_shared'], clients: [{ name: 'claude-code' }] });

    const from = h.messages.length;
    const reading = client.callTool({ name: 'page_read', arguments: { maxChars: 1000 } });
    const call = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, from);
    expect(call.params).toMatchObject({
      threadId: 'thr_shared',
      tool: 'page_read',
      arguments: { maxChars: 1000 },
      caller: { kind: 'mcpClient', name: 'claude-code', version: '9.9.9' },
    });
    h.send({ id: call.id, result: { success: true, content: [{ type: 'text', text: 'Shared page text.' }] } });
    expect(await reading).toEqual({ isError: false, content: [{ type: 'text', text: 'Shared page text.' }] });

    const next = h.messages.length;
    const clicking = client.callTool({ name: 'page_click', arguments: { ref: 'e1' } });
    const denied = await h.waitFor((m) => m.method === 'item/tool/call', 10_000, next);
    const text = 'The user did not allow page_click on https://example.com.';
    h.send({ id: denied.id, result: { success: false, content: [{ type: 'text', text }] } });
    expect(await clicking).toEqual({ isError: true, content: [{ type: 'text', text }] });

    await client.close();
    await h.waitFor((m) => m.method === 'bridge/mcp/clients' && m.params.clients.length === 0);
  });

  it('fails fast and clearly: no host, a wrong token, a browser that runs no host', async () => {
    const empty = privateDir();
    const none = await run([], mcpEnv(empty));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Tether is not running: open the Tether side panel in your browser');

    const runtime = privateDir();
    await hostWithTools(runtime);
    const wrong = await run([], mcpEnv(runtime, { TETHER_MCP_TOKEN: 'not-the-token' }));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the Tether host refused: the token is not valid');
    const other = await run(['--browser', 'firefox'], mcpEnv(runtime));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('no Tether host runs for "firefox"; running: chrome');
  });

  it('prints the lines that point Claude Code, Codex and Cursor at tether mcp', async () => {
    const child = spawn(process.execPath, [HOST_ENTRY, 'mcp', '--print-config'], { env: mcpEnv(privateDir()) });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((r) => child.once('exit', r));
    expect(out).toContain('claude mcp add tether -- ');
    expect(out).toContain('[mcp_servers.tether]');
    expect(out).toContain('"mcpServers"');
  });
});
