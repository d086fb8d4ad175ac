/**
 * Each thread's task group: the tabs its conversation is bound to, the tabs its agent opened and the tabs the user
 * added. The page tools act only on these tabs, on the current one unless a call names another. The record lives in
 * the worker's persistent state (session storage), so it survives a service-worker restart; a closed tab leaves it.
 * Where the browser has tab groups, the task's tabs are shown as one, titled after the thread; the page's own title
 * is never touched (a marker there would reach the page and the model).
 */
import type { PersistentState, TaskGroupRecord } from '../views/persistent-state';

/** How a tab came into a task: the conversation's own tab, opened by the agent, or added by the user. */
export type TaskTabRole = 'conversation' | 'agent' | 'user';

/** One tab of a task. */
export interface TaskTab {
  readonly tabId: number;
  readonly role: TaskTabRole;
}

/** The browser's tab groups (Chrome, Firefox 137+); absent where the browser has none. */
export interface BrowserTabGroups {
  /** Shows `tabIds` as one group titled `title` (in `groupId` when it still exists); resolves with the group's id. */
  group(tabIds: readonly number[], title: string, groupId?: number): Promise<number>;
  /** Takes `tabIds` out of whatever group holds them; tabs that are gone are skipped. */
  ungroup(tabIds: readonly number[]): Promise<void>;
}

/** What the task groups need from the worker. */
export interface TaskGroupsDeps {
  readonly state: Pick<PersistentState, 'tabsForThread' | 'binding' | 'taskGroups' | 'setTaskGroup'>;
  readonly browserGroups?: BrowserTabGroups;
  /** A thread's task changed (its tabs or the tab the agent is on): its panels show it again. */
  onChange(threadId: string): void;
  log(line: string): void;
  /** Runs `run` after `ms` (the worker's timer); without it an action's mark on its tab ends with the action. */
  later?(run: () => void, ms: number): void;
}

/** Thrown when the user's change to a task cannot be made; the message says why and what to do. */
export class TaskGroupError extends Error {
  override readonly name = 'TaskGroupError';
}

const EMPTY: TaskGroupRecord = { tabs: [] };

/**
 * How long after an action a tab its page opens still counts as the action's: the browser reports a new tab a moment
 * after the click that opened it, and may do so after the action settled (a busy machine, Firefox's tab creation).
 * Short, so a tab the user opens from that page afterwards is not taken.
 */
export const OPENED_AFTER_MS = 1_000;

/** Longest tab group title: the browser shows a few words of it. */
const TITLE_MAX = 40;

/** The task groups of every thread, over the persistent state. */
export class TaskGroups {
  private readonly titles = new Map<string, string>();
  /** Browser group updates run one after another per thread, so two changes never create two groups. */
  private readonly syncing = new Map<string, Promise<void>>();
  /** Tabs an agent's action runs on (or just ran on), with the count of actions still running, by tab id. */
  private readonly acting = new Map<number, { threadId: string; running: number }>();

  constructor(private readonly deps: TaskGroupsDeps) {}

  /** The task's tabs: the conversation's tabs first, then the others in the order they joined. */
  members(threadId: string): TaskTab[] {
    const bound = this.deps.state.tabsForThread(threadId);
    const others = this.record(threadId).tabs.filter((t) => !bound.includes(t.tabId));
    return [
      ...bound.map((tabId): TaskTab => ({ tabId, role: 'conversation' })),
      ...others.map((t): TaskTab => ({ tabId: t.tabId, role: t.by })),
    ];
  }

  /** The member `tabId` of the thread's task, if it is one. */
  member(threadId: string, tabId: number): TaskTab | undefined {
    return this.members(threadId).find((t) => t.tabId === tabId);
  }

  /** The thread whose task holds `tabId` (its conversation tab, or a tab opened or added), if any. */
  threadOf(tabId: number): string | undefined {
    const bound = this.deps.state.binding(tabId)?.threadId;
    if (bound) return bound;
    for (const [threadId, g] of this.deps.state.taskGroups())
      if (g.tabs.some((t) => t.tabId === tabId)) return threadId;
    return undefined;
  }

  /** The tab the page tools act on when a call names none: the one selected last, else the conversation's tab. */
  current(threadId: string): number | undefined {
    const chosen = this.record(threadId).current;
    if (chosen !== undefined && this.member(threadId, chosen)) return chosen;
    return this.deps.state.tabsForThread(threadId)[0];
  }

