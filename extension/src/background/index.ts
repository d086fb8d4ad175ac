/**
 * Service worker entry. Listeners are registered synchronously at the top level (MV3 requirement); everything they
 * do waits for the persisted state to load. Only the extension's own pages may connect (checked per Port).
 */
import '../shared/zod-setup';
import { ViewToWorker, VIEW_PORT_NAME, type WorkerToView } from '../shared/messages';
import { connectNativeHost } from './host-link/native-port';
import { chromeDebugger, chromeEventWait } from './input/chrome-debugger';
import { DebuggerSessions } from './input/debugger-session';
import { InputLayer } from './input/input-layer';
import { trustedPolicy } from './input/trusted-policy';
import { chromeDevtools } from './devtools/chrome-devtools';
import { chromePageTools } from './page-tools/chrome-pages';
import { chromeTabBrowser, chromeTabGroups } from './tabs/chrome-tabs';
import { chromeOpenedTabsApi, watchOpenedTabs } from './tabs/opened-tabs';
import { createMenus, onMenuClick, openPanelOnAction } from './views/open-tether';
import { PersistentState } from './views/persistent-state';
import { runViewOp } from './views/view-ops';
import type { View } from './views/views';
import { TetherWorker } from './worker';
import { errorMessage } from '@tether/protocol';

const SIDE_PANEL_PATH = 'src/sidepanel/index.html';
const manifest = chrome.runtime.getManifest();
const extensionOrigin = chrome.runtime.getURL('');

let platformOs = 'linux';
void chrome.runtime.getPlatformInfo().then((info) => (platformOs = info.os));

const state = new PersistentState({ local: chrome.storage.local, session: chrome.storage.session });
const debuggerApi = chromeDebugger();
const input = new InputLayer({
  sessions: debuggerApi
    ? new DebuggerSessions(debuggerApi, {
        set: (fn, ms) => setTimeout(fn, ms),
        clear: (h) => clearTimeout(h as number),
      })
    : undefined,
  waitEvent: chromeEventWait,
  policy: trustedPolicy(
    () => state.settings(),
    (tabId, origin) => worker.offerTrustedInput(tabId, origin),
  ),
});
// webRequest listeners at the top level, so a request wakes the sleeping worker and is seen.
const devtools = chromeDevtools((line) => console.warn(`[tether] ${line}`));
const worker: TetherWorker = new TetherWorker({
  state,
  connectNative: connectNativeHost,
  lastError: () => chrome.runtime.lastError?.message,
  tab: async (tabId) => {
    try {
      return await chrome.tabs.get(tabId);
    } catch {
      return undefined;
    }
  },
  setBadge: (tabId, count) => {
    void chrome.action.setBadgeText({ tabId, text: count > 0 ? String(count) : '' }).catch(() => {});
    void chrome.action.setBadgeBackgroundColor({ tabId, color: '#d97706' }).catch(() => {});
  },
  pageTools: chromePageTools({ readFiles: (paths, bytes) => worker.readFiles(paths, bytes), input, devtools }),
  tabs: { ...chromeTabBrowser(), groups: chromeTabGroups() },
  clientInfo: { name: 'tether-extension', version: manifest.version },
  extensionId: chrome.runtime.id,
  os: () => platformOs,
  now: () => Date.now(),
  random: () => Math.random(),
  newId: () => crypto.randomUUID(),
  log: (line) => console.debug(`[tether] ${line}`),
  focusTab: async (tabId) => {
    const tab = await chrome.tabs.update(tabId, { active: true });
    if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true });
  },
});

const ready = state.load().then(
  () => {
    worker.link.start();
    // Tabs closed while no worker listened leave their tasks now.
    void chrome.tabs.query({}).then((tabs) => worker.groups.prune(new Set(tabs.flatMap((t) => t.id ?? []))));
  },
  (error: unknown) => {
    console.error('[tether] could not load stored state; starting empty', error);
    worker.link.start();
  },
);

let nextViewId = 1;

