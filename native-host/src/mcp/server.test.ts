import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolCallResult } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpCaller, McpGrant } from './grants';
import { serveMcp } from './server';

/** A call the grant received, with the signal it was given. */
interface Received {
  readonly tool: string;
  readonly caller: McpCaller;
  readonly signal: AbortSignal;
  answer(result: ToolCallResult): void;
}

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});

/** A grant that holds every call until the test answers it, as the browser holds one until the user decides. */
function holdingGrant() {
  const received: Received[] = [];
  const opened: McpCaller[] = [];
  const grant: McpGrant = {
    label: 'test grant',
    tools: () => [{ name: 'page_click', description: 'Click', inputSchema: { type: 'object' } }],
    call: (tool, _args, caller, signal) =>
      new Promise((resolve) => received.push({ tool, caller, signal, answer: resolve })),
    opened: (caller) => {
      opened.push(caller);
      return () => undefined;
    },
  };
  return { grant, received, opened };
}

async function connected(grant: McpGrant, name = 'inspector'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveMcp(grant, serverSide, () => undefined);
  const client = new Client({ name, version: '1.0.3' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function nextCall(received: Received[], count: number): Promise<Received> {
  await expect.poll(() => received.length).toBeGreaterThanOrEqual(count);
  return received[count - 1]!;
}

describe('serveMcp', () => {
  it('names the caller and its own connection on every call; two connections never share an id', async () => {
    const { grant, received, opened } = holdingGrant();
    const first = await connected(grant, 'inspector');
    const second = await connected(grant, 'claude-code');
    void first.callTool({ name: 'page_click', arguments: {} }).catch(() => undefined);
    void second.callTool({ name: 'page_click', arguments: {} }).catch(() => undefined);
    const a = await nextCall(received, 1);
    const b = await nextCall(received, 2);
    expect(a.caller).toMatchObject({ name: 'inspector', version: '1.0.3' });
    expect(b.caller).toMatchObject({ name: 'claude-code', version: '1.0.3' });
    expect(a.caller.connection).not.toBe(b.caller.connection);
    await expect
      .poll(() => opened.map((c) => c.connection).sort())
      .toEqual([a.caller.connection, b.caller.connection].sort());
  });

  it("aborts a call's signal with `cancelled` when the client cancels it, and answers it nothing", async () => {
    const { grant, received } = holdingGrant();
    const client = await connected(grant);
    const stop = new AbortController();
    const calling = client.callTool({ name: 'page_click', arguments: {} }, undefined, { signal: stop.signal });
    const call = await nextCall(received, 1);
    expect(call.signal.aborted).toBe(false);
    stop.abort('the user pressed Esc');
    await expect(calling).rejects.toThrow();
    await expect.poll(() => call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe('cancelled');
  });

  it("aborts a call's signal with `disconnected` when the client goes away mid-call", async () => {
    const { grant, received } = holdingGrant();
    const client = await connected(grant);
    void client.callTool({ name: 'page_click', arguments: {} }).catch(() => undefined);
    const call = await nextCall(received, 1);
    await client.close();
    await expect.poll(() => call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe('disconnected');
  });

  it('delivers the answer of a call nobody cancelled', async () => {
    const { grant, received } = holdingGrant();
    const client = await connected(grant);
    const calling = client.callTool({ name: 'page_click', arguments: {} });
    const call = await nextCall(received, 1);
    call.answer({ success: true, content: [{ type: 'text', text: 'clicked' }] });
    expect(await calling).toEqual({ content: [{ type: 'text', text: 'clicked' }], isError: false });
    expect(call.signal.aborted).toBe(false);
  });
});
