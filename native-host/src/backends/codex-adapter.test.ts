import { clientRequests, ErrorCode, RpcError, serverRequests } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { setup } from '../testing/codex-client';

describe('codex adapter', () => {
  it('translates a streamed answer: thread, turn, user and agent items, deltas and statuses', async () => {
    const { client, seen, init, waitFor, agent } = setup('text');
    const init0 = await init();
    expect(init0.serverInfo).toEqual({ name: 'codex', version: '0.171.0' });
    expect(init0.capabilities).toMatchObject({
      approvalRequests: true,
      steer: true,
      schemaExport: false,
      clientTools: true,
    });
    const started = clientRequests['thread/start'].result.parse(await client.request('thread/start', {}));
    expect(started.thread).toMatchObject({
      title: '',
      model: 'mock-model',
      status: 'idle',
      archived: false,
      ephemeral: false,
    });
    expect(started.thread.createdAtMs).toBeGreaterThan(1_000_000_000_000);
    const threadId = started.thread.id;
    const turnResult = clientRequests['turn/start'].result.parse(
      await client.request('turn/start', { threadId, input: [{ text: 'Say hello' }] }),
    );
    expect(turnResult.turn).toMatchObject({
      threadId,
      status: 'running',
      input: [{ type: 'text', text: 'Say hello' }],
    });
    const done = await waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turnResult.turn.id, status: 'completed', threadId });

    const sentToCodex = agent.received.find((m) => m.method === 'turn/start')!;
    expect(sentToCodex.params).toEqual({ threadId, input: [{ type: 'text', text: 'Say hello', text_elements: [] }] });
    expect(agent.received.find((m) => m.method === 'thread/start')!.params).toEqual({ approvalPolicy: 'untrusted' });

    const deltas = seen
      .filter((s) => s.method === 'item/agentMessage/delta')
      .map((s) => s.params.delta)
      .join('');
    expect(deltas).toBe('Hello from the mock model.');
    const completed = seen
      .filter((s) => s.method === 'item/completed')
      .map((s) => s.params.item as Record<string, unknown>);
    expect(completed.map((i) => [i.type, i.status, (i.content as { text: string }).text])).toEqual([
      ['userMessage', 'completed', 'Say hello'],
      ['agentMessage', 'completed', 'Hello from the mock model.'],
    ]);
    const order = seen.map((s) => s.method);
    expect(order.indexOf('turn/started')).toBeLessThan(order.indexOf('item/started'));
    expect(order.lastIndexOf('item/completed')).toBeLessThan(order.indexOf('turn/completed'));
    expect(seen.filter((s) => s.method === 'thread/status/changed').map((s) => s.params.status)).toEqual([
      'running',
      'idle',
    ]);

    // Reads by pages are in codex-adapter.pages.test.ts (this transcript predates Codex's thread/turns/list).
    const list = clientRequests['thread/list'].result.parse(await client.request('thread/list', {}));
    expect(list.threads.map((t) => t.id)).toEqual([threadId]);
    const archived = clientRequests['thread/archive'].result.parse(
      await client.request('thread/archive', { threadId }),
    );
    expect(archived.thread.archived).toBe(true);
    client.close();
  });

  it('answers the turn/start request before it forwards turn/started', async () => {
    const { client, init, wire, waitFor } = setup('text');
    await init();
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Say hello' }] });
    await waitFor('turn/completed');
    const answer = wire.findIndex((m) => m.result !== undefined && (m.result as { turn?: unknown }).turn !== undefined);
    const started = wire.findIndex((m) => m.method === 'turn/started');
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(answer).toBeLessThan(started);
    client.close();
  });

  it('answers -32602 for thread/read after an item the thread does not have, as the app-server does', async () => {
    const { client, init, waitFor } = setup('text');
    await init();
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Say hello' }] });
    await waitFor('turn/completed');
    await expect(client.request('thread/read', { threadId, afterItemId: 'item_nope' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: `Invalid params: item item_nope is not in thread ${threadId}`,
      data: { threadId, itemId: 'item_nope' },
    });
    client.close();
  });

  it('interrupts a turn, which then completes as interrupted and reads back with the text shown, marked', async () => {
    const { client, init, waitFor, agent } = setup('interrupt');
    await init();
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    const turn = (
      (await client.request('turn/start', { threadId, input: [{ text: 'Talk slowly' }] })) as { turn: { id: string } }
    ).turn;
    await waitFor('item/started', (p) => (p.item as { type: string }).type === 'agentMessage');
    const answer = clientRequests['turn/interrupt'].result.parse(
      await client.request('turn/interrupt', { threadId, turnId: turn.id }),
    );
    expect(answer.turn).toMatchObject({ id: turn.id, threadId, input: [{ type: 'text', text: 'Talk slowly' }] });
    expect(agent.received.find((m) => m.method === 'turn/interrupt')!.params).toEqual({ threadId, turnId: turn.id });
    const done = await waitFor('turn/completed');
    expect(done.turn).toMatchObject({ id: turn.id, status: 'interrupted' });
    // Codex's history keeps the question only: the answer streamed so far ('x') comes from the adapter's journal.
    const asked = (await waitFor('item/completed')).item as { id: string };
    const read = clientRequests['thread/read'].result.parse(
      await client.request('thread/read', { threadId, afterItemId: asked.id }),
    );
    expect(read.items).toEqual([expect.objectContaining({ type: 'agentMessage', content: { text: 'x' } })]);
    expect(read.unfinishedTurns).toEqual([expect.objectContaining({ id: turn.id, status: 'interrupted' })]);
    client.close();
  });

  it('passes client tools to Codex as dynamic tools and runs item/tool/call in the client', async () => {
    const { client, init, waitFor, agent } = setup('tools');
    const tool = {
      name: 'page_title',
      description: 'Title of the page',
      inputSchema: { type: 'object', properties: { tabId: { type: 'number' } } },
    };
    await init({ clientTools: [tool] });
    expect(agent.received[0]!.params).toMatchObject({ capabilities: { experimentalApi: true } });
    const calls: unknown[] = [];
    client.onRequest('item/tool/call', (params) => {
      calls.push(serverRequests['item/tool/call'].params.parse(params));
      return { success: true, content: [{ type: 'text', text: 'Example Domain' }] };
    });
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    expect(agent.received.find((m) => m.method === 'thread/start')!.params).toMatchObject({
      dynamicTools: [{ type: 'function', ...tool }],
    });
    await client.request('turn/start', { threadId, input: [{ text: 'What is the title?' }] });
    await waitFor('turn/completed');
    expect(calls).toEqual([
      { threadId, turnId: expect.any(String), callId: 'call_tool', tool: 'page_title', arguments: { tabId: 1 } },
    ]);
    expect(agent.answers.get(0)).toEqual({
      success: true,
      contentItems: [{ type: 'inputText', text: 'Example Domain' }],
    });
    const item = await waitFor('item/completed', (p) => (p.item as { type: string }).type === 'toolCall');
    expect(item.item).toMatchObject({
      status: 'completed',
      content: { toolName: 'page_title', arguments: { tabId: 1 } },
    });
    client.close();
  });

  it('withdraws a page tool call in the client when Codex resolves it itself, and answers Codex nothing', async () => {
    const { client, init, waitFor, agent } = setup('tools');
    const tool = { name: 'page_title', description: 'Title of the page', inputSchema: { type: 'object' } };
    await init({ clientTools: [tool] });
    const calls: Array<{ threadId: string; callId: string }> = [];
    // The user has not decided yet: the client holds the call.
    client.onRequest('item/tool/call', (params) => {
      calls.push(serverRequests['item/tool/call'].params.parse(params));
      return new Promise(() => undefined);
    });
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'What is the title?' }] });
    for (let i = 0; i < 400 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(calls).toHaveLength(1);
    // An interrupt: Codex resolves its own item/tool/call (id 0) and stops waiting for it.
    agent.inject({ method: 'serverRequest/resolved', params: { threadId, requestId: 0 } });
    expect(await waitFor('item/tool/call/cancelled')).toEqual({
      threadId,
      turnId: expect.any(String),
      callId: 'call_tool',
      reason: 'cancelled',
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(agent.answers.has(0)).toBe(false);
    client.close();
  });

  it('ignores unknown notifications, unknown item kinds and unknown fields', async () => {
    const { client, seen, init, agent, waitFor } = setup('text');
    await init();
    agent.inject({ method: 'brand/new/notification', params: { whatever: [1, 2] } });
    agent.inject({
      method: 'item/started',
      params: { threadId: 't', turnId: 'u', item: { type: 'hologram', id: 'h1' } },
    });
    agent.inject({
      method: 'item/started',
      params: { threadId: 't', turnId: 'u', item: { type: 'agentMessage', id: 'a1', text: '', sparkle: true } },
    });
    agent.inject({ method: 'item/agentMessage/delta', params: 'not an object' });
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    const item = await waitFor('item/started');
    expect(item.item).toMatchObject({ id: 'a1', type: 'agentMessage', content: { text: '' } });
    expect(seen.some((s) => JSON.stringify(s.params).includes('hologram'))).toBe(false);
    client.close();
  });

  it('gates requests on initialize and answers -32013 naming the backend for what Codex cannot do', async () => {
    const { client, init } = setup('text');
    await expect(client.request('thread/list', {})).rejects.toMatchObject({ code: ErrorCode.NotInitialized });
    await init();
    await expect(init()).rejects.toMatchObject({ code: ErrorCode.AlreadyInitialized });
    const error = await client.request('schema/export', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: ErrorCode.Unsupported,
      message: 'schema/export is not supported by the codex backend',
    });
    await expect(client.request('no/such/method', {})).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(client.request('turn/start', { threadId: 'x', input: [] })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    client.close();
  });

  it('holds notifications until the client says initialized and honours optOutNotificationMethods', async () => {
    const { client, seen, agent } = setup('text');
    await client.request('initialize', {
      clientInfo: { name: 't', version: '1' },
      capabilities: { optOutNotificationMethods: ['warning', 'item/agentMessage/delta'] },
    });
    agent.inject({ method: 'thread/archived', params: { threadId: 'early' } });
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([]);
    client.notify('initialized');
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Say hello' }] });
    for (let i = 0; i < 200 && !seen.some((s) => s.method === 'turn/completed'); i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(seen[0]).toEqual({ method: 'thread/archived', params: { threadId: 'early' } });
    expect(seen.some((s) => s.method === 'warning' || s.method === 'item/agentMessage/delta')).toBe(false);
    client.close();
  });

  it('uses the approval policy from the backend options, and none when the options say null', async () => {
    const a = setup('text', { backendOptions: { approvalPolicy: 'on-request', sandbox: 'workspace-write' } });
    await a.init();
    await a.client.request('thread/start', { cwd: '/tmp' });
    expect(a.agent.received.find((m) => m.method === 'thread/start')!.params).toEqual({
      cwd: '/tmp',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    });
    a.client.close();
    const b = setup('text', { backendOptions: { approvalPolicy: null } });
    await b.init();
    await b.client.request('thread/start', {});
    expect(b.agent.received.find((m) => m.method === 'thread/start')!.params).toEqual({});
    b.client.close();
  });

  it('closes the Tether side when Codex goes away, withdrawing open approvals', async () => {
    const { client, init, waitFor, agent } = setup('approval');
    await init();
    client.onRequest('approval/request', () => new Promise(() => undefined));
    const threadId = ((await client.request('thread/start', {})) as { thread: { id: string } }).thread.id;
    await client.request('turn/start', { threadId, input: [{ text: 'Run echo' }] });
    await waitFor('approval/requested');
    (agent as unknown as { transport: { close(): void } }).transport.close();
    expect(await waitFor('approval/resolved')).toMatchObject({ decision: 'cancelled' });
    await client.closed;
    expect(client.isClosed).toBe(true);
  });
});
