import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientTool, ToolCallResult } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpGrants } from './grants';
import { type McpHttpEndpoint, startHttpEndpoint } from './http-endpoint';

const TOOLS: ClientTool[] = [
  { name: 'page_read', description: 'Read the page', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'page_click',
    description: 'Click',
    inputSchema: { type: 'object', properties: { ref: { type: 'string' } } },
  },
];

const endpoints: McpHttpEndpoint[] = [];
afterEach(async () => {
  for (const e of endpoints.splice(0)) await e.close();
});

/** An endpoint with one grant whose calls answer `answer(tool, args)`; `calls` records them. */
async function serve(answer: (tool: string, args: unknown) => ToolCallResult) {
  const grants = new McpGrants();
  const calls: Array<{ tool: string; args: unknown; client: string | undefined }> = [];
  const issued = grants.issue({
    label: 'test thread',
    tools: () => TOOLS,
    call: async (tool, args, client) => {
      calls.push({ tool, args, client: client?.name });
      return answer(tool, args);
    },
  });
  const endpoint = await startHttpEndpoint(grants, () => undefined);
  endpoints.push(endpoint);
  return { endpoint, token: issued.token, issued, calls, grants };
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'endpoint-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** A raw POST of an MCP initialize with the given headers; resolves with the status. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('MCP HTTP endpoint', () => {
  it('lists the client tools with read-only hints and runs a call through the grant', async () => {
    const { endpoint, token, calls } = await serve((tool) => ({
      success: true,
      content: [
        { type: 'text', text: `ran ${tool}` },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
    }));
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(endpoint.url, token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['page_read', true],
      ['page_click', false],
    ]);
    const result = await client.callTool({ name: 'page_read', arguments: { maxChars: 2000 } });
    expect(result).toMatchObject({
      isError: false,
      content: [
        { type: 'text', text: 'ran page_read' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
    });
    expect(calls).toEqual([{ tool: 'page_read', args: { maxChars: 2000 }, client: 'endpoint-test' }]);
    await client.close();
  });

  it('returns a denied call as a tool error the model reads, not as a protocol error', async () => {
    const { endpoint, token } = await serve((tool) => ({
      success: false,
      content: [{ type: 'text', text: `The user did not allow ${tool} on https://example.com.` }],
    }));
    const client = await connect(endpoint.url, token);
    const result = await client.callTool({ name: 'page_click', arguments: { ref: 'e1' } });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The user did not allow page_click on https://example.com.' }],
    });
    await client.close();
  });

  it('refuses a wrong or revoked token (401), any Origin and a forged Host (403) before MCP', async () => {
    const { endpoint, token, issued } = await serve(() => ({ success: true, content: [] }));
    const port = new URL(endpoint.url).port;
    const auth = { authorization: `Bearer ${token}` };
    expect(await rawPost(endpoint.url, auth)).toBe(200);
    expect(await rawPost(endpoint.url, { ...auth, host: `localhost:${port}` })).toBe(200);
    expect(await rawPost(endpoint.url, { authorization: `Bearer ${token}x` })).toBe(401);
    expect(await rawPost(endpoint.url, {})).toBe(401);
    expect(await rawPost(endpoint.url, { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await rawPost(endpoint.url, { ...auth, origin: `http://127.0.0.1:${port}` })).toBe(403);
    expect(await rawPost(endpoint.url, { ...auth, host: 'evil.example' })).toBe(403);
    expect(await rawPost(endpoint.url, { ...auth, host: `evil.example:${port}` })).toBe(403);
    issued.revoke();
    expect(await rawPost(endpoint.url, auth)).toBe(401);
  });

  it("keeps a session to the token that opened it: another grant's token cannot use it", async () => {
    const { endpoint, token, grants } = await serve(() => ({ success: true, content: [] }));
    const other = grants.issue({ label: 'other', tools: () => [], call: async () => ({ success: true, content: [] }) });
    const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'endpoint-test', version: '1.0.0' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeTruthy();
    expect(await rawPost(endpoint.url, { authorization: `Bearer ${other.token}`, 'mcp-session-id': sessionId })).toBe(
      404,
    );
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });
});