/** Only pages of this extension (not content scripts, not web pages) may talk to the worker. */
function isOwnPage(sender: chrome.runtime.MessageSender | undefined): boolean {
  return sender?.id === chrome.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== VIEW_PORT_NAME || !isOwnPage(port.sender)) {
    port.disconnect();
    return;
  }
  let open = true;
  const view: View = {
    id: nextViewId++,
    kind: undefined,
    tabId: null,
    send: (message: WorkerToView) => {
      if (!open) return;
      try {
        port.postMessage(message);
      } catch {
        open = false;
      }
    },
  };
  worker.views.add(view);
  port.onDisconnect.addListener(() => {
    open = false;
    worker.views.remove(view);
    worker.router.dropView(view);
  });
  port.onMessage.addListener((raw: unknown) => {
    void ready.then(() => handleViewMessage(view, raw));
  });
});

async function handleViewMessage(view: View, raw: unknown): Promise<void> {
  const parsed = ViewToWorker.safeParse(raw);
  if (!parsed.success) return;
  const message = parsed.data;
  if (message.type === 'ping') return;
  if (message.type === 'hello') {
    view.kind = message.view;
    view.tabId = message.view === 'options' ? null : message.tabId;
    await worker.welcome(view);
    return;
  }
  if (view.kind === undefined) {
    view.send({ type: 'error', id: message.id, error: { message: 'Say hello first.' } });
    return;
  }
  try {
    const result = await runViewOp(worker, view, message.op, message.params);
    view.send({ type: 'result', id: message.id, result: result ?? {} });
  } catch (error) {
    const code =
      error && typeof error === 'object' && 'code' in error && typeof error.code === 'number' ? error.code : undefined;
    view.send({
      type: 'error',
      id: message.id,
      error: {
        message: errorMessage(error),
        ...(code === undefined ? {} : { code }),
      },
    });
  }
}

/** Each tab gets its own side panel document, told its tab id in the URL. */
function enablePanel(tabId: number): void {
  void chrome.sidePanel?.setOptions({ tabId, path: `${SIDE_PANEL_PATH}?tab=${tabId}`, enabled: true }).catch(() => {});
}

chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id !== undefined) enablePanel(tab.id);
});
// A tab a page opens while the agent acts on it (a link with target=_blank) joins the agent's task.
watchOpenedTabs(chromeOpenedTabsApi(), worker.groups, ready, (line) => console.warn(`[tether] ${line}`));
chrome.tabs.onUpdated.addListener((tabId, info) => {
  if (info.status === 'loading') enablePanel(tabId);
  // The panel's header names the page the tab shows; a navigation or a new title changes it.
  if (info.title !== undefined || info.url !== undefined) void ready.then(() => worker.pushTab(tabId));
});
chrome.tabs.onRemoved.addListener((tabId) => {
  void ready.then(async () => {
    await state.setBinding(tabId, undefined);
    await worker.broker.tabClosed(tabId);
    await worker.groups.tabClosed(tabId);
    worker.handovers.tabClosed(tabId);
    worker.pages.tabClosed(tabId);
    input.tabClosed(tabId);
  });
});
/** Enables the side panel of every open tab (at install and browser start, before any tab event arrives). */
function enablePanelsOfOpenTabs(): void {
  void chrome.tabs.query({}).then((tabs) => {
    for (const t of tabs) if (t.id !== undefined) enablePanel(t.id);
  });
}
chrome.runtime.onInstalled.addListener(() => {
  createMenus();
  enablePanelsOfOpenTabs();
});
openPanelOnAction((line) => console.warn(`[tether] ${line}`));
const menuClick = (info: chrome.contextMenus.OnClickData, tab?: chrome.tabs.Tab): void =>
  onMenuClick(worker, info, tab, (line) => console.warn(`[tether] ${line}`));
chrome.contextMenus.onClicked.addListener((info, tab) => {
  // The click's user gesture must reach sidePanel.open() before any wait, so the worker's readiness is not awaited.
  menuClick(info, tab);
});
// Chrome's debugging bar cannot be cancelled in a headless browser: the end-to-end test of that flow calls this.
Reflect.set(globalThis, '__tetherCancelDebugging', (tabId: number) => debuggerApi?.cancelAsUser(tabId));
// A native menu cannot be clicked in a headless browser: the end-to-end test (and DevTools) call this instead.
Reflect.set(globalThis, '__tetherMenuClick', menuClick);
chrome.runtime.onStartup.addListener(enablePanelsOfOpenTabs);
