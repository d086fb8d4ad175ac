/**
 * What the side panel shows of a task: its tabs with their pages and the one the agent is on, and the window's other
 * web pages the user may add. Tab titles are the browser's; nothing here is written into a page.
 */
import type { TaskTabView } from '../../shared/messages';
import { ruleOrigin } from '../approvals/site-rules';
import type { TabSummary } from '../page-tools/page-tool-deps';
import type { TaskGroups } from './task-groups';

/** A tab's page as the worker reads it (chrome.tabs.get), undefined once the tab is gone. */
export type TabLookup = (tabId: number) => Promise<{ url?: string; title?: string } | undefined>;

/** The task's tabs that still exist, conversation's tab first. */
export async function taskTabsOf(groups: TaskGroups, threadId: string, tab: TabLookup): Promise<TaskTabView[]> {
  const current = groups.current(threadId);
  const out: TaskTabView[] = [];
  for (const m of groups.members(threadId)) {
    const t = await tab(m.tabId);
    if (!t) continue;
    out.push({
      tabId: m.tabId,
      title: t.title ?? '',
      url: t.url ?? '',
      role: m.role,
      agentIsHere: m.tabId === current,
    });
  }
  return out;
}

/** The web pages among `windowTabs` that no task holds: the tabs the user can add to one. */
export function addableTabs(groups: TaskGroups, windowTabs: readonly TabSummary[]) {
  return windowTabs
    .filter((t) => ruleOrigin(t.url) !== undefined && groups.threadOf(t.id) === undefined)
    .map((t) => ({ tabId: t.id, title: t.title, url: t.url }));
}
