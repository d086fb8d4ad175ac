import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRequests, createMemoryTransportPair, ErrorCode, type Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { connect, items, scriptedAgent } from '../testing/acp-client';
import { FIXTURES, readTranscript, ReplayAgent } from './codex-replay-agent';
import { ThreadJournal } from './journal';

describe('acp adapter with a scripted ACP agent', () => {
  it('turns every session/update kind into items and deltas', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-acp-'));
    const a = scriptedAgent(dataDir);
    const info = await a.init();
    expect(info.serverInfo).toEqual({ name: 'scripted-acp-agent', version: '1.0.0' });
    expect(info.capabilities).toMatchObject({
      approvalRequests: true,
      eventReplay: true,
      steer: false,
      fork: false,
      clientTools: false,
    });
    const thread = await a.startThread();
    expect(thread).toMatchObject({ status: 'idle', archived: false });
    const t = await a.turn(thread.id, 'updates');
    expect((await t.done()).turn).toMatchObject({ status: 'completed', input: [{ type: 'text', text: 'updates' }] });
    const done = items(a.seen, t.from);
    expect(done.map((i) => [i.type, i.status])).toEqual([
      ['userMessage', 'completed'],
      ['reasoning', 'completed'],
      ['toolCall', 'completed'],
      ['agentMessage', 'completed'],
      ['reasoning', 'completed'],
    ]);
    expect(done[1]!.content).toEqual({ text: 'Thinking hard.' });
    expect(done[2]).toMatchObject({
      id: 'tc_read',
      content: {
        toolName: 'Read notes.txt',
        arguments: { path: 'notes.txt' },
        result: 'hello notes',
        status: 'completed',
        kind: 'read',
      },
    });
    expect(done[3]!.content).toEqual({ text: 'All kinds sent.' });
    expect(done[4]!.content).toEqual({ text: '[x] Look around\n[x] Answer' });
    const deltas = (m: string) =>
      a.seen
        .filter((s) => s.method === m)
        .map((s) => s.params.delta)
        .join('');
    expect(deltas('item/agentMessage/delta')).toBe('All kinds sent.');
    expect(deltas('item/reasoning/delta')).toBe('Thinking hard.');
    expect(a.seen.filter((s) => s.method === 'thread/status/changed').map((s) => s.params.status)).toEqual([
      'running',
      'idle',
    ]);
    const read = clientRequests['thread/read'].result.parse(
      await a.client.request('thread/read', { threadId: thread.id }),
    );
    expect(read.thread.title).toBe('Every update kind');
    expect(read.items.map((i) => i.id)).toEqual(done.map((i) => i.id));
    const tail = clientRequests['thread/read'].result.parse(
      await a.client.request('thread/read', { threadId: thread.id, afterItemId: done[2]!.id }),
    );
    expect(tail.items).toHaveLength(2);
    // An item the thread does not have is the client's mistake, answered as the app-server answers it.
    await expect(
      a.client.request('thread/read', { threadId: thread.id, afterItemId: 'item_nope' }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { threadId: thread.id, itemId: 'item_nope' },
    });
  });

  it('asks permission as approval/request and answers with the matching option', async () => {
    const a = scriptedAgent(mkdtempSync(join(tmpdir(), 'tether-acp-')));
    await a.init();
    const decisions = ['allow', 'allow_session', 'deny'];
    const asked: Record<string, unknown>[] = [];
    a.client.onRequest('approval/request', (params) => {
      asked.push(params as Record<string, unknown>);
      return { decision: decisions[asked.length - 1] };
    });
    const thread = await a.startThread();
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await a.turn(thread.id, 'permission');
      await t.done();
      texts.push(
        ...items(a.seen, t.from)
          .filter((x) => x.type === 'agentMessage')
          .map((x) => (x.content as { text: string }).text),
      );
    }
    expect(texts).toEqual(['ran (yes)', 'ran (always)', 'skipped']);
    expect(asked[0]).toMatchObject({
      toolName: 'Run echo',
      preview: 'Run echo: echo hi',
      arguments: { command: 'echo hi' },
      choices: ['allow', 'allow_session', 'deny'],
    });
    const tools = items(a.seen).filter((x) => x.type === 'toolCall');
    expect(tools.map((x) => x.status)).toEqual(['completed', 'completed', 'declined']);
    expect(a.seen.filter((s) => s.method === 'approval/resolved').map((s) => s.params.decision)).toEqual(decisions);
    expect(a.seen.filter((s) => s.method === 'thread/status/changed').map((s) => s.params.status)).toContain(
      'waitingOnApproval',
    );
  });

  it('interrupts with session/cancel, withdrawing a pending permission as cancelled', async () => {
    const a = scriptedAgent(mkdtempSync(join(tmpdir(), 'tether-acp-')));
    await a.init();
    a.client.onRequest('approval/request', () => new Promise(() => undefined));
    const thread = await a.startThread();
    const t = await a.turn(thread.id, 'permission');
    await a.waitFor('approval/requested');
    const answer = clientRequests['turn/interrupt'].result.parse(
      await a.client.request('turn/interrupt', { threadId: thread.id, turnId: t.turnId }),
    );
    expect(answer.turn.id).toBe(t.turnId);
    expect((await a.waitFor('approval/resolved')).decision).toBe('cancelled');
    expect((await t.done()).turn).toMatchObject({ status: 'interrupted' });
    const slow = await a.turn(thread.id, 'slow');
    await a.waitFor('item/agentMessage/delta', () => true, slow.from);
    await expect(
      a.client.request('turn/start', { threadId: thread.id, input: [{ text: 'again' }] }),
    ).rejects.toMatchObject({ code: ErrorCode.ThreadBusy });
    await a.client.request('turn/interrupt', { threadId: thread.id, turnId: slow.turnId });
    expect((await slow.done()).turn).toMatchObject({ status: 'interrupted' });
    expect(items(a.seen, slow.from).find((x) => x.type === 'agentMessage')?.status).toBe('completed');
  });

  it('fails the turn with the agent error and says what cannot be done on an ACP backend', async () => {
    const a = scriptedAgent(mkdtempSync(join(tmpdir(), 'tether-acp-')));
    await a.init();
    const thread = await a.startThread();
    const t = await a.turn(thread.id, 'fail');
    const done = (await t.done()).turn as { status: string; error: { message: string } };
    expect(done.status).toBe('failed');
    expect(done.error.message).toMatch(/Internal error/);
    expect((await a.waitFor('error')).threadId).toBe(thread.id);
    for (const method of ['thread/fork', 'turn/steer', 'schema/export']) {
      const params =
        method === 'turn/steer'
          ? { threadId: thread.id, expectedTurnId: 'x', input: [{ text: 'x' }] }
          : method === 'thread/fork'
            ? { threadId: thread.id }
            : {};
      await expect(a.client.request(method, params)).rejects.toMatchObject({
        code: ErrorCode.Unsupported,
        message: `${method} is not supported by the scripted backend`,
      });
    }
    await expect(a.client.request('thread/read', { threadId: 'nope' })).rejects.toMatchObject({
      code: ErrorCode.ThreadNotFound,
    });
  });

  it("keeps the title a client gave when the agent names the session; the agent's name replaces only a made-up one", async () => {
    const a = scriptedAgent(mkdtempSync(join(tmpdir(), 'tether-acp-')));
    await a.init();
    const given = clientRequests['thread/start'].result.parse(
      await a.client.request('thread/start', { cwd: tmpdir(), title: 'Named by the user' }),
    ).thread;
    await (await a.turn(given.id, 'updates')).done();
    const read = async (threadId: string) =>
      clientRequests['thread/read'].result.parse(await a.client.request('thread/read', { threadId })).thread.title;
    expect(await read(given.id)).toBe('Named by the user');
    const untitled = await a.startThread();
    await (await a.turn(untitled.id, 'updates')).done();
    expect(await read(untitled.id)).toBe('Every update kind');
  });

  it('replays full history from the host journal after the host and the agent restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-acp-'));
    const first = scriptedAgent(dataDir);
    await first.init();
    const thread = await first.startThread();
    for (const text of ['one', 'two']) await (await first.turn(thread.id, text)).done();
    const before = clientRequests['thread/read'].result.parse(
      await first.client.request('thread/read', { threadId: thread.id }),
    ).items;
    first.client.close();

    const second = scriptedAgent(dataDir);
    await second.init();
    const list = clientRequests['thread/list'].result.parse(await second.client.request('thread/list', {}));
    expect(list.threads.map((t) => [t.id, t.title])).toEqual([[thread.id, 'one']]);
    const resumed = clientRequests['thread/resume'].result.parse(
      await second.client.request('thread/resume', { threadId: thread.id }),
    );
    expect(resumed.items).toEqual(before);
    expect(resumed.items.map((i) => (i.content as { text: string }).text)).toEqual([
      'one',
      'You said: one',
      'two',
      'You said: two',
    ]);
    expect(resumed.activeTurn).toBeUndefined();
    const t = await second.turn(thread.id, 'three');
    await t.done();
    expect((await second.waitFor('warning')).message).toMatch(/cannot reopen its earlier session/);
    const after = clientRequests['thread/read'].result.parse(
      await second.client.request('thread/read', { threadId: thread.id }),
    ).items;
    expect(after.map((i) => (i.content as { text: string }).text)).toEqual([
      'one',
      'You said: one',
      'two',
      'You said: two',
      'three',
      'You said: three',
    ]);
    const archived = clientRequests['thread/archive'].result.parse(
      await second.client.request('thread/archive', { threadId: thread.id }),
    );
    expect(archived.thread.archived).toBe(true);
    expect(clientRequests['thread/list'].result.parse(await second.client.request('thread/list', {})).threads).toEqual(
      [],
    );
    expect(
      clientRequests['thread/list'].result.parse(await second.client.request('thread/list', { archived: true }))
        .threads,
    ).toHaveLength(1);
  });
});