  /**
   * The tab a call acts on: `requested` when it is one of the task's tabs, else the current one. A tab outside the
   * task is refused in words the model can act on; so is every call when no tab shows the conversation.
   */
  resolve(threadId: string, requested?: number): { tabId: number } | { error: string } {
    if (this.deps.state.tabsForThread(threadId)[0] === undefined)
      return { error: 'No browser tab shows this conversation any more, so no page can be used.' };
    if (requested === undefined) {
      const tabId = this.current(threadId);
      return tabId === undefined ? { error: 'This task has no tab to act on.' } : { tabId };
    }
    if (this.member(threadId, requested)) return { tabId: requested };
    return {
      error: `Tab ${requested} is not one of this task's tabs, so the agent may not read or act on it. Call tabs_list to see the task's tabs (inTask: true); open a page with tabs_open, or ask the user to add that tab to the task from the side panel.`,
    };
  }

  /** Why the agent may not close `tabId`, or undefined when it may: only tabs it opened itself. */
  closeRefusal(threadId: string, tabId: number): string | undefined {
    const tab = this.member(threadId, tabId);
    if (tab?.role === 'agent') return undefined;
    if (!tab) return this.refusalOf(threadId, tabId);
    return `Tab ${tabId} was ${tab.role === 'user' ? 'added by the user' : "the conversation's own tab"}, not opened by the agent, so the agent may not close it; only tabs opened with tabs_open can be closed.`;
  }

  /** The tab the agent just opened joins the task and becomes the one the page tools act on. */
  async opened(threadId: string, tabId: number): Promise<void> {
    const g = this.record(threadId);
    await this.save(threadId, { ...g, tabs: [...g.tabs, { tabId, by: 'agent' }], current: tabId });
  }

  /**
   * Marks `tabId` as acted on by the agent of `threadId` until the returned function is called (the action answered,
   * its settle included) and OPENED_AFTER_MS more, no longer, so a tab the user opens from the page afterwards is not
   * taken: a tab its page opens meanwhile (a link with target=_blank, window.open) was opened by the agent's action, so
   * it joins the task (`openedFrom`) instead of leaving the agent unable to reach it.
   */
  actingOn(threadId: string, tabId: number): () => void {
    const mark = this.acting.get(tabId);
    const entry = mark?.threadId === threadId ? mark : { threadId, running: 0 };
    entry.running++;
    this.acting.set(tabId, entry);
    return () => {
      entry.running--;
      const end = (): void => {
        if (entry.running === 0 && this.acting.get(tabId) === entry) this.acting.delete(tabId);
      };
      if (entry.running > 0) return;
      if (this.deps.later) this.deps.later(end, OPENED_AFTER_MS);
      else end();
    };
  }

  /**
   * The browser opened `tabId` from a page: when `cameFrom` says it came from a tab an agent's action runs on
   * (`actingOn`), it joins that task as opened by the agent, without becoming the current tab; resolves with the thread.
   */
  async openedFrom(
    tabId: number,
    cameFrom: (actingTabId: number) => boolean | Promise<boolean>,
  ): Promise<string | undefined> {
    if (this.threadOf(tabId) !== undefined) return undefined;
    for (const [actingTabId, mark] of [...this.acting]) {
      if (!this.member(mark.threadId, actingTabId) || !(await cameFrom(actingTabId))) continue;
      const g = this.record(mark.threadId);
      await this.save(mark.threadId, { ...g, tabs: [...g.tabs, { tabId, by: 'agent' }] });
      return mark.threadId;
    }
    return undefined;
  }

  /** Makes a tab of the task the one the page tools act on. */
  async select(threadId: string, tabId: number): Promise<void> {
    if (!this.member(threadId, tabId)) throw new TaskGroupError(this.refusalOf(threadId, tabId));
    await this.save(threadId, { ...this.record(threadId), current: tabId }, false);
  }

  /** The user adds `tabId` to the thread's task; a tab of another conversation's task is refused. */
  async add(threadId: string, tabId: number): Promise<void> {
    if (this.member(threadId, tabId)) return;
    const other = this.threadOf(tabId);
    if (other !== undefined)
      throw new TaskGroupError(
        'That tab already belongs to another conversation; take it out there first, or start the task in it.',
      );
    const g = this.record(threadId);
    await this.save(threadId, { ...g, tabs: [...g.tabs, { tabId, by: 'user' }] });
  }

