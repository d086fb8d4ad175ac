/**
 * Where a task's pending approvals and hand-over requests are shown and answered: in the pages (side panel, popup) of
 * every tab of the task, not only the conversation's own tab. The agent often works in a tab it opened in front of
 * the user; its questions must reach the user there, or they would have to switch tabs by hand to answer.
 *
 * Requests stay keyed by the conversation's tab (the broker's and the desk's `tabId`); a page of another tab of the
 * task stands for that tab when it reads or answers them.
 */
import type { WorkerToView } from '../../shared/messages';
import type { PersistentState } from '../views/persistent-state';
import type { TaskGroups } from './task-groups';

/** What the routing needs from the worker. */
export interface TaskPendingDeps {
  readonly state: Pick<PersistentState, 'tabsForThread'>;
  readonly groups: Pick<TaskGroups, 'threadOf' | 'members'>;
  /** The requests keyed by a conversation's tab, as the pages show them. */
  approvals(homeTab: number): Extract<WorkerToView, { type: 'approvals' }>['approvals'];
  handovers(homeTab: number): Extract<WorkerToView, { type: 'handovers' }>['handovers'];
  setBadge(tabId: number, count: number): void;
  sendToTab(tabId: number, message: WorkerToView): void;
}

/** The tab whose requests a page of `tabId` shows: the conversation's tab of the task holding it, else itself. */
export function homeTabOf(deps: Pick<TaskPendingDeps, 'state' | 'groups'>, tabId: number): number {
  const threadId = deps.groups.threadOf(tabId);
  return (threadId === undefined ? undefined : deps.state.tabsForThread(threadId)[0]) ?? tabId;
}

/** Every tab that shows the requests of `homeTab`: itself and the other tabs of its task. */
export function tabsShowing(deps: Pick<TaskPendingDeps, 'groups'>, homeTab: number): number[] {
  const threadId = deps.groups.threadOf(homeTab);
  const members = threadId === undefined ? [] : deps.groups.members(threadId).map((t) => t.tabId);
  return [homeTab, ...members.filter((id) => id !== homeTab)];
}

/**
 * Pushes the approvals and/or hand-overs of `homeTab` to the pages of every tab of its task, and sets each tab's
 * badge to the count of both (what the badge counts is answerable from that tab's popup).
 */
export function pushPending(deps: TaskPendingDeps, homeTab: number, what: 'approvals' | 'handovers' | 'both'): void {
  const approvals = deps.approvals(homeTab);
  const handovers = deps.handovers(homeTab);
  for (const tabId of tabsShowing(deps, homeTab)) {
    deps.setBadge(tabId, approvals.length + handovers.length);
    if (what !== 'handovers') deps.sendToTab(tabId, { type: 'approvals', approvals });
    if (what !== 'approvals') deps.sendToTab(tabId, { type: 'handovers', handovers });
  }
}
