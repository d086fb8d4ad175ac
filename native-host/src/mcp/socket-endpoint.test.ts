import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpGrants } from './grants';
import { socketAnswers } from './host-registry';
import { type McpSocketEndpoint, startSocketEndpoint } from './socket-endpoint';

const endpoints: McpSocketEndpoint[] = [];
afterEach(async () => {
  for (const e of endpoints.splice(0)) await e.close();
});

async function endpoint(helloTimeoutMs: number): Promise<{ path: string; lines: string[] }> {
  const path = join(mkdtempSync(join(tmpdir(), 'tether-sock-')), 'host.sock');
  const lines: string[] = [];
  endpoints.push(
    await startSocketEndpoint(path, new McpGrants(), { browser: 'chrome', pid: 1 }, (l) => lines.push(l), {
      helloTimeoutMs,
    }),
  );
  return { path, lines };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the MCP socket', () => {
  it('logs nothing for a probe that connects and closes without a word, even after the hello timeout', async () => {
    const { path, lines } = await endpoint(60);
    expect(await socketAnswers(path)).toBe(true);
    expect(await socketAnswers(path)).toBe(true);
    await sleep(250);
    expect(lines).toEqual([]);
  });

  it('refuses, and logs, a connection that stays open without a hello', async () => {
    const { path, lines } = await endpoint(60);
    const socket = connect(path);
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    await new Promise((r) => socket.once('close', r));
    expect(JSON.parse(answer)).toEqual({ error: { message: 'no hello within 60 ms' } });
    expect(lines).toEqual(['mcp socket: refused a connection: no hello within 60 ms']);
  });
});