  /** Takes `tabId` out of the task (the user's choice, or the agent closed it); the conversation's tab stays. */
  async remove(threadId: string, tabId: number): Promise<void> {
    const tab = this.member(threadId, tabId);
    if (tab?.role === 'conversation')
      throw new TaskGroupError("The conversation's own tab stays in its task; start a new conversation to leave it.");
    if (!tab) return;
    await this.drop(threadId, tabId);
    await this.ungroup([tabId]);
  }

  /** A tab closed: it leaves every task (as a conversation's tab it already lost its binding). */
  async tabClosed(tabId: number): Promise<void> {
    for (const [threadId, g] of [...this.deps.state.taskGroups()]) {
      if (g.tabs.some((t) => t.tabId === tabId) || g.current === tabId) await this.drop(threadId, tabId);
      else if (this.deps.state.tabsForThread(threadId).length === 0 && g.tabs.length === 0) {
        await this.deps.state.setTaskGroup(threadId, undefined);
      }
    }
  }

  /** Drops every tab that no longer exists (closed while no worker listened), after a restart. */
  async prune(existing: ReadonlySet<number>): Promise<void> {
    for (const [threadId, g] of [...this.deps.state.taskGroups()]) {
      for (const t of g.tabs) if (!existing.has(t.tabId)) await this.drop(threadId, t.tabId);
    }
  }

  /** The thread's title, for its browser tab group (the backend names a thread after its first message). */
  noteTitle(threadId: string, title: string): void {
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean || this.titles.get(threadId) === clean) return;
    this.titles.set(threadId, clean);
    if (this.record(threadId).browserGroup !== undefined) void this.sync(threadId);
  }

  private record(threadId: string): TaskGroupRecord {
    return this.deps.state.taskGroups().get(threadId) ?? EMPTY;
  }

  private refusalOf(threadId: string, tabId: number): string {
    const r = this.resolve(threadId, tabId);
    return 'error' in r ? r.error : `Tab ${tabId} cannot be used.`;
  }

  private async drop(threadId: string, tabId: number): Promise<void> {
    const g = this.record(threadId);
    const tabs = g.tabs.filter((t) => t.tabId !== tabId);
    const { current: _, ...rest } = g;
    await this.save(threadId, g.current === tabId ? { ...rest, tabs } : { ...g, tabs });
  }

  private async save(threadId: string, g: TaskGroupRecord, regroup = true): Promise<void> {
    await this.deps.state.setTaskGroup(threadId, g);
    this.deps.onChange(threadId);
    if (regroup) await this.sync(threadId);
  }

  /** Shows the task's tabs as one browser tab group once it has two or more; best effort, the panel lists them anyway. */
  private sync(threadId: string): Promise<void> {
    const api = this.deps.browserGroups;
    if (!api) return Promise.resolve();
    const run = async (): Promise<void> => {
      const g = this.record(threadId);
      const tabs = this.members(threadId).map((t) => t.tabId);
      try {
        if (tabs.length < 2) {
          if (g.browserGroup === undefined) return;
          await api.ungroup(tabs);
          const { browserGroup: _, ...rest } = g;
          await this.deps.state.setTaskGroup(threadId, rest);
          return;
        }
        const title = `Tether: ${this.titles.get(threadId) ?? 'task'}`;
        const id = await api.group(
          tabs,
          title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title,
          g.browserGroup,
        );
        if (id !== g.browserGroup)
          await this.deps.state.setTaskGroup(threadId, { ...this.record(threadId), browserGroup: id });
      } catch (error) {
        this.deps.log(`could not show the task's tabs as a tab group: ${String(error)}`);
      }
    };
    const next = (this.syncing.get(threadId) ?? Promise.resolve()).then(run);
    this.syncing.set(threadId, next);
    return next;
  }

  private async ungroup(tabIds: number[]): Promise<void> {
    await this.deps.browserGroups?.ungroup(tabIds).catch((error: unknown) => {
      this.deps.log(`could not take tabs out of the task's tab group: ${String(error)}`);
    });
  }
}
