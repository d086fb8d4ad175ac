/**
 * Page tools over MCP for ACP agents: a scripted ACP agent (test/fixtures/acp-mcp-agent.mjs) behind `tether host`
 * connects to the MCP server Tether names in `session/new` with @modelcontextprotocol/sdk's client, in the stdio form
 * (`tether mcp`, for agents without HTTP MCP) and in the HTTP form. The test answers `item/tool/call` as the extension
 * does; the agent reports what it got.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AgentHost, agentHosts, answerToolCall, PAGE_TOOLS, tempDir } from './agent-host';

const AGENT = fileURLToPath(new URL('../fixtures/acp-mcp-agent.mjs', import.meta.url));

const mcpHost = agentHosts('scripted-mcp', (http: boolean) => ({
  backend: {
    argv: [process.execPath, AGENT],
    dialect: 'acp',
    cwd: tempDir('acp-mcp-work'),
    env: http ? { ACP_AGENT_HTTP: '1' } : {},
  },
}));

async function turn(h: AgentHost, threadId: string, text: string, answer?: { success: boolean; content: unknown[] }) {
  const t = await h.startTurn(threadId, text);
  const call = answer ? await answerToolCall(h, answer, t.from) : undefined;
  const done = await h.turnCompleted(t.turnId, t.from);
  expect(done.params.turn.status).toBe('completed');
  return { ...t, call, report: JSON.parse(h.streamedText(t.from)) };
}

/**
 * The agent said its token (masked on the way to the browser) and the token reversed: the token itself is in no frame
 * to the browser and in no file the host wrote (log, journals).
 */
function expectTokenKeptSecret(h: AgentHost, token: { said: string; reversed: string }): void {
  const secret = [...token.reversed].reverse().join('');
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(token.said).toBe('***');
  for (const frame of h.frames) expect(frame.payload.toString('utf8')).not.toContain(secret);
  const files = readdirSync(h.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) expect(readFileSync(join(f.parentPath, f.name), 'utf8')).not.toContain(secret);
}

describe('page tools over MCP for ACP agents', () => {
  it('stdio form: the agent runs `tether mcp`, lists the page tools and reads the page through the extension', async () => {
    const h = mcpHost(false);
    const info = await h.initialize({ clientTools: PAGE_TOOLS });
    expect(info.capabilities.clientTools).toBe(true);
    const { thread } = await h.call('thread/start', {});

    const read = await turn(h, thread.id, 'mcp page_read {"maxChars":2000}', {
      success: true,
      content: [{ type: 'text', text: 'Example Domain. This domain is for use in examples.' }],
    });
    expect(read.call).toMatchObject({
      threadId: thread.id,
      turnId: read.turnId,
      tool: 'page_read',
      arguments: { maxChars: 2000 },
    });
    expect(read.call!.callId).toMatch(/^mcp_\d+$/);
    expect(read.report).toMatchObject({
      server: 'stdio',
      tools: [
        { name: 'page_read', readOnly: true },
        { name: 'page_click', readOnly: false },
      ],
      permission: 'none',
      result: {
        isError: false,
        content: [{ type: 'text', text: 'Example Domain. This domain is for use in examples.' }],
      },
    });

    // A tool that acts: the agent asks its own permission, the adapter allows once at once (the side panel is the one
    // place the user decides), and the extension's denial reaches the agent as a tool error it can read.
    const click = await turn(h, thread.id, 'mcp page_click {"ref":"e7"}', {
      success: false,
      content: [{ type: 'text', text: 'The user did not allow page_click on https://example.com.' }],
    });
    expect(click.report.permission).toBe('allow_once');
    expect(click.report.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The user did not allow page_click on https://example.com.' }],
    });
    expect(h.messagesOf('approval/request', read.from)).toEqual([]);
    const item = h.completedItems(click.from).find((i) => i.type === 'toolCall');
    expect(item?.content.toolName).toBe('tether-page_click');
  });

  it('stdio form: the token and socket travel in the environment, never argv; a wrong token and a missing host fail clearly', async () => {
    const h = mcpHost(false);
    await h.initialize({ clientTools: PAGE_TOOLS });
    const { thread } = await h.call('thread/start', {});
    const { report } = await turn(h, thread.id, 'probe');
    expect(report.argv).toHaveLength(2);
    expect(report.argv[0]).toMatch(/^\/.*tether\.mjs$/);
    expect(report.argv[1]).toBe('mcp');
    expect(report.envNames).toEqual(['TETHER_MCP_SOCKET', 'TETHER_MCP_TOKEN']);
    expect(report.wrongToken.code).toBe(1);
    expect(report.wrongToken.stderr).toContain('The Tether host refused: the token is not valid');
    expect(report.noHost.code).toBe(1);
    expect(report.noHost.stderr).toContain('Tether is not running: open your browser with Tether and share a tab');
    expectTokenKeptSecret(h, report.token);
  });

  it('HTTP form: the agent that advertises mcpCapabilities.http reads the page over HTTP; a wrong token, any Origin and a forged Host are refused', async () => {
    const h = mcpHost(true);
    await h.initialize({ clientTools: PAGE_TOOLS });
    const { thread } = await h.call('thread/start', {});
    const read = await turn(h, thread.id, 'mcp page_read {}', {
      success: true,
      content: [{ type: 'text', text: 'Over HTTP.' }],
    });
    expect(read.call).toMatchObject({ threadId: thread.id, tool: 'page_read' });
    expect(read.report).toMatchObject({ server: 'http', result: { content: [{ type: 'text', text: 'Over HTTP.' }] } });
    const { report } = await turn(h, thread.id, 'probe');
    expect([401, 403]).not.toContain(report.good);
    expect(report).toMatchObject({ wrongToken: 401, origin: 403, forgedHost: 403 });
    expectTokenKeptSecret(h, report.token);
  });

  it('offers no MCP server when the client declares no tools', async () => {
    const h = mcpHost(true);
    const info = await h.initialize();
    expect(info.capabilities.clientTools).toBe(false);
    const { thread } = await h.call('thread/start', {});
    const { report } = await turn(h, thread.id, 'mcp page_read {}');
    expect(report).toEqual({ servers: [] });
  });
});
