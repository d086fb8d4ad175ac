/** Threads: list, archive, fork, read after an item, subscriptions across connections, resume, notification filters. */
import { generateJsonSchemaBundle, generateTypeScript } from '@tether/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, runTurn, type Harness } from './testing/harness';

let harness: Harness;
afterEach(async () => harness.dispose());

describe('thread/list', () => {
  it('lists newest first in pages joined by cursors, hides archived and ephemeral threads unless asked', async () => {
    let clock = 1_000;
    harness = createHarness({ config: { now: () => clock++ } });
    const tc = await harness.connect();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await tc.client.threadStart({ title: `t${i}` })).thread.id);
    await tc.client.threadStart({ title: 'gone', ephemeral: true });
    await tc.client.threadArchive({ threadId: ids[0]! });
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await tc.client.threadList({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.threads.length).toBeLessThanOrEqual(2);
      seen.push(...page.threads.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids.slice(1).reverse());
    expect((await tc.client.threadList({ archived: true })).threads.map((t) => t.id)).toEqual([ids[0]]);
    await expect(tc.client.threadList({ cursor: 'garbage' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('thread previews and search', () => {
  it("keeps the first line of the last message as the preview: the user's while the turn runs, then the answer", async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const { thread } = await tc.client.threadStart({});
    expect(thread.preview).toBeUndefined();
    const { turn } = await tc.client.turnStart({
      threadId: thread.id,
      input: [{ text: '\n  What is Bergen?\nSecond' }],
    });
    const running = (await tc.client.threadList({})).threads.find((t) => t.id === thread.id);
    expect(running).toMatchObject({ title: 'What is Bergen?', preview: 'What is Bergen?' });
    await tc.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id);
    const answer = (await tc.client.threadRead({ threadId: thread.id })).items.find((i) => i.type === 'agentMessage');
    const firstLine = answer?.type === 'agentMessage' ? answer.content.text.split('\n')[0]!.trim() : '';
    expect(firstLine).not.toBe('');
    const done = (await tc.client.threadList({})).threads.find((t) => t.id === thread.id);
    expect(done?.preview).toBe(firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine);
    expect(done?.title).toBe('What is Bergen?');
  });

  it('lists only threads whose title or preview holds the search text, ignoring case, and all for a blank one', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const bergen = (await tc.client.threadStart({ title: 'Weather in BERGEN' })).thread;
    const oslo = (await tc.client.threadStart({ title: 'Trains' })).thread;
    await runTurn(tc, oslo.id, 'Oslo to Bergen by night?');
    await tc.client.threadStart({ title: 'Lighthouses' });
    const ids = async (search: string): Promise<string[]> =>
      (await tc.client.threadList({ search })).threads.map((t) => t.id).sort();
    expect(await ids('bergen')).toEqual([bergen.id, oslo.id].sort());
    expect(await ids('TRAINS')).toEqual([oslo.id]);
    expect(await ids('fjord')).toEqual([]);
    expect(await ids('  ')).toHaveLength(3);
  });
});

describe('archiving', () => {
  it('archives and unarchives with notifications, and refuses turns on an archived thread', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const { thread } = await tc.client.threadStart({ title: 'a' });
    expect((await tc.client.threadArchive({ threadId: thread.id })).thread.archived).toBe(true);
    await tc.rec.waitFor('thread/archived', (p) => p.threadId === thread.id);
    await expect(tc.client.turnStart({ threadId: thread.id, input: [{ text: 'hi' }] })).rejects.toMatchObject({
      code: -32021,
      message: expect.stringContaining(thread.id),
    });
    expect((await tc.client.threadUnarchive({ threadId: thread.id })).thread.archived).toBe(false);
    await tc.rec.waitFor('thread/unarchived', (p) => p.threadId === thread.id);
    expect((await runTurn(tc, thread.id, 'hi')).turn.status).toBe('completed');
  });
});

describe('thread/fork and thread/read', () => {
  it('forks the history up to an item into a new thread and reads items after an item', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const { thread } = await tc.client.threadStart({ title: 'source' });
    await runTurn(tc, thread.id, 'first');
    const { items } = await runTurn(tc, thread.id, 'second');
    expect(items).toHaveLength(4);
    const fork = await tc.client.threadFork({ threadId: thread.id, afterItemId: items[1]!.id });
    expect(fork.thread).toMatchObject({ title: 'source (fork)', status: 'idle', archived: false });
    await tc.rec.waitFor('thread/started', (p) => p.thread.id === fork.thread.id);
    expect((await tc.client.threadRead({ threadId: fork.thread.id })).items).toEqual(items.slice(0, 2));
    expect((await tc.client.threadRead({ threadId: thread.id, afterItemId: items[1]!.id })).items).toEqual(
      items.slice(2),
    );
    await expect(tc.client.threadRead({ threadId: thread.id, afterItemId: 'item_nope' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('item_nope'),
    });
    const whole = await tc.client.threadFork({ threadId: thread.id, title: 'copy' });
    expect((await tc.client.threadRead({ threadId: whole.thread.id })).items).toEqual(items);
    expect((await runTurn(tc, fork.thread.id, 'continue')).items).toHaveLength(4);
  });

  it('names a thread after its first message when it was started without a title', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const { thread } = await tc.client.threadStart({});
    expect(thread.title).toBe('New thread');
    await runTurn(tc, thread.id, 'Plan a trip to Lisbon\nwith details');
    expect((await tc.client.threadRead({ threadId: thread.id })).thread.title).toBe('Plan a trip to Lisbon');
  });
});

describe('subscriptions', () => {
  it('resumes a running thread from another connection with no delta lost or repeated', async () => {
    harness = createHarness();
    const a = await harness.connect();
    const b = await harness.connect();
    const { thread } = await a.client.threadStart({ title: 's' });
    const { turn } = await a.client.turnStart({ threadId: thread.id, input: [{ text: '/stream 400 2' }] });
    await a.rec.waitFor('item/agentMessage/delta', (p) => p.delta === '20 ');
    const resumed = await b.client.threadResume({ threadId: thread.id });
    expect(resumed.activeTurn).toMatchObject({ id: turn.id, status: 'running' });
    const agent = resumed.items.find((i) => i.type === 'agentMessage')!;
    expect(agent.status).toBe('inProgress');
    await b.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id);
    const later = b.rec.all('item/agentMessage/delta', (p) => p.itemId === agent.id).map((d) => d.delta);
    const final = b.rec.all('item/completed', (p) => p.item.id === agent.id)[0]!;
    expect((agent.content as { text: string }).text + later.join('')).toBe(
      (final.item.content as { text: string }).text,
    );
    expect(b.rec.all('item/started')).toEqual([]);
  });

  it('re-sends a pending approval to a client that resumes the thread after the first one left', async () => {
    harness = createHarness();
    const a = await harness.connect();
    a.client.handle('approval/request', () => new Promise(() => undefined));
    const { thread } = await a.client.threadStart({ title: 's' });
    const { turn } = await a.client.turnStart({ threadId: thread.id, input: [{ text: '/bash echo resumed' }] });
    const first = await a.rec.waitFor('approval/requested', (p) => p.turnId === turn.id);
    a.close();
    const b = await harness.connect();
    b.client.handle('approval/request', (p) => {
      expect(p.requestId).toBe(first.requestId);
      return { decision: 'allow' };
    });
    const resumed = await b.client.threadResume({ threadId: thread.id });
    expect(resumed.activeTurn?.id).toBe(turn.id);
    await b.rec.waitFor('approval/requested', (p) => p.requestId === first.requestId);
    expect((await b.rec.waitFor('turn/completed', (p) => p.turn.id === turn.id)).turn.status).toBe('completed');
    const tool = b.rec.all('item/completed', (p) => p.item.type === 'toolCall')[0]!;
    expect((tool.item.content.result as { output: string }).output).toBe('resumed\n');
  });

  it('stops sending a thread’s notifications after thread/unsubscribe', async () => {
    harness = createHarness();
    const a = await harness.connect();
    const b = await harness.connect();
    const { thread } = await a.client.threadStart({ title: 's' });
    await b.client.threadResume({ threadId: thread.id });
    await b.client.threadUnsubscribe({ threadId: thread.id });
    await runTurn(a, thread.id, 'hello');
    expect(b.rec.all('turn/started')).toEqual([]);
    expect(b.rec.all('item/completed')).toEqual([]);
  });

  it('honours optOutNotificationMethods for that connection only', async () => {
    harness = createHarness();
    const quiet = await harness.connect({ optOut: ['item/agentMessage/delta', 'thread/status/changed'] });
    const { thread } = await quiet.client.threadStart({ title: 's' });
    await runTurn(quiet, thread.id, '/stream 50');
    expect(quiet.rec.all('item/agentMessage/delta')).toEqual([]);
    expect(quiet.rec.all('thread/status/changed')).toEqual([]);
    expect(quiet.rec.all('item/completed')).toHaveLength(2);
  });

  it('sends no asynchronous notification before the client says initialized', async () => {
    harness = createHarness();
    const tc = await harness.connect({ skipInitialize: true });
    await tc.client.initialize({ clientInfo: { name: 'late', version: '1' } }, { sendInitialized: false });
    const { thread } = await tc.client.threadStart({ title: 's' });
    await new Promise((r) => setTimeout(r, 50));
    expect(tc.rec.notes).toEqual([]);
    tc.client.connection.notify('initialized');
    expect((await tc.rec.waitFor('thread/started')).thread.id).toBe(thread.id);
  });
});

