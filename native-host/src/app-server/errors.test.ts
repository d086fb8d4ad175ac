/** Every error code of protocol.md that applies to the reference app-server, with messages that name what failed. */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createJsonlTransport } from '../stdio-transport';
import { createHarness, type Harness } from './testing/harness';
import { RawClient } from './testing/raw-client';

let harness: Harness;
afterEach(async () => harness.dispose());

async function ready(raw: RawClient): Promise<void> {
  await raw.call({ id: 'init', method: 'initialize', params: { clientInfo: { name: 'e', version: '1' } } });
  raw.send({ method: 'initialized' });
}

async function errorOf(
  raw: RawClient,
  method: string,
  params?: unknown,
): Promise<{ code: number; message: string; data?: unknown }> {
  const id = Math.floor(Math.random() * 1e9);
  const got = await raw.call(params === undefined ? { id, method } : { id, method, params });
  const answer = got.at(-1) as { error?: { code: number; message: string; data?: unknown } };
  if (!answer.error) throw new Error(`${method} succeeded: ${JSON.stringify(answer)}`);
  return answer.error;
}

describe('protocol errors', () => {
  it('answers unreadable JSON on stdio with -32700 and id null, then keeps serving', async () => {
    harness = createHarness({ persistent: false });
    const input = new PassThrough();
    const output = new PassThrough();
    harness.server.connect(createJsonlTransport(input, output));
    const lines: unknown[] = [];
    let buffer = '';
    output.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts.map((l) => JSON.parse(l)));
    });
    input.write('{"id":1,"method":"initialize",\n');
    input.write('{"id":2,"method":"initialize","params":{"clientInfo":{"name":"x","version":"1"}}}\n');
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(lines[1]).toMatchObject({ id: 2, result: { protocolVersion: '2026-06-02' } });
    input.end();
  });

  it('answers an object that is no JSON-RPC message with -32600', async () => {
    harness = createHarness({ persistent: false });
    const raw = new RawClient(harness.server);
    raw.send({ hello: 'world' });
    expect((await raw.take(() => true))[0]).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('gates every method before initialize with -32010, and a second initialize with -32011', async () => {
    harness = createHarness({ persistent: false });
    const raw = new RawClient(harness.server);
    expect(await errorOf(raw, 'thread/list', {})).toMatchObject({
      code: -32010,
      message: 'Not initialized: send initialize first',
    });
    expect(await errorOf(raw, 'no/such/method', {})).toMatchObject({ code: -32010 });
    await ready(raw);
    expect(await errorOf(raw, 'initialize', { clientInfo: { name: 'e', version: '1' } })).toMatchObject({
      code: -32011,
    });
  });

  it('answers an unknown method with -32601 naming it', async () => {
    harness = createHarness({ persistent: false });
    const raw = new RawClient(harness.server);
    await ready(raw);
    expect(await errorOf(raw, 'thread/explode', {})).toEqual({
      code: -32601,
      message: 'Method not found: thread/explode',
    });
  });

  it('answers invalid params with -32602 and the Zod issue path in data', async () => {
    harness = createHarness({ persistent: false });
    const raw = new RawClient(harness.server);
    await ready(raw);
    const error = await errorOf(raw, 'turn/start', { threadId: 'x', input: [{ text: 5 }] });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('turn/start');
    expect(error.data).toMatchObject({ issues: [{ path: ['input', '0', 'text'] }] });
    const tools = [{ name: 'bash', description: 'mine', inputSchema: {} }];
    const raw2 = new RawClient(harness.server);
    expect(
      await errorOf(raw2, 'initialize', {
        clientInfo: { name: 'e', version: '1' },
        capabilities: { clientTools: tools },
      }),
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('built-in tool'),
    });
  });

  it('answers -32603 naming the method when a thread journal cannot be read', async () => {
    harness = createHarness();
    const raw = new RawClient(harness.server);
    await ready(raw);
    const started = await raw.call({ id: 1, method: 'thread/start', params: {} });
    const threadId = (started.at(-1) as { result: { thread: { id: string } } }).result.thread.id;
    const journal = join(harness.dataDir!, 'threads', `${threadId}.jsonl`);
    rmSync(journal);
    mkdirSync(journal);
    const error = await errorOf(raw, 'thread/read', { threadId });
    expect(error.code).toBe(-32603);
    expect(error.message).toContain('thread/read failed');
  });

  it('answers -32001 when the running-turn limit is reached', async () => {
    harness = createHarness({ persistent: false, config: { maxRunningTurns: 1 } });
    const tc = await harness.connect();
    const a = await tc.client.threadStart({});
    const b = await tc.client.threadStart({});
    await tc.client.turnStart({ threadId: a.thread.id, input: [{ text: '/stream 10 60000' }] });
    await expect(tc.client.turnStart({ threadId: b.thread.id, input: [{ text: 'hi' }] })).rejects.toMatchObject({
      code: -32001,
      message: expect.stringContaining('retry'),
    });
  });

  it('answers thread, turn and approval errors with codes -32020..-32040 naming the ids', async () => {
    harness = createHarness({ persistent: false });
    const tc = await harness.connect();
    const c = tc.client;
    await expect(c.threadRead({ threadId: 'thread_missing' })).rejects.toMatchObject({
      code: -32020,
      message: 'Thread not found: thread_missing',
    });
    await expect(c.threadResume({ threadId: 'thread_missing' })).rejects.toMatchObject({ code: -32020 });
    await expect(c.turnStart({ threadId: 'thread_missing', input: [{ text: 'x' }] })).rejects.toMatchObject({
      code: -32020,
    });
    const { thread } = await c.threadStart({});
    await expect(c.turnInterrupt({ threadId: thread.id, turnId: 'turn_x' })).rejects.toMatchObject({
      code: -32030,
      message: `Thread ${thread.id} has no active turn`,
    });
    await expect(
      c.turnSteer({ threadId: thread.id, expectedTurnId: 'turn_x', input: [{ text: 'x' }] }),
    ).rejects.toMatchObject({ code: -32030 });
    const { turn } = await c.turnStart({ threadId: thread.id, input: [{ text: '/stream 10 60000' }] });
    await expect(c.turnStart({ threadId: thread.id, input: [{ text: 'again' }] })).rejects.toMatchObject({
      code: -32022,
      message: expect.stringContaining(turn.id),
    });
    await expect(
      c.turnSteer({ threadId: thread.id, expectedTurnId: 'turn_old', input: [{ text: 'x' }] }),
    ).rejects.toMatchObject({
      code: -32031,
      message: `Turn id mismatch on thread ${thread.id}: expected turn_old, the active turn is ${turn.id}`,
    });
    await expect(c.turnInterrupt({ threadId: thread.id, turnId: 'turn_old' })).rejects.toMatchObject({ code: -32031 });
    await expect(
      c.approvalResolve({ threadId: thread.id, turnId: turn.id, requestId: 'approval_x', decision: 'allow' }),
    ).rejects.toMatchObject({
      code: -32040,
      message: 'Approval approval_x not found or already resolved',
    });
    await c.threadArchive({ threadId: thread.id });
    await expect(c.turnStart({ threadId: thread.id, input: [{ text: 'x' }] })).rejects.toMatchObject({ code: -32021 });
  });
});
