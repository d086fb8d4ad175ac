/**
 * The table from page operation to handler. Params are parsed with the operation's row in shared/operations.ts
 * before a handler runs, and each handler returns its row's result type; tab-scoped operations act only on the tab
 * the calling page said hello for.
 */
import { z } from 'zod';
import {
  isViewOp,
  paramsSchema,
  type ParsedViewOpParams,
  type ViewOp,
  type ViewOpResult,
} from '../../shared/operations';
import { ruleOrigin } from '../approvals/site-rules';
import { homeTabOf } from '../tabs/task-pending';
import type { TabSummary } from '../page-tools/page-tool-deps';
import { addableTabs } from '../tabs/task-view';
import type { View } from './views';
import type { TetherWorker } from '../worker';

type Handler<O extends ViewOp> = (
  w: TetherWorker,
  view: View,
  params: ParsedViewOpParams<O>,
) => Promise<ViewOpResult<O>> | ViewOpResult<O>;

/** Thrown for a call that is malformed or not allowed from the calling page. */
export class ViewCallError extends Error {
  override readonly name = 'ViewCallError';
}

function tabOf(view: View): number {
  if (view.tabId === null || view.kind === 'options') throw new ViewCallError('This page is not attached to a tab.');
  return view.tabId;
}

/**
 * The tab whose requests a page may answer: its own, or for a page of another tab of a task, the conversation's tab
 * (tabs/task-pending.ts shows it the task's requests); null for a page of no tab.
 */
function askedTabOf(w: TetherWorker, view: View): number | null {
  if (view.kind === 'options' || view.tabId === null) return null;
  return homeTabOf({ state: w.deps.state, groups: w.groups }, view.tabId);
}

/** The conversations shown in the window's tabs, by their tab's title: the tasks a tab of that window can join. */
function joinableTasks(w: TetherWorker, windowTabs: readonly TabSummary[]): Array<{ threadId: string; title: string }> {
  const out: Array<{ threadId: string; title: string }> = [];
  for (const t of windowTabs) {
    const threadId = w.deps.state.binding(t.id)?.threadId;
    if (threadId !== undefined && !out.some((x) => x.threadId === threadId))
      out.push({ threadId, title: t.title || t.url });
  }
  return out;
}

function boundThread(w: TetherWorker, view: View): string {
  const binding = w.deps.state.binding(tabOf(view));
  if (!binding) throw new ViewCallError('This tab has no conversation yet.');
  return binding.threadId;
}

/** Binds tab `tabId` to `threadId` and sends its pages the thread's snapshot. */
async function openInTab(w: TetherWorker, tabId: number, threadId: string): Promise<void> {
  await w.deps.state.setBinding(tabId, { threadId });
  await w.syncThread(threadId, w.views.forTab(tabId));
}

/** `params`, when the caller is the options page: only it sends keys and changes the host's settings. */
function optionsOnly<P>(view: View, params: P): P {
  if (view.kind !== 'options')
    throw new ViewCallError("Only the options page changes or tests the host's model settings.");
  return params;
}

