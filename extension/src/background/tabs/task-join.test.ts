import { describe, expect, it } from 'vitest';
import { fakeWorker, unusedPageTools } from '../test-helpers';
import { runViewOp } from '../views/view-ops';
import type { View } from '../views/views';

/**
 * A window of three web pages: tab 1 shows conversation t1 ("Brief"), tabs 3 and 4 show none; tab 9 shows conversation
 * t9 in another window. Each tab has a popup.
 */
async function setup() {
  const window = [
    { id: 1, url: 'https://a.example/brief', title: 'Brief', active: true },
    { id: 3, url: 'https://c.example/form', title: 'Form', active: false },
    { id: 4, url: 'https://d.example/', title: 'D', active: false },
  ];
  const { worker, state } = await fakeWorker({
    tab: async (id) => window.find((t) => t.id === id),
    pageTools: unusedPageTools({ listTabs: async () => window }),
  });
  await state.setBinding(1, { threadId: 't1' });
  await state.setBinding(9, { threadId: 't9' });
  const popup = (tabId: number): View => {
    const v: View = { id: tabId, kind: 'popup', tabId, send: () => {} };
    worker.views.add(v);
    return v;
  };
  return { worker, popup };
}

describe('"Add this tab to the task" from the tab itself', () => {
  it("offers the window's conversations, adds the tab to the one chosen, and takes it out again", async () => {
    const { worker, popup } = await setup();
    const form = popup(3);
    expect(await runViewOp(worker, form, 'task/here', {})).toEqual({
      joinable: [{ threadId: 't1', title: 'Brief' }],
    });
    await runViewOp(worker, form, 'task/join', { threadId: 't1' });
    expect(worker.groups.members('t1')).toEqual([
      { tabId: 1, role: 'conversation' },
      { tabId: 3, role: 'user' },
    ]);
    expect(await runViewOp(worker, form, 'task/here', {})).toEqual({ member: { title: 'Brief' }, joinable: [] });
    await runViewOp(worker, form, 'task/leave', {});
    expect(worker.groups.members('t1').map((t) => t.tabId)).toEqual([1]);
  });

  it("refuses a conversation of another window, and offers nothing in a conversation's own tab", async () => {
    const { worker, popup } = await setup();
    await expect(runViewOp(worker, popup(4), 'task/join', { threadId: 't9' })).rejects.toThrow('no tab in this window');
    expect(worker.groups.members('t9').map((t) => t.tabId)).toEqual([9]);
    expect(await runViewOp(worker, popup(1), 'task/here', {})).toEqual({ joinable: [] });
  });
});
