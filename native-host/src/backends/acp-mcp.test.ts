import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCallCancelledNotification, ToolCallParams } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../mcp/hub';
import { AcpMcpGrants } from './acp-mcp';

const hubs: McpHub[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
});

function setup() {
  const hub = new McpHub({
    browser: 'chromium',
    log: () => undefined,
    dir: join(mkdtempSync(join(tmpdir(), 'tether-acp-mcp-')), 'run'),
    cliPath: '/opt/tether/dist/tether.mjs',
  });
  hubs.push(hub);
  hub.setClientTools([
    { name: 'page_read', description: 'Read', inputSchema: { type: 'object' } },
    { name: 'page_click', description: 'Click', inputSchema: { type: 'object' } },
    { name: 'page_wait', description: 'Wait', inputSchema: { type: 'object' } },
  ]);
  const calls: ToolCallParams[] = [];
  const cancelled: ToolCallCancelledNotification[] = [];
  const grants = new AcpMcpGrants(hub, {
    call: (params, signal) => {
      calls.push(params);
      // page_wait stands for a call the user has not decided yet: it ends only when its caller stops waiting.
      if (params.tool === 'page_wait')
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      return Promise.resolve({ success: true, content: [{ type: 'text', text: 'ok' }] });
    },
    cancelled: (params) => cancelled.push(params),
    turnOf: (threadId) => (threadId === 'thr_1' ? 'turn_9' : undefined),
    log: () => undefined,
  });
  return { hub, grants, calls, cancelled };
}

function tokenOf(entry: unknown): string {
  const e = entry as { headers?: Array<{ value: string }>; env?: Array<{ name: string; value: string }> };
  return e.headers?.[0]?.value.replace('Bearer ', '') ?? e.env!.find((v) => v.name === 'TETHER_MCP_TOKEN')!.value;
}

describe('Tether MCP server for ACP sessions', () => {
  it('gives the HTTP form with a bearer token bound to the thread the session/new answer names', async () => {
    const { hub, grants, calls } = setup();
    const [entry] = await grants.servers('new_1', true);
    expect(entry).toMatchObject({
      type: 'http',
      name: 'tether',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
    });
    grants.bind('new_1', 'thr_1');
    const grant = hub.grants.find(tokenOf(entry))!;
    const caller = { name: 'copilot-cli', version: '1', connection: 'c1' };
    await grant.call('page_read', { maxChars: 10 }, caller, new AbortController().signal);
    expect(calls).toEqual([
      { threadId: 'thr_1', turnId: 'turn_9', callId: 'mcp_1', tool: 'page_read', arguments: { maxChars: 10 } },
    ]);
    expect((await grants.servers('thr_1', true))[0]).toEqual(entry);
  });

  it('gives the stdio form as node + the tether script + mcp, token and socket in the environment only', async () => {
    const { grants } = setup();
    const [entry] = await grants.servers('thr_2', false);
    expect(entry).toMatchObject({
      name: 'tether',
      command: process.execPath,
      args: ['/opt/tether/dist/tether.mjs', 'mcp'],
    });
    const env = (entry as { env: Array<{ name: string; value: string }> }).env;
    expect(env.map((e) => e.name)).toEqual(['TETHER_MCP_TOKEN', 'TETHER_MCP_SOCKET']);
    expect(env[1]!.value).toMatch(/host-\d+\.sock$/);
    expect(JSON.stringify((entry as { args: string[] }).args)).not.toContain(env[0]!.value);
  });

  it('revokes every token when the agent goes away; a connection made before gets a tool error, not a call', async () => {
    const { hub, grants, calls } = setup();
    const [entry] = await grants.servers('thr_1', true);
    const grant = hub.grants.find(tokenOf(entry))!;
    grants.revoke();
    expect(hub.grants.find(tokenOf(entry))).toBeUndefined();
    const caller = { name: '', version: '', connection: 'c1' };
    const result = await grant.call('page_read', {}, caller, new AbortController().signal);
    expect(result.success).toBe(false);
    expect(calls).toEqual([]);
  });

  it('withdraws the call in the browser when the agent stops waiting for it, saying why', async () => {
    const { hub, grants, calls, cancelled } = setup();
    const [entry] = await grants.servers('thr_1', true);
    const grant = hub.grants.find(tokenOf(entry))!;
    const stop = new AbortController();
    const waiting = grant.call('page_wait', {}, { name: 'gemini', version: '1', connection: 'c1' }, stop.signal);
    expect(cancelled).toEqual([]);
    stop.abort('disconnected');
    expect((await waiting).success).toBe(false);
    expect(cancelled).toEqual([
      { threadId: 'thr_1', turnId: 'turn_9', callId: calls[0]!.callId, reason: 'disconnected' },
    ]);
  });

  it("recognises Tether's tools by the titles agents give them, and nothing else", () => {
    const { grants } = setup();
    expect(grants.isTetherTool({ title: 'page_click' }, 'tether-page_click')).toBe(true);
    expect(grants.isTetherTool({ title: 'mcp__tether__page_read' }, undefined)).toBe(true);
    expect(grants.isTetherTool({ title: 'page_read (tether MCP Server)' }, undefined)).toBe(true);
    expect(grants.isTetherTool({ title: 'page_read (other MCP Server)' }, undefined)).toBe(false);
    expect(grants.isTetherTool({ title: 'page_click' }, undefined)).toBe(false);
    expect(grants.isTetherTool({ title: 'tether-rm_rf' }, undefined)).toBe(false);
    expect(grants.isTetherTool({ title: 'Run echo' }, 'Run echo')).toBe(false);
  });
});
