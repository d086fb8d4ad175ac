import { AppServerClient, createMemoryTransportPair, type ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { fakeWorker } from './test-helpers';

/** A worker whose host is a raw in-memory peer, and whose one tab shows `url` (changeable by the test). */
async function setup() {
  const tab = { url: 'https://a.example/article' };
  const reads: number[] = [];
  const { worker, state } = await fakeWorker({
    tab: async () => ({ url: tab.url, title: 'A' }),
    pageTools: {
      readPage: async (tabId) => {
        reads.push(tabId);
        return { url: tab.url, title: 'A', selection: '', text: 'page text', truncated: false };
      },
      listTabs: async () => [],
      capture: async () => 'data:image/png;base64,AAAA',
    },
  });
  const [hostSide, workerSide] = createMemoryTransportPair();
  const answers: Array<{ id: unknown; result?: ToolCallResult }> = [];
  hostSide.start({ onMessage: (m) => answers.push(m as { id: unknown; result?: ToolCallResult }), onClose: () => {} });
  worker['attach'](new AppServerClient(workerSide));
  const askForTool = (tool: string) =>
    hostSide.send({ id: 1, method: 'item/tool/call', params: { threadId: 't1', turnId: 'u1', callId: 'c1', tool, arguments: {} } });
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
    expect(answers[0]?.result).toMatchObject({ success: false, content: [{ type: 'text', text: expect.stringMatching(/left https:\/\/a\.example/) }] });
  });
});
