/**
 * Dialect adapter for Agent Client Protocol agents over stdio (Copilot CLI `--acp`, claude-code-acp, `gemini --acp`,
 * ...): sessions are threads, `session/prompt` is a turn that ends when the prompt is answered,
 * `session/update` kinds are items and deltas, `session/request_permission` is an approval. History lives in the
 * host's journal (see journal.ts), so every ACP agent can be read back, by pages, and resumed.
 */
import { join } from 'node:path';
import {
  type ClientRequestParams,
  ErrorCode,
  type InitializeParams,
  type MessageTransport,
  PROTOCOL_VERSION,
  type RequestContext,
  RpcError,
  type Thread,
  type Turn,
} from '@tether/protocol';
import {
  type AdapterHandlers,
  type AdapterOptions,
  AdapterCore,
  type AgentIdentity,
  asRecord,
  str,
} from './dialect-core';
import { AcpErrorCode, mapAcpError } from './acp-errors';
import { acpAgentRow, checkAcpProtocol, checkAgentVersion } from './agent-versions';
import { listedThread, safeSegment, stopStatus } from './acp-map';
import { AcpModels } from './acp-models';
import { AcpMcpGrants, type AcpMcpServer } from './acp-mcp';
import { type AcpPermissionDeps, answerPermission } from './acp-permissions';
import { AcpSessions } from './acp-sessions';
import { AcpTurn } from './acp-turn';
import { unfinishedOf } from '../app-server/thread-history';
import { DEFAULT_PAGE_BUDGET } from '../store/history-page';
import { ThreadJournal } from './journal';

/** ACP protocol version this adapter speaks. */
export const ACP_PROTOCOL_VERSION = 1;

/** Creates the ACP adapter (the host's dialect contract). */
export function createAcpAdapter(upstream: MessageTransport, options: AdapterOptions): MessageTransport {
  return new AcpAdapter(upstream, options).transport;
}

class AcpAdapter extends AdapterCore {
  private readonly journal: ThreadJournal;
  private canList = false;
  private agentName = 'acp';
  private readonly active = new Map<string, AcpTurn>();
  /** Tether's MCP server for this agent's sessions (the page tools), when the host runs one. */
  private readonly mcp: AcpMcpGrants | undefined;
  /** The agent takes HTTP MCP servers (`mcpCapabilities.http`); else it gets the stdio form. */
  private mcpHttp = false;
  private provisional = 0;
  private readonly models: AcpModels;
  private readonly sessions: AcpSessions;
  /** Titles the adapter made from a first prompt: an agent's own title may replace these, never a client's. */
  private readonly madeTitles = new Map<string, string>();
  private readonly permissions: AcpPermissionDeps = {
    turnOf: (sessionId) => {
      const threadId = this.threadOfSession(sessionId);
      const turn = threadId ? this.active.get(threadId) : undefined;
      return threadId && turn ? { threadId, turn } : undefined;
    },
    isRunning: (turn) => this.active.get(turn.threadId) === turn,
    isTetherTool: (toolCall, title) => this.mcp?.isTetherTool(toolCall, title) === true,
    ask: (spec) => this.askApproval(spec),
    setStatus: (threadId, status) => this.emit('thread/status/changed', { threadId, status }),
  };

  constructor(upstream: MessageTransport, options: AdapterOptions) {
    super(upstream, options, { jsonrpc: true, agentName: 'acp agent' });
    this.journal = new ThreadJournal(join(options.dataDir, 'agents', safeSegment(options.backendId)), this.log);
    this.models = new AcpModels((m, params) => this.agent.request(m, params), this.log, options.backendId);
    this.sessions = new AcpSessions({
      journal: this.journal,
      models: this.models,
      acp: (method, params, ctx, threadId) => this.acp(method, params, ctx, threadId),
      mcpServers: (threadId) => this.mcpServers(threadId),
      warn: (threadId, message) => this.emit('warning', { threadId, message }),
      agentName: () => this.agentName,
      defaultCwd: () => this.options.backend?.cwd ?? process.cwd(),
      log: this.log,
    });
    this.mcp = options.mcp
      ? new AcpMcpGrants(options.mcp, {
          call: (params, signal) => this.client.request('item/tool/call', params, { signal }),
          cancelled: (params) => {
            if (!this.client.isClosed) this.client.notify('item/tool/call/cancelled', params);
          },
          turnOf: (threadId) => this.active.get(threadId)?.id,
          log: this.log,
        })
      : undefined;
  }

  /** The page tools reach ACP agents over MCP: offered when the host serves MCP and the client declared tools. */
  protected get runsClientTools(): boolean {
    return this.options.mcp !== undefined && (this.clientCapabilities.clientTools?.length ?? 0) > 0;
  }

