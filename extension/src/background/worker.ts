/**
 * The service worker's core: wires the host link, the event router, the approval broker and the pages together.
 * Browser APIs come in through `WorkerDeps` (index.ts binds them to chrome.*), so this module holds no globals.
 */
import type { AppServerClient, McpClientInfo } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import type { WorkerToView } from '../shared/messages';
import type { ConnectionState, Notice, WorkerState } from '../shared/records';
import { ApprovalBroker } from './approvals/approval-broker';
import { EventRouter, type NotificationTable } from './host-link/event-router';
import { HostLink } from './host-link/host-link';
import type { PortLike } from './host-link/native-port';
import { RejectedNotifications } from './host-link/rejected-notifications';
import type { UploadFile } from './page-tools/page-tool-deps';
import { CLIENT_TOOLS } from './page-tools/page-tool-specs';
import type { PageToolDeps } from './page-tools/page-tool-deps';
import { PageTools } from './page-tools/page-tools';
import type { PersistentState } from './views/persistent-state';
import { ResumePoints } from './views/resume-points';
import { syncThread, welcome } from './views/thread-sync';
import { ViewRegistry, type View } from './views/views';
import { type GateDeps, serveToolCall } from './approvals/page-tool-gate';
import { type TabBrowser, TabTools } from './tabs/tab-tools';
import { type BrowserTabGroups, TaskGroups } from './tabs/task-groups';
import { pushPending } from './tabs/task-pending';
import { taskTabsOf } from './tabs/task-view';
import { HandoverDesk } from './handover/handover-desk';

/** What the worker needs from the browser. */
export interface WorkerDeps {
  readonly state: PersistentState;
  connectNative(): PortLike;
  lastError(): string | undefined;
  tab(tabId: number): Promise<{ url?: string; title?: string } | undefined>;
  setBadge(tabId: number, count: number): void;
  readonly pageTools: PageToolDeps;
  /** Opening and closing the agent's tabs, and the browser's tab groups where it has them. */
  readonly tabs: TabBrowser & { readonly groups?: BrowserTabGroups };
  readonly clientInfo: { name: string; version: string };
  readonly extensionId: string;
  /** The user's OS as chrome.runtime.getPlatformInfo names it (mac, win, linux, ...). */
  os(): string;
  now(): number;
  random(): number;
  newId(): string;
  log(line: string): void;
  /** Brings a tab to the front of its window and focuses the window (a hand-over); absent: nothing moves. */
  focusTab?(tabId: number): Promise<void>;
}

/** The worker: one per service-worker lifetime. */
export class TetherWorker {
  readonly views = new ViewRegistry();
  readonly router: EventRouter<View>;
  readonly broker: ApprovalBroker;
  readonly handovers: HandoverDesk;
  readonly link: HostLink;
  readonly pages: PageTools;
  /** Each thread's task group: the tabs its page tools may act on. */
  readonly groups: TaskGroups;
  /** What the gate in front of the page tools uses (approvals/page-tool-gate.ts). */
  private readonly gate: GateDeps;
  /** Each thread's running turn, as the host last said. */
  readonly activeTurns = new Map<string, string>();
  /** Where each thread's pages resume after a reconnect (their last finished item). */
  readonly resumePoints = new ResumePoints<View>();
  /** Whether the connection relays to the daemon, where turns outlive it (bridge/hello's daemonVersion). */
  private daemonServed = false;
  /** Conversations whose tab the user shared with external MCP clients, and the clients the host says are there. */
  private readonly mcpShared = new Set<string>();
  private mcpClients: McpClientInfo[] = [];
  /** Composer text for a tab whose panel is not open yet (the context menu's selection), given at its hello. */
  readonly drafts = new Map<number, string>();
  /** Tabs and sites whose panel was offered trusted input already. */
  private readonly trustedOffers = new Set<string>();

