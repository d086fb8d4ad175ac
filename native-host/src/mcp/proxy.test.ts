import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { answerLine, FirstLine, parseHello } from './hello';
import { NOT_RUNNING } from './host-link';
import { runProxy } from './proxy';

type Message = { id?: number | string; method?: string; params?: any; result?: unknown };

const PAGE_READ = { name: 'page_read', description: 'Reads the page.', inputSchema: { type: 'object' } };
const PAGE_CLICK = { name: 'page_click', description: 'Clicks.', inputSchema: { type: 'object' } };

/**
 * A host as `tether mcp` meets it: an announcement and token file in the runtime folder, a socket that takes the
 * hello line and then speaks MCP's JSON lines; it records what arrives and answers `tools/call` only when told.
 */
class ScriptedHost {
  readonly received: Message[] = [];
  readonly sockets: Socket[] = [];
  private server: Server | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    readonly dir: string,
    readonly tools: unknown[],
    readonly token = 'host-token',
    readonly pid = 4242,
  ) {}

  async start(): Promise<void> {
    const socketPath = join(this.dir, `host-${this.pid}.sock`);
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve) => this.server!.listen(socketPath, resolve));
    const tokenFile = join(this.dir, `host-${this.pid}.token`);
    writeFileSync(tokenFile, `${this.token}\n`, { mode: 0o600 });
    const info = { pid: this.pid, browser: 'chrome', startedAtMs: Date.now(), socket: socketPath, tokenFile };
    writeFileSync(join(this.dir, `host-${this.pid}.json`), JSON.stringify(info));
  }

  send(socket: Socket, message: object): void {
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  async waitFor(predicate: (m: Message) => boolean, timeoutMs = 5000): Promise<Message> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (Date.now() > until) throw new Error(`not received; got ${JSON.stringify(this.received)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  /** Stops like a host whose browser closed: connections end, the announcement goes. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    rmSync(join(this.dir, `host-${this.pid}.json`), { force: true });
  }

  private accept(socket: Socket): void {
    this.sockets.push(socket);
    socket.on('error', () => undefined);
    const first = new FirstLine();
    let buffer = '';
    let greeted = false;
    socket.on('data', (chunk: Buffer) => {
      if (!greeted) {
        const got = first.push(chunk);
        if (!got) return;
        greeted = true;
        const ok = parseHello(got.line).token === this.token;
        socket.write(answerLine(ok ? { ok: { browser: 'chrome', pid: 4242 } } : { error: { message: 'bad token' } }));
        chunk = got.rest;
      }
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, nl)) as Message;
        buffer = buffer.slice(nl + 1);
        this.received.push(message);
        if (message.method === 'initialize') {
          this.send(socket, {
            id: message.id,
            result: {
              protocolVersion: message.params.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'tether', version: '0' },
            },
          });
        } else if (message.method === 'tools/list') {
          this.send(socket, { id: message.id, result: { tools: this.tools } });
        }
      }
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('end', () => this.received.push({ method: '(connection ended)' }));
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function runtime(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-proxy-'));
  chmodSync(dir, 0o700);
  return dir;
}

/** `tether mcp` in-process on a pair of pipes, and an SDK client on the other ends. */
async function proxyAndClient(dir: string, toolCache = join(dir, 'no-cache.json')) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  const exit = runProxy({ dir, env: {}, input, output, log: (l) => lines.push(l), toolCache, watchMs: 50 });
  const client = new Client({ name: 'claude-code', version: '9.9.9' });
  const listChanged: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged.push(Date.now()));
  await client.connect(new StdioServerTransport(output, input));
  const close = async (): Promise<number> => {
    input.end();
    return exit;
  };
  cleanups.push(async () => void (await close()));
  return { client, lines, listChanged, close };
}

describe('tether mcp as a proxy', () => {
  it('answers initialize, lists the saved tools and explains each call while no host runs', async () => {
    const dir = runtime();
    const cache = join(dir, 'mcp-tools.json');
    writeFileSync(cache, JSON.stringify({ tools: [PAGE_READ] }));
    const { client, lines, close } = await proxyAndClient(dir, cache);
    expect(client.getServerVersion()?.name).toBe('tether');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['page_read']);
    const answer = await client.callTool({ name: 'page_read', arguments: {} });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.content)).toContain(NOT_RUNNING.slice(0, 60));
    expect(lines.join('\n')).toContain('Tether is not running');
    expect(await close()).toBe(1);
  });

  it('reaches a host that appears later, says the tool list changed, and forwards the next call', async () => {
    const dir = runtime();
    const { client, listChanged, close } = await proxyAndClient(dir);
    expect((await client.listTools()).tools).toEqual([]);
    const host = new ScriptedHost(dir, [PAGE_READ, PAGE_CLICK]);
    cleanups.push(() => host.close());
    await host.start();
    await expect.poll(() => listChanged.length, { timeout: 5000 }).toBe(1);
    const init = await host.waitFor((m) => m.method === 'initialize');
    expect(init.params.clientInfo).toMatchObject({ name: 'claude-code', version: '9.9.9' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['page_read', 'page_click']);

    const reading = client.callTool({ name: 'page_read', arguments: { maxChars: 10 } });
    const call = await host.waitFor((m) => m.method === 'tools/call');
    expect(call.params).toMatchObject({ name: 'page_read', arguments: { maxChars: 10 } });
    host.send(host.sockets.at(-1)!, { id: call.id, result: { content: [{ type: 'text', text: 'Page text.' }] } });
    expect(await reading).toEqual({ content: [{ type: 'text', text: 'Page text.' }] });
    expect(await close()).toBe(0);
  });

  it('cancels towards the host the call the client cancels, naming the request it forwarded', async () => {
    const dir = runtime();
    const host = new ScriptedHost(dir, [PAGE_CLICK]);
    cleanups.push(() => host.close());
    await host.start();
    const { client } = await proxyAndClient(dir);
    const stop = new AbortController();
    const clicking = client.callTool({ name: 'page_click', arguments: { ref: 'e1' } }, undefined, {
      signal: stop.signal,
    });
    const call = await host.waitFor((m) => m.method === 'tools/call');
    stop.abort('the user pressed Esc');
    await expect(clicking).rejects.toThrow();
    const cancelled = await host.waitFor((m) => m.method === 'notifications/cancelled');
    expect(cancelled.params).toEqual({ requestId: call.id, reason: 'the user pressed Esc' });
  });

  it("closes the host's connection when the client closes its input mid-call, and exits 0", async () => {
    const dir = runtime();
    const host = new ScriptedHost(dir, [PAGE_CLICK]);
    cleanups.push(() => host.close());
    await host.start();
    const { client, close } = await proxyAndClient(dir);
    void client.callTool({ name: 'page_click', arguments: { ref: 'e1' } }).catch(() => undefined);
    await host.waitFor((m) => m.method === 'tools/call');
    expect(await close()).toBe(0);
    await host.waitFor((m) => m.method === '(connection ended)');
  });

  it('after its host goes, answers calls with what to do, then uses the next host in the same session', async () => {
    const dir = runtime();
    const first = new ScriptedHost(dir, [PAGE_READ]);
    cleanups.push(() => first.close());
    await first.start();
    const { client, lines } = await proxyAndClient(dir);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['page_read']);
    await first.close();
    await expect.poll(() => lines.join('\n')).toContain('the Tether host closed the connection');
    const meanwhile = await client.callTool({ name: 'page_read', arguments: {} });
    expect(JSON.stringify(meanwhile.content)).toContain('Tether is not running');

    const second = new ScriptedHost(dir, [PAGE_READ], 'host-token', 4343);
    cleanups.push(() => second.close());
    await second.start();
    const reading = client.callTool({ name: 'page_read', arguments: {} });
    const call = await second.waitFor((m) => m.method === 'tools/call');
    second.send(second.sockets.at(-1)!, { id: call.id, result: { content: [{ type: 'text', text: 'Again.' }] } });
    expect(await reading).toEqual({ content: [{ type: 'text', text: 'Again.' }] });
  });

  it("answers each call with the host's refusal when the token is not valid", async () => {
    const dir = runtime();
    const host = new ScriptedHost(dir, [PAGE_READ], 'another-token');
    cleanups.push(() => host.close());
    await host.start();
    writeFileSync(join(dir, 'host-4242.token'), 'stale-token\n');
    const { client, close } = await proxyAndClient(dir);
    const answer = await client.callTool({ name: 'page_read', arguments: {} });
    expect(answer).toEqual({ isError: true, content: [{ type: 'text', text: 'The Tether host refused: bad token' }] });
    expect(await close()).toBe(1);
  });
});