  protected async initializeAgent(params: InitializeParams): Promise<AgentIdentity> {
    await this.journal.load();
    const result = asRecord(
      await this.acp('initialize', {
        protocolVersion: ACP_PROTOCOL_VERSION,
        // The browser is no file system or terminal for the agent: it uses its own.
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: {
          name: params.clientInfo.name,
          version: params.clientInfo.version,
          ...(params.clientInfo.title ? { title: params.clientInfo.title } : {}),
        },
      }),
    );
    const caps = asRecord(result.agentCapabilities);
    this.mcpHttp = asRecord(caps.mcpCapabilities).http === true;
    this.sessions.canLoad = caps.loadSession === true;
    this.canList = asRecord(caps.sessionCapabilities).list !== undefined;
    const info = asRecord(result.agentInfo);
    this.agentName = str(info.title) ?? str(info.name) ?? this.options.backendId;
    const row = acpAgentRow(str(info.name));
    const refused =
      checkAcpProtocol(result.protocolVersion, ACP_PROTOCOL_VERSION, { name: this.agentName, row }) ??
      (row ? checkAgentVersion(row, str(info.version), this.log) : undefined);
    if (refused) throw refused;
    return {
      serverInfo: { name: str(info.name) ?? this.options.backendId, version: str(info.version) ?? 'unknown' },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
    };
  }

  protected handlers(): AdapterHandlers {
    return {
      'thread/start': async (p, ctx) => {
        const cwd = p.cwd ?? this.options.backend?.cwd ?? process.cwd();
        // The thread's id is the session's, known only from the answer: its token is issued under a provisional key.
        const provisional = `new_${++this.provisional}`;
        const mcpServers = await this.mcpServers(provisional);
        const session = asRecord(
          await this.acp('session/new', { cwd, mcpServers }, ctx).catch((error: unknown) => {
            this.mcp?.revoke(provisional);
            throw error;
          }),
        );
        const sessionId = str(session.sessionId);
        if (!sessionId) throw RpcError.internal(`${this.agentName} answered session/new without a sessionId`);
        this.mcp?.bind(provisional, sessionId);
        this.sessions.started(sessionId);
        const model = await this.models.ofSession(sessionId, session, p.model);
        const now = Date.now();
        const thread: Thread = {
          id: sessionId,
          title: p.title ?? '',
          model,
          status: 'idle',
          archived: false,
          ephemeral: p.ephemeral === true,
          createdAtMs: now,
          updatedAtMs: now,
          cwd,
        };
        this.journal.put({ thread, sessionId });
        ctx.afterAnswer(() => this.emit('thread/started', { thread }));
        return { thread };
      },
      'thread/read': async (p, ctx) => {
        const thread = await this.known(p.threadId);
        await this.sessions.rebuildUnread(p.threadId, ctx);
        if (p.afterItemId !== undefined) {
          const after = this.journal.itemsAfter(p.threadId, p.afterItemId);
          if (!after) throw RpcError.itemNotFound(p.threadId, p.afterItemId);
          return { thread, ...after };
        }
        const { items, olderCursor, unfinishedTurns } = this.journal.page(p.threadId, DEFAULT_PAGE_BUDGET);
        return { thread, items, ...(olderCursor ? { olderCursor } : {}), ...unfinishedOf(unfinishedTurns) };
      },
      'thread/resume': async (p, ctx) => {
        const thread = await this.known(p.threadId);
        await this.sessions.rebuildUnread(p.threadId, ctx);
        const page = this.journal.page(p.threadId, DEFAULT_PAGE_BUDGET);
        const { items: history, olderCursor } = page;
        const turn = this.active.get(p.threadId);
        // The latest page plus the open items with their text so far: the deltas that follow continue them.
        const items = [...history, ...(turn?.openItems() ?? [])];
        return {
          thread,
          items,
          ...(turn ? { activeTurn: turn.toTurn() } : {}),
          ...(olderCursor ? { olderCursor } : {}),
          ...unfinishedOf(page.unfinishedTurns),
        };
      },
      'thread/history/read': async (p) => {
        await this.known(p.threadId);
        const { items, olderCursor, unfinishedTurns } = this.journal.page(p.threadId, DEFAULT_PAGE_BUDGET, p.cursor);
        return { items, olderCursor, ...unfinishedOf(unfinishedTurns) };
      },
      'thread/list': async (p, ctx) => {
        if (this.canList) await this.mergeAgentSessions(ctx);
        const all = this.journal
          .threads()
          .filter((t) => t.archived === (p.archived === true) && !t.ephemeral)
          .map((t) => (this.active.has(t.id) ? t : { ...t, status: 'idle' as const }));
        const start = p.cursor ? Number.parseInt(p.cursor, 10) || 0 : 0;
        const limit = p.limit ?? 50;
        const page = all.slice(start, start + limit);
        return { threads: page, nextCursor: start + limit < all.length ? String(start + limit) : null };
      },
      'thread/archive': (p, ctx) => this.setArchived(p.threadId, true, ctx),
      'thread/unarchive': (p, ctx) => this.setArchived(p.threadId, false, ctx),
      'thread/unsubscribe': async (p) => {
        await this.known(p.threadId);
        return {};
      },
      'turn/start': (p, ctx) => this.startTurn(p, ctx),
      'turn/interrupt': async (p) => {
        const turn = this.active.get(p.threadId);
        if (!turn) throw RpcError.noActiveTurn(p.threadId);
        if (turn.id !== p.turnId) throw RpcError.turnMismatch(p.threadId, p.turnId, turn.id);
        turn.interruptRequested = true;
        const sessionId = this.journal.get(p.threadId)?.sessionId ?? p.threadId;
        this.agent.notify('session/cancel', { sessionId });
        // ACP: the client answers its pending permission requests with `cancelled` when it cancels.
        this.approvals.cancelTurn(turn.id);
        return { turn: turn.toTurn() };
      },
      'approval/resolve': async (p) => {
        this.approvals.resolve(p, p.decision);
        return {};
      },
      // ACP lists models per session: these are the latest session's (none before the first thread starts).
      'model/list': async () => ({ models: this.models.list() }),
    };
  }