  constructor(readonly deps: WorkerDeps) {
    const { state } = deps;
    this.pages = new PageTools(deps.pageTools);
    this.groups = new TaskGroups({
      state,
      later: (run, ms) => setTimeout(run, ms),
      ...(deps.tabs.groups ? { browserGroups: deps.tabs.groups } : {}),
      onChange: (threadId) => {
        void this.pushTask(threadId);
        // A tab that joined shows the task's open requests; one that left no longer does (view-ops clears it).
        const home = state.tabsForThread(threadId)[0];
        if (home !== undefined) this.pushPending(home);
      },
      log: deps.log,
    });
    const rejected = new RejectedNotifications({
      pagesOf: (threadId) => (threadId === undefined ? this.views.all() : this.viewsOfThread(threadId)),
      log: deps.log,
    });
    this.router = new EventRouter<View>({
      viewsForThread: (threadId) => this.viewsOfThread(threadId),
      deliver: (view, events) => view.send({ type: 'events', events }),
      broadcast: (events) => this.broadcast({ type: 'events', events }),
      handlers: this.notificationTable(),
      rejected: (m, known, why) => rejected.report(m, known, why),
    });
    this.handovers = new HandoverDesk({
      tabForThread: (threadId) => state.tabsForThread(threadId)[0],
      pageTabForThread: (threadId) => this.groups.current(threadId),
      focusTab: async (tabId) => deps.focusTab?.(tabId),
      onChange: (tabId) => this.pushPending(tabId, 'handovers'),
      onNotice: (tabId, notice) => this.sendToTab(tabId, { type: 'notice', notice }),
      now: deps.now,
      log: deps.log,
    });
    this.broker = new ApprovalBroker({
      state,
      tabForThread: (threadId) => state.tabsForThread(threadId)[0],
      tabUrl: async (tabId) => (await deps.tab(tabId))?.url,
      onChange: (tabId) => this.pushPending(tabId, 'approvals'),
      onNotice: (tabId, notice) => this.sendToTab(tabId, { type: 'notice', notice }),
      resolveRemote: async (p, decision) => {
        await this.requireClient().approvalResolve({
          threadId: p.threadId,
          turnId: p.turnId,
          requestId: p.requestId,
          decision,
        });
      },
      now: deps.now,
      newId: deps.newId,
    });
    this.link = new HostLink({
      connect: deps.connectNative,
      lastError: deps.lastError,
      clientInfo: deps.clientInfo,
      clientTools: CLIENT_TOOLS,
      backend: () => state.settings().backend,
      onBatch: (messages) => this.router.routeBatch(messages),
      attach: (client) => this.attach(client),
      onState: (connection) => this.onConnectionState(connection),
      onReady: () => this.onReady(),
      onLost: (loss) => {
        // The daemon keeps running turns when its relay stops: the reconnect resumes them where the pages are.
        // Otherwise they died with the connection: pages keep what they showed, marked interrupted with why, and offer
        // to send the input again.
        if (loss.cause !== 'host-stopped' || !this.daemonServed) {
          for (const [threadId, turnId] of this.activeTurns) {
            const notice: Notice = { kind: 'turn-interrupted', threadId, turnId, ...loss };
            for (const v of this.viewsOfThread(threadId)) v.send({ type: 'notice', notice });
          }
          this.activeTurns.clear();
        }
        void this.deps.pageTools.input?.endAll();
        void this.broker.forgetConnection();
      },
      now: deps.now,
      random: deps.random,
      log: deps.log,
    });
    this.gate = {
      state,
      tab: (tabId) => deps.tab(tabId),
      pages: this.pages,
      groups: this.groups,
      tabTools: new TabTools({ groups: this.groups, browser: deps.tabs, pages: this.pages, tabs: deps.pageTools }),
      broker: this.broker,
      handovers: this.handovers,
      sendToTab: (tabId, message) => this.sendToTab(tabId, message),
    };
  }

  /** The state every page shows. */
  workerState(): WorkerState {
    const info = this.link.info;
    const hello = info?.hello;
    return {
      connection: this.link.state,
      ...(hello ? { hostVersion: hello.hostVersion, backend: hello.backend } : {}),
      daemonVersion: hello?.daemonVersion,
      daemonUnavailable: hello?.daemonUnavailable,
      backends: hello?.backends ?? [],
      ...(info ? { serverInfo: info.init.serverInfo, capabilities: info.init.capabilities } : {}),
      settings: this.deps.state.settings(),
      mcp: { shared: [...this.mcpShared], clients: this.mcpClients },
    };
  }

  /** The conversation of a tab, started (titled after the page) when the tab has none yet. */
  async ensureThread(tabId: number, model?: string): Promise<string> {
    const bound = this.deps.state.binding(tabId)?.threadId;
    if (bound) return bound;
    // No title: the backend names the thread after its first message (the page's title named every thread alike).
    const { thread } = await this.requireClient().threadStart(model ? { model } : {});
    await this.deps.state.setBinding(tabId, { threadId: thread.id });
    this.sendToTab(tabId, { type: 'snapshot', thread, items: [] });
    this.resumePoints.sent(thread.id, this.views.forTab(tabId), [], true);
    return thread.id;
  }

