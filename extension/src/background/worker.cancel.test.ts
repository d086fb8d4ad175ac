import { AppServerClient, createMemoryTransportPair, type ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { WorkerToView } from '../shared/messages';
import { fakeWorker, unusedPageTools } from './test-helpers';

const inspector = { kind: 'mcpClient', name: 'mcp-inspector', version: '1.0.3', connection: 'conn-a' } as const;

/**
 * A worker whose tab 1 shows thread t1 on https://a.example, a raw host peer, and a side panel that records what it
 * is sent; page reads wait until the test lets them finish.
 */
async function setup() {
  const reads: Array<() => void> = [];
  const { worker, state } = await fakeWorker({
    tab: async () => ({ url: 'https://a.example/article', title: 'A' }),
    pageTools: unusedPageTools({
      readPage: (_tabId) =>
        new Promise((resolve) =>
          reads.push(() =>
            resolve({ url: 'https://a.example/article', title: 'A', selection: '', text: 'text', truncated: false }),
          ),
        ),
    }),
  });
  await state.setBinding(1, { threadId: 't1' });
  const panel: WorkerToView[] = [];
  worker.views.add({ id: 1, kind: 'sidepanel', tabId: 1, send: (m) => panel.push(m) });
  const [hostSide, workerSide] = createMemoryTransportPair();
  const answers: Array<{ id: unknown; result?: ToolCallResult }> = [];
  hostSide.start({ onMessage: (m) => answers.push(m as { id: unknown; result?: ToolCallResult }), onClose: () => {} });
  worker['attach'](new AppServerClient(workerSide));
  const callRead = () =>
    hostSide.send({
      id: 1,
      method: 'item/tool/call',
      params: { threadId: 't1', turnId: '', callId: 'c1', tool: 'page_read', arguments: {}, caller: inspector },
    });
  const cancel = (reason: 'cancelled' | 'disconnected') =>
    worker.router.routeBatch([
      { method: 'item/tool/call/cancelled', params: { threadId: 't1', turnId: '', callId: 'c1', reason } },
    ]);
  const settle = () => new Promise((r) => setTimeout(r, 10));
  const notes = () =>
    panel.flatMap((m) =>
      m.type === 'notice' && 'summary' in m.notice ? [`${m.notice.kind}: ${m.notice.summary}`] : [],
    );
  return { worker, reads, answers, callRead, cancel, settle, notes };
}

describe('TetherWorker and callers that stop waiting', () => {
  it('withdraws the card on item/tool/call/cancelled, refuses a late allow, reads nothing and answers nothing', async () => {
    const { worker, reads, answers, callRead, cancel, settle, notes } = await setup();
    callRead();
    await settle();
    const [card] = worker.broker.pendingForTab(1);
    expect(card?.caller).toMatchObject({ name: 'mcp-inspector', connection: 'conn-a' });
    cancel('cancelled');
    await settle();
    expect(worker.broker.pendingForTab(1)).toEqual([]);
    await expect(worker.broker.decide(card!.key, 'allow', 1)).rejects.toThrow('no longer pending');
    await settle();
    expect(reads).toEqual([]);
    expect(answers).toEqual([]);
    expect(notes()).toEqual([
      'call-withdrawn: mcp-inspector (its own name for itself) stopped waiting for page_read (it cancelled the call): its approval was withdrawn and nothing was done.',
    ]);
  });

  it('does not report a result as delivered when the caller went away while the action ran', async () => {
    const { worker, reads, answers, callRead, cancel, settle, notes } = await setup();
    callRead();
    await settle();
    await worker.broker.decide(worker.broker.pendingForTab(1)[0]!.key, 'allow', 1);
    await settle();
    expect(reads).toHaveLength(1);
    cancel('disconnected');
    reads[0]!();
    await settle();
    expect(answers).toEqual([]);
    expect(notes()).toEqual([
      'call-withdrawn: mcp-inspector (its own name for itself) stopped waiting (it disconnected) while page_read ran on https://a.example: the action happened, but its result was not delivered.',
    ]);
  });

  it('still answers and logs a call whose caller kept waiting', async () => {
    const { worker, reads, answers, callRead, settle, notes } = await setup();
    callRead();
    await settle();
    await worker.broker.decide(worker.broker.pendingForTab(1)[0]!.key, 'allow', 1);
    await settle();
    reads[0]!();
    await settle();
    expect(answers[0]?.result?.success).toBe(true);
    expect(notes()).toEqual(['tool-ran: mcp-inspector (its own name for itself) ran page_read on https://a.example.']);
  });
});