describe('client tools', () => {
  const pageRead = {
    name: 'page_read',
    description: 'Reads the page in the tab',
    inputSchema: { type: 'object', properties: {} },
  };

  it('calls page_read on the client for a question about this page and summarises it by title', async () => {
    harness = createHarness();
    const tc = await harness.connect({ clientTools: [pageRead] });
    const calls: unknown[] = [];
    tc.client.handle('item/tool/call', (p) => {
      calls.push(p);
      const page = {
        title: 'Example Domain',
        url: 'https://example.com/',
        text: 'This domain is for use in examples. You may use it freely. More text follows here.',
      };
      return { success: true, content: [{ type: 'text', text: JSON.stringify(page) }] };
    });
    const { thread } = await tc.client.threadStart({ title: 'p' });
    const { items, turn } = await runTurn(tc, thread.id, 'What is this page about?');
    expect(calls).toEqual([
      { threadId: thread.id, turnId: turn.id, callId: expect.any(String), tool: 'page_read', arguments: {} },
    ]);
    expect(items.map((i) => i.type)).toEqual(['userMessage', 'toolCall', 'agentMessage']);
    expect(items[1]).toMatchObject({ status: 'completed', content: { toolName: 'page_read', status: 'success' } });
    expect((items[2]!.content as { text: string }).text).toBe(
      'The page "Example Domain" (https://example.com/) says: This domain is for use in examples. You may use it freely. More text follows here.',
    );
  });

  it('completes the tool item as failed when the client reports failure, and tells the user', async () => {
    harness = createHarness();
    const tc = await harness.connect({ clientTools: [pageRead] });
    tc.client.handle('item/tool/call', () => ({
      success: false,
      content: [{ type: 'text', text: 'The tab is a chrome:// page.' }],
    }));
    const { thread } = await tc.client.threadStart({ title: 'p' });
    const { items } = await runTurn(tc, thread.id, '/page');
    expect(items[1]).toMatchObject({
      status: 'failed',
      content: { status: 'failed', error: 'The tab is a chrome:// page.' },
    });
    expect((items[2]!.content as { text: string }).text).toBe(
      'I could not read the page: The tab is a chrome:// page.',
    );
  });

  it('says page_read is missing when the client declared no such tool', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    const { thread } = await tc.client.threadStart({ title: 'p' });
    const { items } = await runTurn(tc, thread.id, '/page');
    expect((items.at(-1)!.content as { text: string }).text).toContain('did not declare the `page_read` tool');
  });
});

describe('catalog requests', () => {
  it('lists the scripted model as the default and exports the protocol schema', async () => {
    harness = createHarness();
    const tc = await harness.connect();
    expect(await tc.client.modelList()).toEqual({
      models: [{ id: 'scripted', displayName: 'Scripted (offline)', provider: 'tether', isDefault: true }],
    });
    const schema = await tc.client.schemaExport();
    expect(schema.jsonSchema).toEqual(generateJsonSchemaBundle());
    expect(schema.typescript).toBe(generateTypeScript());
    expect(schema.typescript).toContain('turn/start');
  });
});
