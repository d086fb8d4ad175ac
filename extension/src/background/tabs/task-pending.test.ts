import { describe, expect, it, vi } from 'vitest';
import type { WorkerToView } from '../../shared/messages';
import { fakeWorker, toolCallHost, unusedPageTools } from '../test-helpers';
import { runViewOp } from '../views/view-ops';
import type { View } from '../views/views';

/**
 * A worker whose thread t1 is bound to tab 1; tab 10 is a tab the agent opened for the task (and is on), tab 2 is in
 * no task. Each tab has a side panel that records what it is sent; focus and badge calls are recorded too.
 */
async function setup() {
  const badges = new Map<number, number>();
  const focused: number[] = [];
  const pages = new Map<number, { url: string; title: string }>([
    [1, { url: 'https://a.example/', title: 'A' }],
    [2, { url: 'https://b.example/', title: 'B' }],
    [10, { url: 'https://c.example/login', title: 'Sign in' }],
  ]);
  const { worker, state } = await fakeWorker({
    tab: async (id) => pages.get(id),
    setBadge: (tabId, count) => badges.set(tabId, count),
    focusTab: async (tabId) => {
      focused.push(tabId);
    },
    pageTools: unusedPageTools({
      readPage: async (id) => ({ ...pages.get(id)!, selection: '', text: 'page text', truncated: false }),
      tabInfo: async (id) => pages.get(id),
    }),
  });
  await state.setBinding(1, { threadId: 't1' });
  await worker.groups.opened('t1', 10);
  const sent = new Map<number, WorkerToView[]>();
  const panel = (tabId: number): View => {
    const view: View = { id: tabId, kind: 'sidepanel', tabId, send: (m) => sent.get(tabId)?.push(m) };
    sent.set(tabId, []);
    worker.views.add(view);
    return view;
  };
  const panels = { home: panel(1), opened: panel(10), outside: panel(2) };
  /** The last list of approvals, or of hand-overs, a tab's panel was sent. */
  const last = (tabId: number) => {
    const of = <T extends WorkerToView['type']>(type: T) =>
      sent
        .get(tabId)
        ?.filter((m): m is Extract<WorkerToView, { type: T }> => m.type === type)
        .at(-1);
    return { approvals: of('approvals')?.approvals, handovers: of('handovers')?.handovers };
  };
  return { worker, host: toolCallHost(worker), panels, last, badges, focused };
}

describe("a task's requests reach the tab the user is on", () => {
  it('shows an approval for the opened tab in its own panel and badge, and takes the answer there', async () => {
    const { worker, host, panels, last, badges } = await setup();
    const id = host.send('page_read');
    const card = await vi.waitFor(() => {
      const [p] = last(10).approvals ?? [];
      if (!p || !('toolName' in p)) throw new Error('no card in the opened tab yet');
      return p;
    });
    expect(card.toolName).toBe('page_read');
    expect(last(1).approvals).toHaveLength(1);
    expect(last(2).approvals).toBeUndefined();
    expect(badges.get(10)).toBe(1);
    expect(badges.get(2)).toBeUndefined();

    // A page of a tab outside the task cannot answer it; the opened tab's panel can.
    await expect(
      runViewOp(worker, panels.outside, 'approval/decide', { key: card.key, choice: 'allow' }),
    ).rejects.toThrow();
    await runViewOp(worker, panels.opened, 'approval/decide', { key: card.key, choice: 'allow' });
    expect((await host.answer(id, 'page_read')).success).toBe(true);
    expect(last(10).approvals).toEqual([]);
    expect(badges.get(10)).toBe(0);
  });

  it('brings the tab the agent is on to the front for a hand-over, and takes the reply from its panel', async () => {
    const { worker, host, panels, last, focused } = await setup();
    const id = host.send('page_ask_user', { message: 'Please sign in on this page.' });
    const [request] = await vi.waitFor(() => {
      const list = last(10).handovers;
      if (!list?.length) throw new Error('no request in the opened tab yet');
      return list;
    });
    expect(focused).toEqual([10]);
    expect(last(1).handovers?.map((h) => h.message)).toEqual(['Please sign in on this page.']);
    await runViewOp(worker, panels.opened, 'handover/answer', { key: request!.key, outcome: 'done' });
    const result = await host.answer(id, 'page_ask_user');
    expect(result.content).toEqual([
      { type: 'text', text: 'The user clicked "Done": they say they did what you asked.' },
    ]);
  });

  it('clears the requests from the pages of a tab the user takes out of the task', async () => {
    const { worker, host, panels, last, badges } = await setup();
    host.send('page_ask_user', { message: 'Pick a seat.' });
    await vi.waitFor(() => {
      if (!last(10).handovers?.length) throw new Error('no request in the opened tab yet');
    });
    await runViewOp(worker, panels.home, 'task/remove', { tabId: 10 });
    expect(last(10).handovers).toEqual([]);
    expect(badges.get(10)).toBe(0);
    const key = worker.handovers.pendingForTab(1)[0]!.key;
    await expect(runViewOp(worker, panels.opened, 'handover/answer', { key, outcome: 'done' })).rejects.toThrow(
      'only be answered from the tab it was asked in',
    );
  });
});