  /** Shares a conversation's tab with external MCP clients (`tether mcp`), or stops sharing it. */
  async setShare(threadId: string, shared: boolean): Promise<boolean> {
    const result = await this.requireClient().bridgeMcpShare({ threadId, shared });
    this.mcpShared.clear();
    for (const id of result.shared) this.mcpShared.add(id);
    this.mcpClients = result.clients;
    this.broadcastState();
    return this.mcpShared.has(threadId);
  }

  /** The connected client, or an error a page can show. */
  requireClient(): AppServerClient {
    const client = this.link.client;
    if (!client) {
      const state = this.link.state;
      const reason = state.status === 'connected' ? undefined : state.reason;
      throw new Error(
        `Not connected to the Tether host${reason ? `: ${reason}` : ''}. It reconnects by itself; see the banner.`,
      );
    }
    return client;
  }

  /**
   * Files on this computer as the host finds them (regular files by absolute path), with their bytes when `bytes`
   * (a synthetic page_upload); rejects with the host's reason, which names the path and what to do.
   */
  async readFiles(paths: readonly string[], bytes: boolean): Promise<UploadFile[]> {
    const { files } = await this.requireClient().bridgeFilesRead({ paths: [...paths], bytes });
    return files.map((f) => ({ name: f.name, type: f.type, size: f.size, base64: f.base64 ?? '' }));
  }

  /** The running turn of a thread, if any. */
  activeTurn(threadId: string): string | undefined {
    return this.activeTurns.get(threadId);
  }

  /** Sends to every page. */
  broadcast(message: WorkerToView): void {
    for (const v of this.views.all()) v.send(message);
  }

  /** Tells every page the worker's state (after it changed). */
  broadcastState(): void {
    this.broadcast({ type: 'state', state: this.workerState() });
  }

  /** The pages of the tabs that show `threadId`. */
  viewsOfThread(threadId: string): View[] {
    return this.views.forTabs(this.deps.state.tabsForThread(threadId));
  }

  /**
   * Offers trusted input on `origin` in the tab's side panel (once per tab and site while the worker lives), with
   * what Chrome's debugging bar means, before anything attaches: an action under 'ask' on a site not yet allowed.
   */
  offerTrustedInput(tabId: number, origin: string): void {
    const key = `${tabId} ${origin}`;
    if (this.trustedOffers.has(key)) return;
    this.trustedOffers.add(key);
    this.sendToTab(tabId, { type: 'notice', notice: { kind: 'trusted-input-offer', origin } });
  }

  /** Sends to the side panels and popups of a tab. */
  sendToTab(tabId: number, message: WorkerToView): void {
    for (const v of this.views.forTab(tabId)) v.send(message);
  }

  /** Tells the pages of the task's tabs (or `views`) the tabs of the task and which one the agent is on. */
  async pushTask(
    threadId: string,
    views: readonly View[] = this.views.forTabs(this.groups.members(threadId).map((t) => t.tabId)),
  ): Promise<void> {
    if (views.length === 0) return;
    const tabs = await taskTabsOf(this.groups, threadId, (id) => this.deps.tab(id));
    for (const v of views) v.send({ type: 'task', tabs });
  }

  /** Tells `views` (by default every page of the tab) the page the tab shows now: its title and address. */
  async pushTab(tabId: number, views: readonly View[] = this.views.forTab(tabId)): Promise<void> {
    // A tab of a task shows in its conversation's panel, whichever tab that is.
    const task = this.groups.threadOf(tabId);
    if (task !== undefined) void this.pushTask(task);
    if (views.length === 0) return;
    const tab = await this.deps.tab(tabId);
    if (!tab) return;
    for (const v of views) v.send({ type: 'tab', title: tab.title ?? '', url: tab.url ?? '' });
  }

  /** Puts `text` in the composer of the tab's side panel: now when one is open, else when one says hello. */
  offerDraft(tabId: number, text: string): void {
    const panels = this.views.forTab(tabId).filter((v) => v.kind === 'sidepanel');
    if (panels.length === 0) this.drafts.set(tabId, text);
    for (const v of panels) v.send({ type: 'draft', text });
  }

