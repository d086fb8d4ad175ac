/**
 * The `tabs_*` tools, run after the gate allowed them: they work on the thread's task group rather than inside one
 * page. Opening a tab is a navigation the gate decided for its destination; the new tab joins the task and becomes
 * the one the page tools act on. Failures are tool results the model can read and act on.
 */
import type { ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import type { PageToolDeps } from '../page-tools/page-tool-deps';
import type { PageToolCall, TabToolCall } from '../page-tools/page-tool-specs';
import type { PageTools } from '../page-tools/page-tools';
import type { TaskGroups, TaskTabRole } from './task-groups';

/** Opening and closing tabs (chrome-tabs.ts binds it to chrome.tabs). */
export interface TabBrowser {
  /** Opens `url` in a new tab next to `besideTabId`, in its window, in front or not; resolves with the new tab's id. */
  openTab(url: string, besideTabId: number, active: boolean): Promise<number>;
  /** Closes a tab. */
  closeTab(tabId: number): Promise<void>;
}

/** What the tab tools need. */
export interface TabToolsDeps {
  readonly groups: TaskGroups;
  readonly browser: TabBrowser;
  readonly pages: Pick<PageTools, 'loaded'>;
  readonly tabs: Pick<PageToolDeps, 'listTabs' | 'tabInfo'>;
}

/** A line of tabs_list: the window's tabs, and every tab of the task wherever it is. */
interface ListedTab {
  id: number;
  title: string;
  url: string;
  active: boolean;
  inTask: boolean;
  /** How the tab joined the task. */
  joined?: 'conversation' | 'opened by the agent' | 'added by the user';
  /** The tab the page tools act on when a call names none. */
  agentIsHere?: true;
}

const JOINED: Record<TaskTabRole, NonNullable<ListedTab['joined']>> = {
  conversation: 'conversation',
  agent: 'opened by the agent',
  user: 'added by the user',
};

function text(t: string, success = true): ToolCallResult {
  return { success, content: [{ type: 'text', text: t }] };
}

/** The tabs_* tools of every thread. */
export class TabTools {
  constructor(private readonly deps: TabToolsDeps) {}

  /** Runs an allowed call of thread `threadId` whose tab the gate resolved to `tabId`. */
  async run(threadId: string, tabId: number, call: TabToolCall): Promise<ToolCallResult> {
    try {
      switch (call.tool) {
        case 'tabs_list':
          return text(await this.list(threadId, tabId));
        case 'tabs_open':
          return await this.open(threadId, tabId, call.args.url, call.args.background ?? false);
        case 'tabs_select': {
          await this.deps.groups.select(threadId, tabId);
          const info = await this.deps.tabs.tabInfo(tabId);
          return text(
            `The page tools now act on tab ${tabId}${info ? `: ${info.url} "${info.title}"` : ''}. Call page_snapshot to see it.`,
          );
        }
        case 'tabs_close': {
          const refused = this.deps.groups.closeRefusal(threadId, tabId);
          if (refused) return text(refused, false);
          await this.deps.browser.closeTab(tabId);
          await this.deps.groups.remove(threadId, tabId);
          const now = this.deps.groups.current(threadId);
          return text(`Closed tab ${tabId}.${now === undefined ? '' : ` The page tools act on tab ${now} again.`}`);
        }
      }
    } catch (error) {
      return text(`${call.tool} failed: ${errorMessage(error)}`, false);
    }
  }

  private async open(threadId: string, fromTab: number, url: string, background: boolean): Promise<ToolCallResult> {
    const tabId = await this.deps.browser.openTab(url, fromTab, !background);
    await this.deps.groups.opened(threadId, tabId);
    const page = await this.deps.pages.loaded(tabId);
    const where = background ? ' in the background (the user still sees their tab)' : '';
    return text(
      `Opened tab ${tabId}${where}; the page tools act on it now (tabs_select or a tabId picks another tab of the task).\n${page}`,
    );
  }

  private async list(threadId: string, fromTab: number): Promise<string> {
    const members = this.deps.groups.members(threadId);
    const current = this.deps.groups.current(threadId);
    const listed = await this.deps.tabs.listTabs(fromTab);
    // A tab of the task in another window is listed too: the task is what the agent works on, wherever it is.
    for (const m of members) {
      if (listed.some((t) => t.id === m.tabId)) continue;
      const info = await this.deps.tabs.tabInfo(m.tabId);
      if (info) listed.push({ id: m.tabId, title: info.title, url: info.url, active: false });
    }
    const out = listed.map((t): ListedTab => {
      const m = members.find((x) => x.tabId === t.id);
      return {
        ...t,
        inTask: m !== undefined,
        ...(m ? { joined: JOINED[m.role] } : {}),
        ...(t.id === current ? { agentIsHere: true } : {}),
      };
    });
    const note =
      'Only tabs with inTask: true can be read or acted on (pass their id as tabId, or tabs_select one); the user can add a tab to the task from the side panel.';
    return `${JSON.stringify(out, null, 1)}\n${note}`;
  }
}

/** The tab a call asks for: the one tabs_select and tabs_close name, else the call's `tabId` (absent: the current). */
export function requestedTab(call: PageToolCall, tabId: number | undefined): number | undefined {
  return call.tool === 'tabs_select' || call.tool === 'tabs_close' ? call.args.tabId : tabId;
}