const handlers: { [O in ViewOp]: Handler<O> } = {
  'state/get': (w) => w.workerState(),
  'connection/retry': (w) => {
    w.link.retryNow();
    return {};
  },
  'thread/new': async (w, view) => {
    const tabId = tabOf(view);
    await w.deps.state.setBinding(tabId, undefined);
    w.sendToTab(tabId, { type: 'snapshot', thread: null, items: [] });
    return {};
  },
  'thread/open': async (w, view, { threadId }) => {
    const tabId = tabOf(view);
    w.requireClient();
    await openInTab(w, tabId, threadId);
    return {};
  },
  'thread/history': (w, view, { cursor }) =>
    w.requireClient().threadHistoryRead({ threadId: boundThread(w, view), cursor }),
  'thread/list': (w, _view, { archived, search }) =>
    w
      .requireClient()
      .threadList({ limit: 50, ...(archived ? { archived } : {}), ...(search?.trim() ? { search } : {}) }),
  'thread/archive': async (w, _view, { threadId }) => {
    const result = await w.requireClient().threadArchive({ threadId });
    for (const tab of w.deps.state.tabsForThread(threadId)) {
      await w.deps.state.setBinding(tab, undefined);
      w.sendToTab(tab, { type: 'snapshot', thread: null, items: [] });
    }
    return result;
  },
  'thread/unarchive': async (w, view, { threadId, reopen }) => {
    const result = await w.requireClient().threadUnarchive({ threadId });
    if (reopen) await openInTab(w, tabOf(view), threadId);
    return result;
  },
  'turn/send': async (w, view, { text, model }) => {
    const tabId = tabOf(view);
    const client = w.requireClient();
    const chosenModel = model ?? w.deps.state.settings().model;
    const threadId = await w.ensureThread(tabId, chosenModel);
    const { turn } = await client.turnStart({
      threadId,
      input: [{ type: 'text', text }],
      ...(chosenModel ? { model: chosenModel } : {}),
    });
    return { threadId, turnId: turn.id };
  },
  'turn/steer': async (w, view, { text }) => {
    const threadId = boundThread(w, view);
    const turnId = w.activeTurn(threadId);
    if (!turnId) throw new ViewCallError('No turn is running to steer; send it as a new message.');
    return w.requireClient().turnSteer({ threadId, expectedTurnId: turnId, input: [{ type: 'text', text }] });
  },
  'turn/interrupt': async (w, view) => {
    const threadId = boundThread(w, view);
    const turnId = w.activeTurn(threadId);
    if (!turnId) throw new ViewCallError('No turn is running.');
    return w.requireClient().turnInterrupt({ threadId, turnId });
  },
  'model/list': (w) => w.requireClient().modelList({}),
  'approval/decide': async (w, view, { key, choice }) => {
    const decision = await w.broker.decide(key, choice, askedTabOf(w, view));
    return { decision };
  },
  'handover/answer': (w, view, reply) => {
    w.handovers.answer(reply, askedTabOf(w, view));
    return {};
  },
  'rules/list': (w) => ({ rules: [...w.deps.state.rules()] }),
  'rules/revoke': async (w, _view, { id }) => {
    const rules = w.deps.state.rules();
    if (!rules.some((r) => r.id === id)) throw new ViewCallError('That rule no longer exists.');
    await w.deps.state.setRules(rules.filter((r) => r.id !== id));
    return { rules: [...w.deps.state.rules()] };
  },
  'settings/set': async (w, _view, patch) => {
    const before = w.deps.state.settings().backend;
    await w.deps.state.updateSettings(patch);
    if (w.deps.state.settings().backend !== before) w.link.restart();
    w.broadcastState();
    return w.deps.state.settings();
  },
  'trusted/allow-site': async (w, view) => {
    const origin = ruleOrigin((await w.deps.tab(tabOf(view)))?.url);
    if (!origin) throw new Error('Trusted input can be allowed only on an http or https page.');
    const sites = w.deps.state.settings().trustedSites ?? [];
    await w.deps.state.updateSettings({ trustedSites: [...sites, origin] });
    w.broadcastState();
    return w.deps.state.settings();
  },
  'share/set': async (w, view, { shared }) => {
    const tabId = tabOf(view);
    const threadId = shared ? await w.ensureThread(tabId, w.deps.state.settings().model) : boundThread(w, view);
    return { shared: await w.setShare(threadId, shared) };
  },
  'task/add': async (w, view, { tabId }) => {
    await w.groups.add(boundThread(w, view), tabId);
    return {};
  },
  'task/remove': async (w, view, { tabId }) => {
    await w.groups.remove(boundThread(w, view), tabId);
    // The tab's own pages no longer belong to the task, nor show or answer its requests.
    w.sendToTab(tabId, { type: 'task', tabs: [] });
    w.pushPending(tabId);
    return {};
  },
  'task/here': async (w, view) => {
    const tabId = tabOf(view);
    // A conversation's own tab is its task's home: nothing to join or leave there.
    if (w.deps.state.binding(tabId)) return { joinable: [] };
    const member = w.groups.threadOf(tabId);
    if (member !== undefined) {
      const home = w.deps.state.tabsForThread(member)[0];
      const t = home === undefined ? undefined : await w.deps.tab(home);
      return { member: { title: t?.title || t?.url || 'another tab' }, joinable: [] };
    }
    const windowTabs = await w.deps.pageTools.listTabs(tabId);
    if (!addableTabs(w.groups, windowTabs).some((t) => t.tabId === tabId)) return { joinable: [] };
    return { joinable: joinableTasks(w, windowTabs) };
  },
  'task/join': async (w, view, { threadId }) => {
    const tabId = tabOf(view);
    // Only a conversation of this tab's window, as task/here offered it: a page cannot name any thread it likes.
    if (!joinableTasks(w, await w.deps.pageTools.listTabs(tabId)).some((t) => t.threadId === threadId))
      throw new ViewCallError(
        'That conversation has no tab in this window any more; open its panel and add the tab there.',
      );
    await w.groups.add(threadId, tabId);
    return {};
  },
  'task/leave': async (w, view) => {
    const tabId = tabOf(view);
    const threadId = w.groups.threadOf(tabId);
    if (threadId === undefined) return {};
    await w.groups.remove(threadId, tabId);
    w.sendToTab(tabId, { type: 'task', tabs: [] });
    w.pushPending(tabId);
    return {};
  },
  'task/others': async (w, view) => ({ tabs: addableTabs(w.groups, await w.deps.pageTools.listTabs(tabOf(view))) }),
  'share/get': (w, view) => {
    const threadId = view.tabId === null ? undefined : w.deps.state.binding(view.tabId)?.threadId;
    return { shared: threadId !== undefined && w.workerState().mcp.shared.includes(threadId) };
  },
  'config/read': (w, _view, params) => w.requireClient().bridgeConfigRead(params),
  'config/test': (w, view, params) => w.requireClient().bridgeConfigTest(optionsOnly(view, params)),
  'config/write': async (w, view, params) => {
    const result = await w.requireClient().bridgeConfigWrite(optionsOnly(view, params));
    // What was saved becomes the default backend and model: a choice made here before would hide it.
    await w.deps.state.updateSettings({ backend: null, model: null });
    w.broadcastState();
    // A new host process reads the file afresh (and learns its key before anything is logged).
    w.link.restart();
    return result;
  },
  'diagnostics/get': (w) => ({
    state: w.workerState(),
    errors: [...w.deps.state.connectionLog()],
    extensionId: w.deps.extensionId,
    extensionVersion: w.deps.clientInfo.version,
    os: w.deps.os(),
  }),
};

/** Runs page operation `op` with unparsed `params`; rejects with a message the page can show. */
export async function runViewOp(w: TetherWorker, view: View, op: string, params: unknown): Promise<unknown> {
  if (!isViewOp(op)) throw new ViewCallError(`Unknown operation "${op}".`);
  return run(op, w, view, params);
}

async function run<O extends ViewOp>(op: O, w: TetherWorker, view: View, params: unknown): Promise<ViewOpResult<O>> {
  const parsed = paramsSchema(op).safeParse(params ?? {});
  if (!parsed.success) throw new ViewCallError(`Invalid parameters for ${op}: ${z.prettifyError(parsed.error)}`);
  const handler: Handler<O> = handlers[op];
  return handler(w, view, parsed.data);
}
