import { describe, expect, it } from 'vitest';
import { MemoryStorageArea } from '../test-helpers';
import { PersistentState } from '../views/persistent-state';
import { type CreatedTab, type NavigationTarget, type OpenedTabsApi, watchOpenedTabs } from './opened-tabs';
import { OPENED_AFTER_MS, TaskGroups } from './task-groups';

/** A browser event the test fires by hand, delivering to its listeners as chrome.* does. */
function fakeEvent<A>() {
  const listeners: Array<(details: A) => void> = [];
  return {
    addListener: (l: (details: A) => void) => listeners.push(l),
    fire: (details: A) => {
      for (const l of listeners) l(details);
    },
    listeners,
  };
}

/**
 * Tab 1 shows thread t1's conversation, tab 2 is another tab of the same window (window 10); a thread t2 has tab 3.
 * `webNavigation` says whether the browser offers webNavigation.
 */
async function setup(webNavigation: boolean, later?: (run: () => void, ms: number) => void) {
  const state = new PersistentState({ local: new MemoryStorageArea(), session: new MemoryStorageArea() });
  await state.load();
  await state.setBinding(1, { threadId: 't1' });
  await state.setBinding(3, { threadId: 't2' });
  const groups = new TaskGroups({ state, onChange: () => {}, log: () => {}, ...(later ? { later } : {}) });
  const navigationTarget = fakeEvent<NavigationTarget>();
  const tabCreated = fakeEvent<CreatedTab>();
  const windows = new Map([
    [1, 10],
    [2, 10],
    [3, 20],
  ]);
  const api: OpenedTabsApi = {
    ...(webNavigation ? { createdNavigationTarget: navigationTarget } : {}),
    tabCreated,
    windowOf: async (tabId) => windows.get(tabId),
  };
  const logged: string[] = [];
  watchOpenedTabs(api, groups, Promise.resolve(), (line) => logged.push(line));
  // Lets the listener's work (it waits for `ready`, then for the task groups' storage) finish.
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { groups, navigationTarget, tabCreated, logged, settle };
}

describe('tabs a page opens (webNavigation.onCreatedNavigationTarget)', () => {
  it("takes a tab into the task only when its source is the task's tab an action runs on", async () => {
    const { groups, navigationTarget, tabCreated, logged, settle } = await setup(true);
    expect(logged).toEqual([]);
    // With webNavigation, tabs.onCreated decides nothing: its opener is a guess.
    expect(tabCreated.listeners).toHaveLength(0);
    // The user opens a link from the task's page while no action runs: theirs.
    navigationTarget.fire({ tabId: 5, sourceTabId: 1 });
    await settle();
    expect(groups.threadOf(5)).toBeUndefined();

    const done = groups.actingOn('t1', 1);
    // During the action, a tab the user opens from another tab of the same window stays theirs.
    navigationTarget.fire({ tabId: 6, sourceTabId: 2 });
    // A tab opened from another task's tab, even one acted on, is not this task's.
    const otherDone = groups.actingOn('t2', 3);
    navigationTarget.fire({ tabId: 8, sourceTabId: 3 });
    // The page acted on opens one: the agent's click did.
    navigationTarget.fire({ tabId: 7, sourceTabId: 1 });
    await settle();
    expect(groups.threadOf(6)).toBeUndefined();
    expect(groups.threadOf(8)).toBe('t2');
    expect(groups.member('t1', 7)).toEqual({ tabId: 7, role: 'agent' });
    otherDone();
    done();

    // Once the action answered, a tab opened from the same page is the user's again.
    navigationTarget.fire({ tabId: 9, sourceTabId: 1 });
    await settle();
    expect(groups.threadOf(9)).toBeUndefined();
    expect(groups.members('t1').map((t) => t.tabId)).toEqual([1, 7]);
  });

  it('still takes a tab the browser reports just after the action answered, and none once the moment passed', async () => {
    const timers: Array<{ run: () => void; ms: number }> = [];
    const { groups, navigationTarget, settle } = await setup(true, (run, ms) => timers.push({ run, ms }));
    const done = groups.actingOn('t1', 1);
    done();
    expect(timers.map((t) => t.ms)).toEqual([OPENED_AFTER_MS]);
    // The click's tab arrives after the action settled: still the action's.
    navigationTarget.fire({ tabId: 7, sourceTabId: 1 });
    await settle();
    expect(groups.member('t1', 7)).toEqual({ tabId: 7, role: 'agent' });
    // A second action on the tab before the moment passed keeps the mark through it.
    const again = groups.actingOn('t1', 1);
    timers.shift()?.run();
    navigationTarget.fire({ tabId: 8, sourceTabId: 1 });
    await settle();
    expect(groups.member('t1', 8)).toEqual({ tabId: 8, role: 'agent' });
    again();
    timers.shift()?.run();
    // The moment passed: a tab the user opens from the page is theirs.
    navigationTarget.fire({ tabId: 9, sourceTabId: 1 });
    await settle();
    expect(groups.threadOf(9)).toBeUndefined();
    expect(timers).toEqual([]);
  });

  it("falls back to the opener's window without webNavigation, and says so once", async () => {
    const { groups, tabCreated, logged, settle } = await setup(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('webNavigation API is missing');
    const done = groups.actingOn('t1', 1);
    // A tab with no opener (the user's new tab) never joins.
    tabCreated.fire({ id: 5, windowId: 10 });
    // Chrome names the window's active tab as the opener: the window of the tab acted on decides.
    tabCreated.fire({ id: 6, openerTabId: 2, windowId: 10 });
    // Another window: not the action's.
    tabCreated.fire({ id: 7, openerTabId: 3, windowId: 20 });
    await settle();
    done();
    expect(groups.threadOf(5)).toBeUndefined();
    expect(groups.member('t1', 6)).toEqual({ tabId: 6, role: 'agent' });
    expect(groups.threadOf(7)).toBeUndefined();
    expect(logged).toHaveLength(1);
  });
});
