import { describe, expect, it } from 'vitest';
import { MemoryStorageArea } from '../test-helpers';
import { PersistentState } from '../views/persistent-state';
import { type BrowserTabGroups, TaskGroupError, TaskGroups } from './task-groups';

/** A browser whose tab groups are a map from tab to group id, as the real API keeps them. */
function fakeBrowserGroups() {
  const groupOf = new Map<number, number>();
  const titles = new Map<number, string>();
  let next = 100;
  const api: BrowserTabGroups = {
    group: async (tabIds, title, groupId) => {
      const id = groupId !== undefined && [...groupOf.values()].includes(groupId) ? groupId : next++;
      for (const t of tabIds) groupOf.set(t, id);
      titles.set(id, title);
      return id;
    },
    ungroup: async (tabIds) => {
      for (const t of tabIds) groupOf.delete(t);
    },
  };
  return { api, groupOf, titles };
}

async function setup() {
  const session = new MemoryStorageArea();
  const local = new MemoryStorageArea();
  const state = new PersistentState({ local, session });
  await state.load();
  await state.setBinding(1, { threadId: 't1' });
  const browser = fakeBrowserGroups();
  const changes: string[] = [];
  const groups = new TaskGroups({
    state,
    browserGroups: browser.api,
    onChange: (threadId) => changes.push(threadId),
    log: () => {},
  });
  return { state, groups, browser, changes, session, local };
}

describe('task groups', () => {
  it('holds the conversation tab and the tabs the agent opens, and the opened tab becomes the one acted on', async () => {
    const { groups, changes } = await setup();
    expect(groups.members('t1')).toEqual([{ tabId: 1, role: 'conversation' }]);
    expect(groups.resolve('t1')).toEqual({ tabId: 1 });
    await groups.opened('t1', 7);
    expect(groups.members('t1')).toEqual([
      { tabId: 1, role: 'conversation' },
      { tabId: 7, role: 'agent' },
    ]);
    expect(groups.resolve('t1')).toEqual({ tabId: 7 });
    expect(groups.resolve('t1', 1)).toEqual({ tabId: 1 });
    await groups.select('t1', 1);
    expect(groups.current('t1')).toBe(1);
    expect(changes).toContain('t1');
  });

  it('refuses a tab outside the task with an error that says how to get one in', async () => {
    const { groups } = await setup();
    const r = groups.resolve('t1', 9);
    expect(r).toEqual({ error: expect.stringContaining("Tab 9 is not one of this task's tabs") });
    expect('error' in r && r.error).toContain('tabs_list');
    await expect(groups.select('t1', 9)).rejects.toThrow(TaskGroupError);
    expect(groups.resolve('t2')).toEqual({ error: expect.stringContaining('No browser tab shows this conversation') });
  });

  it('lets the agent close only the tabs it opened', async () => {
    const { groups } = await setup();
    await groups.opened('t1', 7);
    await groups.add('t1', 8);
    expect(groups.closeRefusal('t1', 7)).toBeUndefined();
    expect(groups.closeRefusal('t1', 8)).toContain('added by the user');
    expect(groups.closeRefusal('t1', 1)).toContain("the conversation's own tab");
    expect(groups.closeRefusal('t1', 9)).toContain('not one of this task');
  });

  it('keeps a tab in one task only, and never takes the conversation tab out of its own', async () => {
    const { state, groups } = await setup();
    await state.setBinding(2, { threadId: 't2' });
    await groups.add('t1', 5);
    await expect(groups.add('t2', 5)).rejects.toThrow('another conversation');
    await expect(groups.add('t1', 2)).rejects.toThrow('another conversation');
    await expect(groups.remove('t1', 1)).rejects.toThrow("conversation's own tab");
    await groups.remove('t1', 5);
    expect(groups.members('t1').map((t) => t.tabId)).toEqual([1]);
    expect(groups.threadOf(5)).toBeUndefined();
    expect(groups.threadOf(2)).toBe('t2');
  });

  it('forgets a closed tab, and the page tools go back to the conversation tab', async () => {
    const { groups } = await setup();
    await groups.opened('t1', 7);
    await groups.tabClosed(7);
    expect(groups.members('t1').map((t) => t.tabId)).toEqual([1]);
    expect(groups.resolve('t1')).toEqual({ tabId: 1 });
    expect(groups.resolve('t1', 7)).toHaveProperty('error');
  });

  it('survives a worker restart, and drops the tabs that closed meanwhile', async () => {
    const { groups, session, local } = await setup();
    await groups.opened('t1', 7);
    await groups.add('t1', 8);
    await groups.select('t1', 8);
    const reloaded = new PersistentState({ local, session });
    await reloaded.load();
    const again = new TaskGroups({ state: reloaded, onChange: () => {}, log: () => {} });
    expect(again.members('t1').map((t) => [t.tabId, t.role])).toEqual([
      [1, 'conversation'],
      [7, 'agent'],
      [8, 'user'],
    ]);
    expect(again.current('t1')).toBe(8);
    await again.prune(new Set([1, 7]));
    expect(again.members('t1').map((t) => t.tabId)).toEqual([1, 7]);
    expect(again.current('t1')).toBe(1);
  });

  it('shows a task of two or more tabs as one browser tab group titled after the thread, and lets go of it at one', async () => {
    const { groups, browser, state } = await setup();
    groups.noteTitle('t1', 'Compare three laptops');
    await groups.opened('t1', 7);
    const id = browser.groupOf.get(1);
    expect(id).toBeDefined();
    expect(browser.groupOf.get(7)).toBe(id);
    expect(browser.titles.get(id!)).toBe('Tether: Compare three laptops');
    expect(state.taskGroups().get('t1')?.browserGroup).toBe(id);
    await groups.add('t1', 8);
    expect(browser.groupOf.get(8)).toBe(id);
    await groups.remove('t1', 8);
    expect(browser.groupOf.has(8)).toBe(false);
    await groups.remove('t1', 7);
    expect(browser.groupOf.size).toBe(0);
    expect(state.taskGroups().get('t1')?.browserGroup).toBeUndefined();
  });

  it('keeps working without browser tab groups (older Firefox): the panel list is the task', async () => {
    const { state } = await setup();
    const groups = new TaskGroups({ state, onChange: () => {}, log: () => {} });
    await groups.opened('t1', 7);
    expect(groups.members('t1').map((t) => t.tabId)).toEqual([1, 7]);
    expect(state.taskGroups().get('t1')?.browserGroup).toBeUndefined();
  });

  it('takes in a tab the page opens while the agent acts on it, and no tab the user opens from it at other times', async () => {
    const { groups } = await setup();
    // The user opens a link from the conversation's tab: not the agent's doing.
    expect(await groups.openedFrom(5, (t) => t === 1)).toBeUndefined();
    const done = groups.actingOn('t1', 1);
    // Not from the tab acted on (another window, a tab of no task): not the agent's.
    expect(await groups.openedFrom(9, () => false)).toBeUndefined();
    expect(await groups.openedFrom(6, (t) => t === 1)).toBe('t1');
    // Once the action answered, a tab opened from the page is the user's again.
    done();
    expect(await groups.openedFrom(8, (t) => t === 1)).toBeUndefined();
    // It joins as opened by the agent (so tabs_close may close it), and the agent stays on its tab.
    expect(groups.members('t1')).toEqual([
      { tabId: 1, role: 'conversation' },
      { tabId: 6, role: 'agent' },
    ]);
    expect(groups.current('t1')).toBe(1);
    expect(groups.closeRefusal('t1', 6)).toBeUndefined();
  });
});