describe('acp adapter history pages', () => {
  it('answers a long thread with its latest page and a cursor, and thread/history/read walks back to its first item', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tether-acp-'));
    const a = scriptedAgent(dataDir);
    await a.init();
    const thread = await a.startThread();
    // 300 turns of history written to the host journal as the adapter would have (a second journal on the same files).
    const journal = new ThreadJournal(join(dataDir, 'agents', 'scripted'), () => undefined);
    await journal.load();
    const written: Item[] = [];
    for (let t = 0; t < 300; t++) {
      for (const [n, type] of [
        ['q', 'userMessage'],
        ['a', 'agentMessage'],
      ] as const) {
        const item: Item = {
          id: `i${t}${n}`,
          type,
          status: 'completed',
          createdAtMs: 1,
          content: { text: `${n} ${t}` },
          turnId: `turn_${t}`,
        };
        journal.append(thread.id, item);
        written.push(item);
      }
    }
    const read = clientRequests['thread/read'].result.parse(
      await a.client.request('thread/read', { threadId: thread.id }),
    );
    expect(read.items).toEqual(written.slice(-200));
    const resumed = clientRequests['thread/resume'].result.parse(
      await a.client.request('thread/resume', { threadId: thread.id }),
    );
    expect(resumed.items).toEqual(read.items);
    let cursor = resumed.olderCursor;
    const older: Item[] = [];
    while (cursor) {
      const page = clientRequests['thread/history/read'].result.parse(
        await a.client.request('thread/history/read', { threadId: thread.id, cursor }),
      );
      older.unshift(...page.items);
      cursor = page.olderCursor;
    }
    expect([...older, ...read.items]).toEqual(written);
    await expect(
      a.client.request('thread/history/read', { threadId: thread.id, cursor: 'bogus' }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(/history cursor .* read the thread again/),
    });
  });
});