  private async startTurn(p: ClientRequestParams<'turn/start'>, ctx: RequestContext): Promise<{ turn: Turn }> {
    const thread = await this.known(p.threadId);
    if (thread.archived) throw RpcError.threadArchived(p.threadId);
    const running = this.active.get(p.threadId);
    if (running) throw RpcError.threadBusy(p.threadId, running.id);
    const sessionId = await this.sessions.attach(p.threadId, ctx);
    if (p.model && p.model !== thread.model && (await this.models.switch(sessionId, p.model)))
      this.journal.update(p.threadId, { model: p.model });
    const input = p.input.map((i) => ({ type: 'text' as const, text: i.text }));
    const turn = new AcpTurn(p.threadId, input, {
      emit: (m, params) => this.emit(m, params),
      record: (item) => this.journal.append(p.threadId, item),
    });
    this.active.set(p.threadId, turn);
    this.journal.appendTurn(p.threadId, turn.toTurn());
    const text = input.map((i) => i.text).join('\n');
    const title = thread.title || text.slice(0, 80);
    if (!thread.title) this.madeTitles.set(p.threadId, title);
    this.journal.update(p.threadId, { title, updatedAtMs: Date.now(), status: 'running' });
    ctx.afterAnswer(() => {
      this.emit('turn/started', { turn: turn.toTurn() });
      this.emit('thread/status/changed', { threadId: p.threadId, status: 'running' });
      turn.userMessage(text);
      this.prompt(turn, sessionId, input);
    });
    return { turn: turn.toTurn() };
  }

  private prompt(turn: AcpTurn, sessionId: string, input: Array<{ type: 'text'; text: string }>): void {
    const threadId = turn.threadId;
    this.agent.call(
      'session/prompt',
      { sessionId, prompt: input.map((i) => ({ type: 'text', text: i.text })) },
      {
        ok: (result) => this.endTurn(turn, stopStatus(str(asRecord(result).stopReason), turn.interruptRequested)),
        fail: (error) => {
          const cancelled = error instanceof RpcError && error.code === AcpErrorCode.RequestCancelled;
          if (cancelled || turn.interruptRequested) return this.endTurn(turn, { status: 'interrupted' });
          const mapped = this.mapError(error, 'session/prompt', threadId);
          const code = mapped instanceof RpcError ? mapped.code : undefined;
          this.emit('error', {
            message: mapped.message,
            threadId,
            turnId: turn.id,
            ...(code === undefined ? {} : { code }),
          });
          this.endTurn(turn, {
            status: 'failed',
            error: { message: mapped.message, ...(code === undefined ? {} : { code }) },
          });
        },
      },
    );
  }