  /**
   * Pushes the approvals and/or hand-overs of a conversation's tab to the pages and badges of every tab of its task
   * (tabs/task-pending.ts), so the user answers them in whichever of the task's tabs they are looking at.
   */
  pushPending(homeTab: number, what: 'approvals' | 'handovers' | 'both' = 'both'): void {
    pushPending(
      {
        state: this.deps.state,
        groups: this.groups,
        approvals: (tab) => this.broker.pendingForTab(tab),
        handovers: (tab) => this.handovers.pendingForTab(tab),
        setBadge: this.deps.setBadge,
        sendToTab: (tab, message) => this.sendToTab(tab, message),
      },
      homeTab,
      what,
    );
  }

  /**
   * Sends `views` the current history of `threadId` (via `thread/resume`), then its live events; with `resume`, from
   * the last finished item they have (views/thread-sync.ts).
   */
  syncThread(threadId: string, views: readonly View[], resume = false): Promise<void> {
    return syncThread(this, threadId, views, resume);
  }

  /** A page said hello: send it the state, its tab's approvals and its thread. */
  welcome(view: View): Promise<void> {
    return welcome(this, view);
  }

  private onConnectionState(connection: ConnectionState): void {
    if (connection.status === 'disconnected' && connection.reason) {
      void this.deps.state.logConnectionError({ atMs: this.deps.now(), message: connection.reason });
    }
    // A connected state already carries what the handshake learned (HostLink.info).
    this.broadcastState();
  }

  private onReady(): void {
    this.daemonServed = this.link.info?.hello?.daemonVersion !== undefined;
    // After a worker restart or a reconnect: resubscribe every bound thread so panels get its history and live turns,
    // from where they are when they still show it.
    for (const threadId of this.deps.state.boundThreads()) {
      void this.syncThread(threadId, this.viewsOfThread(threadId), true);
    }
    // A new host knows nothing of what the user shared with the old one: say it again, or stop showing it shared.
    const shared = [...this.mcpShared].reverse();
    this.mcpShared.clear();
    this.mcpClients = [];
    for (const threadId of shared) {
      void this.setShare(threadId, true).catch((error: unknown) => {
        this.deps.log(`could not share ${threadId} again: ${errorMessage(error)}`);
        this.broadcastState();
      });
    }
  }

  private notificationTable(): NotificationTable {
    return {
      'turn/started': ({ turn }) => {
        this.activeTurns.set(turn.threadId, turn.id);
        void this.deps.state.setSeenTurn(turn.threadId, { turnId: turn.id });
      },
      'item/completed': ({ threadId, item }) => {
        this.resumePoints.completed(threadId, item.id);
        void this.deps.state.seenItem(threadId, item.id);
      },
      'turn/completed': ({ turn }) => {
        if (this.activeTurns.get(turn.threadId) === turn.id) this.activeTurns.delete(turn.threadId);
        void this.deps.state.seenTurnEnd(turn.threadId, turn.id);
        // Chrome's debugging bar shows only while a turn acts: the turn's tab is let go when it ends.
        for (const tab of this.deps.state.tabsForThread(turn.threadId)) void this.deps.pageTools.input?.turnEnded(tab);
        void this.broker.withdraw({ threadId: turn.threadId, turnId: turn.id }, 'turn-ended');
      },
      'item/tool/call/cancelled': ({ threadId, callId, reason }) =>
        void this.broker.withdraw({ threadId, requestId: callId }, reason),
      'approval/resolved': ({ threadId, requestId }) => void this.broker.withdraw({ threadId, requestId }),
      'bridge/mcp/clients': ({ clients }) => {
        this.mcpClients = clients;
        this.broadcastState();
      },
      'bridge/backend/exited': (e) => {
        const notice: Notice = { kind: 'backend-exited', message: e.message, stderrTail: e.stderrTail };
        this.broadcast({ type: 'notice', notice });
        // Page tool calls of its agents died with it (external clients' calls come from the host, which lives on).
        void this.broker.withdraw({ external: false, source: 'client-tool' }, 'backend-stopped');
        this.link.backendExited(e.message, e.restartInMs);
      },
    };
  }

  private attach(client: AppServerClient): void {
    client.handle('approval/request', async (params) => ({
      decision: await this.broker.ask({ source: 'server', ...params }),
    }));
    client.handle('item/tool/call', (params) => serveToolCall(this.gate, params));
  }
}
