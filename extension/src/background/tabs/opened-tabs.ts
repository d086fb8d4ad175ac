/**
 * Which task a tab a page opens belongs to. A link with target=_blank or window.open on a task's tab, while the
 * agent acts on that tab, opens a tab the agent caused: it joins the task (TaskGroups.openedFrom), so the agent can
 * go on there. webNavigation.onCreatedNavigationTarget names the tab whose page opened it (`sourceTabId`, in Chrome
 * and Firefox alike), so a tab joins only when that very tab is being acted on: a tab the user opens from another
 * tab, or from the task's page while no action runs, stays theirs. Without the webNavigation permission the older
 * guess stands: Chrome names the window's active tab as a new tab's opener, not the page that opened it, so a tab
 * with an opener, in the window of a tab being acted on, while the action runs, counts as that action's.
 */
import type { TaskGroups } from './task-groups';

/** A browser event, as chrome.* offers them. */
interface BrowserEvent<A> {
  addListener(listener: (details: A) => void): void;
}

/** What webNavigation.onCreatedNavigationTarget says of a new tab (the fields used here). */
export interface NavigationTarget {
  /** The new tab. */
  readonly tabId: number;
  /** The tab whose page opened it. */
  readonly sourceTabId: number;
}

/** What tabs.onCreated says of a new tab (the fields used here). */
export interface CreatedTab {
  readonly id?: number;
  readonly openerTabId?: number;
  readonly windowId: number;
}

/** The browser's half: its events, and the window a tab is in. */
export interface OpenedTabsApi {
  /** webNavigation.onCreatedNavigationTarget; undefined without the webNavigation permission. */
  readonly createdNavigationTarget?: BrowserEvent<NavigationTarget>;
  readonly tabCreated: BrowserEvent<CreatedTab>;
  /** The window `tabId` is in, or undefined when the tab is gone. */
  windowOf(tabId: number): Promise<number | undefined>;
}

/**
 * Listens for tabs pages open and has them join the task acted on when its action opened them. Registers its
 * listeners synchronously (MV3 wakes the worker only for listeners added at the top level); what they do waits for
 * `ready` (the stored task groups loaded).
 */
export function watchOpenedTabs(
  api: OpenedTabsApi,
  groups: Pick<TaskGroups, 'openedFrom'>,
  ready: Promise<unknown>,
  log: (line: string) => void,
): void {
  if (api.createdNavigationTarget) {
    api.createdNavigationTarget.addListener(({ tabId, sourceTabId }) => {
      void ready.then(() => groups.openedFrom(tabId, (acting) => acting === sourceTabId));
    });
    return;
  }
  log(
    'the webNavigation API is missing, so a tab a page opens joins the task when it opens in the window of a tab the agent acts on (a tab the user opens there meanwhile joins too)',
  );
  api.tabCreated.addListener(({ id, openerTabId, windowId }) => {
    if (id === undefined || openerTabId === undefined) return;
    const cameFrom = async (acting: number): Promise<boolean> =>
      acting === openerTabId || (await api.windowOf(acting)) === windowId;
    void ready.then(() => groups.openedFrom(id, cameFrom));
  });
}

/** The browser half over chrome.webNavigation (when granted) and chrome.tabs. */
export function chromeOpenedTabsApi(): OpenedTabsApi {
  return {
    createdNavigationTarget: chrome.webNavigation?.onCreatedNavigationTarget,
    tabCreated: chrome.tabs.onCreated,
    windowOf: async (tabId) => (await chrome.tabs.get(tabId).catch(() => undefined))?.windowId,
  };
}