describe('acp adapter with a recorded Copilot CLI transcript', () => {
  it('maps Copilot permission requests (id 0), tool output and a rejected call', async () => {
    const [agentSide, upstream] = createMemoryTransportPair();
    const agent = new ReplayAgent(readTranscript(new URL('copilot/permission.jsonl', FIXTURES)), agentSide, {
      jsonrpc: true,
    });
    const a = connect(upstream, mkdtempSync(join(tmpdir(), 'tether-acp-')));
    const info = await a.init();
    expect(info.serverInfo).toEqual({ name: 'Copilot', version: '1.0.102' });
    expect(agent.received[0]).toMatchObject({ jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: 1 } });
    let n = 0;
    a.client.onRequest('approval/request', () => ({ decision: n++ === 0 ? 'allow' : 'deny' }));
    const thread = await a.startThread();
    expect(thread.id).toBe('cb5390af-245c-47a9-af69-d6813ef3e42b');
    const t1 = await a.turn(thread.id, 'Run echo');
    await t1.done();
    expect(agent.answers.get(0)).toEqual({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    const t2 = await a.turn(thread.id, 'Run echo again');
    await t2.done();
    expect(agent.answers.get(1)).toEqual({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
    const tools = items(a.seen).filter((x) => x.type === 'toolCall');
    expect(tools.map((x) => [x.id, x.status])).toEqual([
      ['call_allow', 'completed'],
      ['call_deny', 'declined'],
    ]);
    expect(tools[0]!.content).toMatchObject({
      toolName: 'echo',
      result: 'approved-run\n<shellId: 0 completed with exit code 0>',
    });
    const messages = items(a.seen)
      .filter((x) => x.type === 'agentMessage')
      .map((x) => (x.content as { text: string }).text);
    expect(messages).toEqual(['The command finished.', 'Info: Operation cancelled by user']);
    expect(agent.received.every((m) => m.jsonrpc === '2.0')).toBe(true);
  });
});