  private endTurn(
    turn: AcpTurn,
    end: { status: 'completed' | 'interrupted' | 'failed'; error?: { message: string; code?: number | string } },
  ): void {
    if (this.active.get(turn.threadId) !== turn) return;
    this.active.delete(turn.threadId);
    this.approvals.cancelTurn(turn.id);
    this.journal.appendTurn(turn.threadId, turn.finish(end.status, end.error));
    this.journal.update(turn.threadId, { status: 'idle', updatedAtMs: Date.now() });
    this.emit('thread/status/changed', { threadId: turn.threadId, status: 'idle' });
  }

  /** Adds sessions that the agent lists and the journal does not know (made by another client, say). */
  private async mergeAgentSessions(ctx: RequestContext): Promise<void> {
    let result: Record<string, unknown>;
    try {
      result = asRecord(await this.acp('session/list', {}, ctx));
    } catch (error) {
      this.log(`session/list failed; listing the journal only: ${String(error)}`);
      return;
    }
    for (const s of (Array.isArray(result.sessions) ? result.sessions : []).map(asRecord)) {
      const thread = listedThread(s);
      if (thread && !this.journal.get(thread.id)) this.journal.put({ sessionId: thread.id, thread, unread: true });
    }
  }

  private async setArchived(threadId: string, archived: boolean, ctx: RequestContext): Promise<{ thread: Thread }> {
    await this.known(threadId);
    const running = this.active.get(threadId);
    if (archived && running) throw RpcError.threadBusy(threadId, running.id);
    const thread = this.journal.update(threadId, { archived, updatedAtMs: Date.now() })!;
    ctx.afterAnswer(() => this.emit(archived ? 'thread/archived' : 'thread/unarchived', { threadId }));
    return { thread };
  }

  /** A thread the journal knows, else -32020. */
  private async known(threadId: string): Promise<Thread> {
    await this.journal.load();
    const entry = this.journal.get(threadId);
    if (!entry) throw RpcError.threadNotFound(threadId);
    const running = this.active.get(threadId);
    return { ...entry.thread, status: running ? entry.thread.status : 'idle' };
  }

  protected onAgentNotification(method: string, params: unknown): void {
    if (method !== 'session/update') return;
    const p = asRecord(params);
    const sessionId = str(p.sessionId);
    const update = asRecord(p.update);
    if (!sessionId) return;
    if (this.sessions.replayed(sessionId, update)) return;
    const threadId = this.threadOfSession(sessionId);
    if (!threadId) return;
    if (update.sessionUpdate === 'session_info_update') {
      // A client's title wins: the agent's fills an empty one or replaces the one made from the first prompt.
      const current = this.journal.get(threadId)?.thread.title ?? '';
      if (typeof update.title === 'string' && update.title && (!current || this.madeTitles.get(threadId) === current))
        this.journal.update(threadId, { title: update.title });
      return;
    }
    this.active.get(threadId)?.update(update);
  }

  protected onAgentRequest(method: string, params: unknown): unknown {
    if (method !== 'session/request_permission') {
      // fs/* and terminal/* were not offered in our client capabilities.
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: Tether does not provide ${method} to ACP agents`);
    }
    return answerPermission(params, this.permissions);
  }

  protected override onAgentClosed(): void {
    this.mcp?.revoke();
    for (const turn of [...this.active.values()])
      this.endTurn(turn, {
        status: 'failed',
        error: { message: `${this.agentName} stopped during the turn`, code: ErrorCode.BackendUnavailable },
      });
  }

  /** Tether's MCP server entry for a session of thread `threadId` (none when there is no tool to offer). */
  private async mcpServers(threadId: string): Promise<AcpMcpServer[]> {
    if (!this.mcp || !this.runsClientTools) return [];
    try {
      return await this.mcp.servers(threadId, this.mcpHttp);
    } catch (error) {
      this.log(`cannot offer the page tools over MCP: ${String(error)}`);
      return [];
    }
  }

  private threadOfSession(sessionId: string): string | undefined {
    if (this.journal.get(sessionId)) return sessionId;
    for (const t of this.journal.threads()) if (this.journal.get(t.id)?.sessionId === sessionId) return t.id;
    return undefined;
  }

  /** One request to the agent (for the client request answered through `ctx`, when there is one), errors translated. */
  private acp(method: string, params: unknown, ctx?: RequestContext, threadId?: string): Promise<unknown> {
    const sent = ctx ? this.agentRequest(method, params, ctx, (result) => result) : this.agent.request(method, params);
    return sent.catch((error: unknown) => {
      throw this.mapError(error, method, threadId);
    });
  }

  private mapError(error: unknown, method: string, threadId?: string): Error {
    const command = this.options.backend?.argv[0];
    const agent = { backendId: this.options.backendId, agentName: this.agentName, ...(command ? { command } : {}) };
    return mapAcpError(error, method, agent, threadId);
  }
}
