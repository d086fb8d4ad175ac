import { AppServerClient, createMemoryTransportPair, type ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { WorkerToView } from '../shared/messages';
import { fakeWorker, unusedPageTools } from './test-helpers';

/** A worker whose host is a raw in-memory peer, and whose one tab shows `url` (changeable by the test). */
async function setup() {
  const tab = { url: 'https://a.example/article' };
  const reads: number[] = [];
  const { worker, state } = await fakeWorker({
    tab: async () => ({ url: tab.url, title: 'A' }),
    pageTools: unusedPageTools({
      readPage: async (tabId) => {
        reads.push(tabId);
        return { url: tab.url, title: 'A', selection: '', text: 'page text', truncated: false };
      },
      listTabs: async () => [],
      capture: async () => 'data:image/png;base64,AAAA',
    }),
  });
  const [hostSide, workerSide] = createMemoryTransportPair();
  const answers: Array<{ id: unknown; result?: ToolCallResult }> = [];
  hostSide.start({ onMessage: (m) => answers.push(m as { id: unknown; result?: ToolCallResult }), onClose: () => {} });
  worker['attach'](new AppServerClient(workerSide));
  const askForTool = (tool: string) =>
    hostSide.send({
      id: 1,
      method: 'item/tool/call',
      params: { threadId: 't1', turnId: 'u1', callId: 'c1', tool, arguments: {} },
    });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { state, worker, tab, reads, answers, askForTool, settle };
}

describe('TetherWorker page tools', () => {
  it('runs an allowed page_read on the page the user approved', async () => {
    const { state, worker, reads, answers, askForTool, settle } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    askForTool('page_read');
    await settle();
    const [pending] = worker.broker.pendingForTab(1);
    expect(pending?.origin).toBe('https://a.example');
    await worker.broker.decide(pending!.key, 'allow', 1);
    await settle();
    expect(reads).toEqual([1]);
    expect(answers[0]?.result?.success).toBe(true);
  });

  it('does not read a page that navigated to another site while the user was deciding', async () => {
    const { state, worker, tab, reads, answers, askForTool, settle } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    askForTool('page_read');
    await settle();
    const [pending] = worker.broker.pendingForTab(1);
    tab.url = 'https://bank.example/accounts';
    await worker.broker.decide(pending!.key, 'allow', 1);
    await settle();
    expect(reads).toEqual([]);
    expect(answers[0]?.result).toMatchObject({
      success: false,
      content: [{ type: 'text', text: expect.stringMatching(/left https:\/\/a\.example/) }],
    });
  });
});

describe('TetherWorker notifications', () => {
  it("tells the thread's pages about a notification the backend sent malformed, and logs an unknown one once", async () => {
    const logs: string[] = [];
    const { worker, state } = await fakeWorker({ log: (line) => logs.push(line) });
    await state.setBinding(1, { threadId: 't1' });
    const sent: WorkerToView[] = [];
    worker.views.add({ id: 1, kind: 'sidepanel', tabId: 1, send: (m) => sent.push(m) });
    const delta = { threadId: 't1', turnId: 'u', itemId: 'i', delta: 'ok' };
    worker.router.routeBatch([
      { method: 'item/agentMessage/delta', params: delta },
      { method: 'item/completed', params: { threadId: 't1', turnId: 'u', item: { id: 'i', type: 'agentMessage' } } },
      { method: 'thread/tokenUsage/updated', params: { threadId: 't1' } },
      { method: 'thread/tokenUsage/updated', params: { threadId: 't1' } },
    ]);
    expect(sent).toEqual([
      { type: 'events', events: [{ method: 'item/agentMessage/delta', params: delta }] },
      {
        type: 'notice',
        notice: { kind: 'error', message: expect.stringMatching(/^Could not show item\/completed from the backend/) },
      },
    ]);
    expect(logs.filter((l) => l.includes('thread/tokenUsage/updated'))).toHaveLength(1);
  });
});

describe('TetherWorker connection loss', () => {
  it("tells a running turn's pages that the host stopped, once, and forgets the turn", async () => {
    const { worker, state } = await fakeWorker();
    await state.setBinding(1, { threadId: 't1' });
    const sent: WorkerToView[] = [];
    worker.views.add({ id: 1, kind: 'sidepanel', tabId: 1, send: (m) => sent.push(m) });
    const turn = { id: 'u1', threadId: 't1', status: 'running', input: [{ text: 'hi' }], startedAtMs: 1 };
    worker.router.routeBatch([{ method: 'turn/started', params: { turn } }]);
    expect(worker.activeTurn('t1')).toBe('u1');
    sent.length = 0;
    worker.link['deps'].onLost({ cause: 'host-stopped', reason: 'Native host has exited.' });
    worker.link['deps'].onLost({ cause: 'host-stopped', reason: 'Native host has exited.' });
    expect(sent).toEqual([
      {
        type: 'notice',
        notice: {
          kind: 'turn-interrupted',
          threadId: 't1',
          turnId: 'u1',
          cause: 'host-stopped',
          reason: 'Native host has exited.',
        },
      },
    ]);
    expect(worker.activeTurn('t1')).toBeUndefined();
  });
});
