/**
 * The task groups' browser half, bound to chrome.tabs and chrome.tabGroups (the same names in Firefox, which has
 * `tabs.group` from version 137 and may lack the title API): opening and closing the agent's tabs, and showing a
 * task's tabs as one tab group where the browser has them.
 */
import type { TabBrowser } from './tab-tools';
import type { BrowserTabGroups } from './task-groups';

/** Opening and closing tabs with chrome.tabs. */
export function chromeTabBrowser(): TabBrowser {
  return {
    openTab: async (url, besideTabId, active) => {
      const beside = await chrome.tabs.get(besideTabId);
      const tab = await chrome.tabs.create({
        url,
        active,
        windowId: beside.windowId,
        index: beside.index + 1,
        openerTabId: besideTabId,
      });
      if (tab.id === undefined) throw new Error('The browser opened the tab but did not say which one it is.');
      return tab.id;
    },
    closeTab: (tabId) => chrome.tabs.remove(tabId),
  };
}

/** The browser's tab groups, or undefined where it has none (older Firefox): the panel's list shows the task then. */
export function chromeTabGroups(): BrowserTabGroups | undefined {
  if (typeof chrome.tabs.group !== 'function' || typeof chrome.tabs.ungroup !== 'function') return undefined;
  const title = async (groupId: number, text: string): Promise<void> => {
    // Firefox offers tabs.group before it lets an extension name a group: the group is shown untitled there.
    await chrome.tabGroups?.update(groupId, { title: text, color: 'blue' }).catch(() => undefined);
  };
  return {
    group: async (tabIds, text, groupId) => {
      const [first, ...rest] = tabIds;
      if (first === undefined) throw new Error('A tab group needs a tab.');
      // Grouping moves tabs into the group's window: only the tabs beside the conversation's tab are grouped, so a
      // tab the user added from another window stays where they keep it.
      const { windowId } = await chrome.tabs.get(first);
      const same: number[] = [first];
      for (const id of rest) {
        const t = await chrome.tabs.get(id).catch(() => undefined);
        if (t?.windowId === windowId) same.push(id);
      }
      const ids = same as [number, ...number[]];
      let id: number;
      try {
        id = await chrome.tabs.group(groupId === undefined ? { tabIds: ids } : { tabIds: ids, groupId });
      } catch (error) {
        // The group is gone (the user closed or ungrouped it, or the browser restarted): a new one is made.
        if (groupId === undefined) throw error;
        id = await chrome.tabs.group({ tabIds: ids });
      }
      await title(id, text);
      return id;
    },
    ungroup: async (tabIds) => {
      const existing: number[] = [];
      for (const id of tabIds) if (await chrome.tabs.get(id).catch(() => undefined)) existing.push(id);
      if (existing.length > 0) await chrome.tabs.ungroup(existing as [number, ...number[]]);
    },
  };
}
