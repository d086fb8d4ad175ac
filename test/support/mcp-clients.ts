/**
 * External agents in end-to-end tests: MCP clients on @modelcontextprotocol/sdk that spawn `tether mcp`, as Claude
 * Code or Cursor would, with nothing but PATH and the test's runtime folder in their environment.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect } from 'vitest';
import { HOST_ENTRY } from '../host/host-process';

/** What a client's `callTool` resolves with. */
export type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/**
 * Registers the file's afterAll that closes its clients (call once, at the top level) and returns `connect`, which
 * spawns `tether mcp ARGS` finding the browsers' hosts in `runtime` and connects as client `name` `version`.
 */
export function tetherMcpClients(runtime: string) {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
  });
  return async function connect(name: string, { version = '1.0.0', args = [] as string[] } = {}): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [HOST_ENTRY, 'mcp', ...args],
      env: { PATH: process.env['PATH'] ?? '', TETHER_RUNTIME_DIR: runtime },
      stderr: 'pipe',
    });
    const client = new Client({ name, version });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
}

/** Waits until `client` lists `tool`: `tether mcp` reaches the host once the host has opened its socket. */
export async function untilListed(client: Client, tool: string, timeoutMs = 15_000): Promise<void> {
  await expect
    .poll(async () => (await client.listTools()).tools.map((t) => t.name), { timeout: timeoutMs, interval: 300 })
    .toContain(tool);
}

/** The text of a tool result's content, a part of another type as `[type]`. */
export function toolText(result: ToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}
