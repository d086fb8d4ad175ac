import { AppServerClient, createMemoryTransportPair } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { WorkerToView } from '../../shared/messages';
import { fakeWorker } from '../test-helpers';
import { runViewOp } from '../views/view-ops';
import type { View } from '../views/views';

/**
 * A worker whose tab 1 shows thread t1, a raw host peer, a side panel of tab 1 and one of tab 2 that record what they
 * are sent, and the badge and focus calls the worker makes.
 */
async function setup() {
  const badges: Array<[number, number]> = [];
  const focused: number[] = [];
  const { worker, state } = await fakeWorker({
    setBadge: (tabId, count) => badges.push([tabId, count]),
    focusTab: async (tabId) => {
      focused.push(tabId);
    },
  });
  await state.setBinding(1, { threadId: 't1' });
  const sent: WorkerToView[] = [];
  const panel: View = { id: 1, kind: 'sidepanel', tabId: 1, send: (m) => sent.push(m) };
  const otherPanel: View = { id: 2, kind: 'sidepanel', tabId: 2, send: () => {} };
  worker.views.add(panel);
  worker.views.add(otherPanel);
  const [hostSide, workerSide] = createMemoryTransportPair();
  const answers: unknown[] = [];
  hostSide.start({ onMessage: (m) => answers.push(m), onClose: () => {} });
  worker['attach'](new AppServerClient(workerSide));
  const ask = (args: unknown, turnId = 'u1') =>
    hostSide.send({
      id: 1,
      method: 'item/tool/call',
      params: { threadId: 't1', turnId, callId: 'c1', tool: 'page_ask_user', arguments: args },
    });
  const settle = () => new Promise((r) => setTimeout(r, 10));
  const shown = () => sent.flatMap((m) => (m.type === 'handovers' ? [m.handovers.map((h) => h.message)] : []));
  return { worker, panel, otherPanel, answers, ask, settle, shown, badges, focused, sent };
}

describe('page_ask_user through the worker', () => {
  it('shows the request in the tab, counts it on the badge, brings the tab forward, and answers once the user replies', async () => {
    const { worker, panel, answers, ask, settle, shown, badges, focused } = await setup();
    ask({ message: 'Please sign in.', answer: 'your user name' });
    await settle();
    expect(shown()).toEqual([['Please sign in.']]);
    expect(badges.at(-1)).toEqual([1, 1]);
    expect(focused).toEqual([1]);
    expect(worker.broker.pendingForTab(1)).toEqual([]);
    expect(answers).toEqual([]);

    const [request] = worker.handovers.pendingForTab(1);
    await runViewOp(worker, panel, 'handover/answer', { key: request!.key, outcome: 'done', answer: 'ada' });
    await settle();
    expect(answers).toEqual([
      {
        id: 1,
        result: {
          success: true,
          content: [
            { type: 'text', text: 'The user clicked "Done": they say they did what you asked. Their answer: "ada"' },
          ],
        },
      },
    ]);
    expect(shown().at(-1)).toEqual([]);
    expect(badges.at(-1)).toEqual([1, 0]);
  });

  it('refuses a reply from the panel of another tab or with a malformed outcome', async () => {
    const { worker, otherPanel, panel, answers, ask, settle } = await setup();
    ask({ message: 'Pick a seat.' });
    await settle();
    const key = worker.handovers.pendingForTab(1)[0]!.key;
    await expect(runViewOp(worker, otherPanel, 'handover/answer', { key, outcome: 'done' })).rejects.toThrow(
      'only be answered from the tab it was asked in',
    );
    await expect(runViewOp(worker, panel, 'handover/answer', { key, outcome: 'allow' })).rejects.toThrow(
      'Invalid parameters for handover/answer',
    );
    await settle();
    expect(answers).toEqual([]);
    expect(worker.handovers.pendingForTab(1)).toHaveLength(1);
  });

  it('withdraws the request and answers nothing when the turn ends (Stop)', async () => {
    const { worker, answers, ask, settle, shown, sent } = await setup();
    ask({ message: 'Enter the code.' });
    await settle();
    worker.router.routeBatch([
      {
        method: 'turn/completed',
        params: {
          turn: { id: 'u1', threadId: 't1', status: 'interrupted', input: [] },
        },
      },
    ]);
    await settle();
    expect(worker.handovers.pendingForTab(1)).toEqual([]);
    expect(shown().at(-1)).toEqual([]);
    expect(answers).toEqual([]);
    const notes = sent.flatMap((m) => (m.type === 'notice' && 'summary' in m.notice ? [m.notice.summary] : []));
    expect(notes).toEqual(['The agent stopped waiting for your answer (its turn ended): its request was withdrawn.']);
  });

  it('tells the model what was wrong with its arguments without asking anyone', async () => {
    const { worker, answers, ask, settle } = await setup();
    ask({ message: '   ' });
    await settle();
    expect(worker.handovers.pendingForTab(1)).toEqual([]);
    expect(JSON.stringify(answers)).toContain('page_ask_user got arguments it cannot use (message:');
    // It asks in the conversation's panel, so it takes no tab of the task to act on.
    ask({ message: 'Sign in.', tabId: 3 });
    await settle();
    expect(worker.handovers.pendingForTab(1)).toEqual([]);
    expect(JSON.stringify(answers)).toContain('Unrecognized key');
  });
});
