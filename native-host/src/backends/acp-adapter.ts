/**
 * Dialect adapter for Agent Client Protocol agents over stdio (Copilot CLI `--acp`, claude-code-acp, gemini
 * `--experimental-acp`, ...): sessions are threads, `session/prompt` is a turn that ends when the prompt is answered,
 * `session/update` kinds are items and deltas, `session/request_permission` is an approval. History lives in the
 * host's journal (see journal.ts), so every ACP agent can be read back and resumed.
 */
import { join } from 'node:path';
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  type ClientRequestMethod,
  type ClientRequestParams,
  ErrorCode,
  type InitializeParams,
  type InitializeResult,
  type Item,
  type MessageTransport,
  PROTOCOL_VERSION,
  RpcError,
  type Thread,
} from '@tether/protocol';
import { type AdapterOptions, AdapterCore, asRecord, type MethodHandler, str } from './dialect-core';
import type { Reply } from './dialect-peer';
import { AcpTurn } from './acp-turn';
import { ThreadJournal } from './journal';

/** ACP protocol version this adapter speaks. */
export const ACP_PROTOCOL_VERSION = 1;

/** Creates the ACP adapter (the host's dialect contract). */
export function createAcpAdapter(upstream: MessageTransport, options: AdapterOptions): MessageTransport {
  return new AcpAdapter(upstream, options).transport;
}

type P<M extends ClientRequestMethod> = ClientRequestParams<M>;

class AcpAdapter extends AdapterCore {
  private readonly journal: ThreadJournal;
  private canLoad = false;
  private canList = false;
  private agentName = 'acp';
  /** Sessions this agent process knows (created or loaded since it started). */
  private readonly live = new Set<string>();
  /** Sessions being loaded: their replayed updates rebuild history only when `replays` has a collector. */
  private readonly loading = new Set<string>();
  private readonly replays = new Map<string, AcpTurn>();
  private readonly active = new Map<string, AcpTurn>();

  constructor(upstream: MessageTransport, options: AdapterOptions) {
    super(upstream, options, { jsonrpc: true, agentName: 'acp agent' });
    this.journal = new ThreadJournal(join(options.dataDir, 'agents', safeSegment(options.backendId)), this.log);
  }

  protected async initializeAgent(params: InitializeParams): Promise<InitializeResult> {
    await this.journal.load();
    const result = asRecord(
      await this.acp('initialize', {
        protocolVersion: ACP_PROTOCOL_VERSION,
        // The browser is no file system or terminal for the agent: it uses its own.
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: params.clientInfo.name, version: params.clientInfo.version, ...(params.clientInfo.title ? { title: params.clientInfo.title } : {}) },
      }),
    );
    const caps = asRecord(result.agentCapabilities);
    this.canLoad = caps.loadSession === true;
    this.canList = asRecord(caps.sessionCapabilities).list !== undefined;
    const info = asRecord(result.agentInfo);
    this.agentName = str(info.title) ?? str(info.name) ?? this.options.backendId;
    return {
      serverInfo: { name: str(info.name) ?? this.options.backendId, version: str(info.version) ?? 'unknown' },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
      capabilities: {
        thread: true,
        turn: true,
        itemStream: true,
        approvalRequests: true,
        eventReplay: true,
        schemaExport: false,
        steer: false,
        fork: false,
        archive: true,
        modelList: false,
        clientTools: false,
      },
    };
  }

  protected readonly methods: Partial<Record<ClientRequestMethod, MethodHandler>> = {
    'thread/start': async (p: P<'thread/start'>, reply: Reply) => {
      const cwd = p.cwd ?? this.options.backend?.cwd ?? process.cwd();
      const session = asRecord(await this.acp('session/new', { cwd, mcpServers: [] }));
      const sessionId = str(session.sessionId);
      if (!sessionId) throw RpcError.internal(`${this.agentName} answered session/new without a sessionId`);
      this.live.add(sessionId);
      const now = Date.now();
      const thread: Thread = {
        id: sessionId,
        title: p.title ?? '',
        model: p.model ?? currentModel(session.configOptions) ?? '',
        status: 'idle',
        archived: false,
        ephemeral: p.ephemeral === true,
        createdAtMs: now,
        updatedAtMs: now,
        cwd,
      };
      this.journal.put({ thread, sessionId });
      reply.ok({ thread });
      this.emit('thread/started', { thread });
    },
    'thread/read': async (p: P<'thread/read'>, reply: Reply) => {
      const thread = await this.known(p.threadId);
      reply.ok({ thread, items: after(await this.itemsOf(p.threadId), p.afterItemId) });
    },
    'thread/resume': async (p: P<'thread/resume'>, reply: Reply) => {
      const thread = await this.known(p.threadId);
      const turn = this.active.get(p.threadId);
      // Items finished so far plus the open ones with their text so far: the deltas that follow continue them.
      const items = [...(await this.itemsOf(p.threadId)), ...(turn?.openItems() ?? [])];
      reply.ok({ thread, items, ...(turn ? { activeTurn: turn.toTurn() } : {}) });
    },
    'thread/list': async (p: P<'thread/list'>, reply: Reply) => {
      if (this.canList) await this.mergeAgentSessions();
      const all = this.journal
        .threads()
        .filter((t) => t.archived === (p.archived === true) && !t.ephemeral)
        .map((t) => (this.active.has(t.id) ? t : { ...t, status: 'idle' as const }));
      const start = p.cursor ? Number.parseInt(p.cursor, 10) || 0 : 0;
      const limit = p.limit ?? 50;
      const page = all.slice(start, start + limit);
      reply.ok({ threads: page, nextCursor: start + limit < all.length ? String(start + limit) : null });
    },
    'thread/archive': async (p: P<'thread/archive'>, reply: Reply) => this.setArchived(p.threadId, true, reply),
    'thread/unarchive': async (p: P<'thread/unarchive'>, reply: Reply) => this.setArchived(p.threadId, false, reply),
    'thread/unsubscribe': async (p: P<'thread/unsubscribe'>, reply: Reply) => {
      await this.known(p.threadId);
      reply.ok({});
    },
    'turn/start': async (p: P<'turn/start'>, reply: Reply) => this.startTurn(p, reply),
    'turn/interrupt': (p: P<'turn/interrupt'>, reply: Reply) => {
      const turn = this.active.get(p.threadId);
      if (!turn) throw RpcError.noActiveTurn(p.threadId);
      if (turn.id !== p.turnId) throw RpcError.turnMismatch(p.threadId, p.turnId, turn.id);
      turn.interruptRequested = true;
      const sessionId = this.journal.get(p.threadId)?.sessionId ?? p.threadId;
      this.agent.notify('session/cancel', { sessionId });
      // ACP: the client answers its pending permission requests with `cancelled` when it cancels.
      this.approvals.withdraw('cancelled', (s) => s.threadId === p.threadId && s.turnId === turn.id);
      reply.ok({ turn: turn.toTurn() });
    },
    'approval/resolve': (p: P<'approval/resolve'>, reply: Reply) => {
      this.approvals.resolve(p);
      reply.ok({});
    },
  };

  private async startTurn(p: P<'turn/start'>, reply: Reply): Promise<void> {
    const thread = await this.known(p.threadId);
    if (thread.archived) throw RpcError.threadArchived(p.threadId);
    const running = this.active.get(p.threadId);
    if (running) throw RpcError.threadBusy(p.threadId, running.id);
    const sessionId = await this.attach(p.threadId);
    const input = p.input.map((i) => ({ type: 'text' as const, text: i.text }));
    const turn = new AcpTurn(p.threadId, input, { emit: (m, params) => this.emit(m, params), record: (item) => this.record(p.threadId, item) });
    this.active.set(p.threadId, turn);
    const text = input.map((i) => i.text).join('\n');
    const title = thread.title || text.slice(0, 80);
    this.journal.update(p.threadId, { title, updatedAtMs: Date.now(), status: 'running' });
    reply.ok({ turn: turn.toTurn() });
    this.emit('turn/started', { turn: turn.toTurn() });
    this.emit('thread/status/changed', { threadId: p.threadId, status: 'running' });
    turn.userMessage(text);
    this.agent.call('session/prompt', { sessionId, prompt: input.map((i) => ({ type: 'text', text: i.text })) }, {
      ok: (result) => this.endTurn(turn, stopStatus(str(asRecord(result).stopReason), turn.interruptRequested)),
      fail: (error) => {
        const cancelled = error instanceof RpcError && error.code === -32800;
        if (cancelled || turn.interruptRequested) return this.endTurn(turn, { status: 'interrupted' });
        const mapped = this.mapError(error, 'session/prompt', p.threadId);
        this.emit('error', { message: mapped.message, threadId: p.threadId, turnId: turn.id, code: (mapped as RpcError).code });
        this.endTurn(turn, { status: 'failed', error: { message: mapped.message, ...(mapped instanceof RpcError ? { code: mapped.code } : {}) } });
      },
    });
  }

  private endTurn(turn: AcpTurn, end: { status: 'completed' | 'interrupted' | 'failed'; error?: { message: string; code?: number | string } }): void {
    if (this.active.get(turn.threadId) !== turn) return;
    this.active.delete(turn.threadId);
    this.approvals.withdraw('cancelled', (s) => s.threadId === turn.threadId && s.turnId === turn.id);
    turn.finish(end.status, end.error);
    this.journal.update(turn.threadId, { status: 'idle', updatedAtMs: Date.now() });
    this.emit('thread/status/changed', { threadId: turn.threadId, status: 'idle' });
  }

  /** The agent session for a thread in this agent process: reloaded, or a new one when the agent cannot reload. */
  private async attach(threadId: string): Promise<string> {
    const entry = this.journal.get(threadId)!;
    if (this.live.has(entry.sessionId)) return entry.sessionId;
    const cwd = entry.thread.cwd ?? this.options.backend?.cwd ?? process.cwd();
    if (this.canLoad) {
      try {
        await this.load(entry.sessionId, cwd, false);
        return entry.sessionId;
      } catch (error) {
        this.log(`session/load of ${entry.sessionId} failed, starting a new session: ${String(error)}`);
      }
    }
    const session = asRecord(await this.acp('session/new', { cwd, mcpServers: [] }));
    const sessionId = str(session.sessionId);
    if (!sessionId) throw RpcError.internal(`${this.agentName} answered session/new without a sessionId`);
    this.live.add(sessionId);
    this.journal.update(threadId, {}, sessionId);
    this.emit('warning', {
      threadId,
      message: `${this.agentName} cannot reopen its earlier session of this thread: this turn starts without the earlier context (the history is still shown).`,
    });
    return sessionId;
  }

  /** `session/load`; its replayed updates rebuild history only when `collect` (the journal already has it otherwise). */
  private async load(sessionId: string, cwd: string, collect: boolean): Promise<void> {
    this.loading.add(sessionId);
    const collector = collect
      ? new AcpTurn(sessionId, [], { emit: () => undefined, record: (item) => this.journal.append(sessionId, item) })
      : undefined;
    if (collector) this.replays.set(sessionId, collector);
    try {
      await this.acp('session/load', { sessionId, cwd, mcpServers: [] }, sessionId);
      this.live.add(sessionId);
      collector?.finish('completed');
    } finally {
      this.loading.delete(sessionId);
      this.replays.delete(sessionId);
    }
  }

  /** Adds sessions that the agent lists and the journal does not know (made by another client, say). */
  private async mergeAgentSessions(): Promise<void> {
    let result: Record<string, unknown>;
    try {
      result = asRecord(await this.acp('session/list', {}));
    } catch (error) {
      this.log(`session/list failed; listing the journal only: ${String(error)}`);
      return;
    }
    for (const s of (Array.isArray(result.sessions) ? result.sessions : []).map(asRecord)) {
      const id = str(s.sessionId);
      if (!id || this.journal.get(id)) continue;
      const updated = Date.parse(str(s.updatedAt) ?? '') || Date.now();
      this.journal.put({
        sessionId: id,
        thread: { id, title: str(s.title) ?? '', model: '', status: 'idle', archived: false, ephemeral: false, createdAtMs: updated, updatedAtMs: updated, ...(str(s.cwd) ? { cwd: str(s.cwd) } : {}) },
        unread: true,
      });
    }
  }

  private async setArchived(threadId: string, archived: boolean, reply: Reply): Promise<void> {
    await this.known(threadId);
    const running = this.active.get(threadId);
    if (archived && running) throw RpcError.threadBusy(threadId, running.id);
    const thread = this.journal.update(threadId, { archived, updatedAtMs: Date.now() })!;
    reply.ok({ thread });
    this.emit(archived ? 'thread/archived' : 'thread/unarchived', { threadId });
  }

  /** A thread the journal knows, else -32020. */
  private async known(threadId: string): Promise<Thread> {
    await this.journal.load();
    const entry = this.journal.get(threadId);
    if (!entry) throw RpcError.threadNotFound(threadId);
    const running = this.active.get(threadId);
    return { ...entry.thread, status: running ? entry.thread.status : 'idle' };
  }

  /** History of a thread; a session the agent listed but the journal never saw is loaded once to rebuild it. */
  private async itemsOf(threadId: string): Promise<Item[]> {
    const entry = this.journal.get(threadId)!;
    if (entry.unread === true && this.canLoad && !this.live.has(entry.sessionId)) {
      this.journal.put({ thread: entry.thread, sessionId: entry.sessionId });
      await this.load(entry.sessionId, entry.thread.cwd ?? process.cwd(), true);
      await this.journal.flush();
    }
    return this.journal.history(threadId);
  }

  private record(threadId: string, item: Item): void {
    this.journal.append(threadId, item);
  }

  protected onAgentNotification(method: string, params: unknown): void {
    if (method !== 'session/update') return;
    const p = asRecord(params);
    const sessionId = str(p.sessionId);
    const update = asRecord(p.update);
    if (!sessionId) return;
    if (this.loading.has(sessionId)) {
      this.replays.get(sessionId)?.update(update);
      return;
    }
    const threadId = this.threadOfSession(sessionId);
    if (!threadId) return;
    if (update.sessionUpdate === 'session_info_update' && typeof update.title === 'string' && update.title) {
      this.journal.update(threadId, { title: update.title });
      return;
    }
    this.active.get(threadId)?.update(update);
  }

  protected onAgentRequest(method: string, params: unknown, reply: Reply): void {
    if (method !== 'session/request_permission') {
      // fs/* and terminal/* were not offered in our client capabilities.
      return reply.fail(new RpcError(ErrorCode.MethodNotFound, `Method not found: Tether does not provide ${method} to ACP agents`));
    }
    const p = asRecord(params);
    const threadId = this.threadOfSession(str(p.sessionId) ?? '');
    const turn = threadId ? this.active.get(threadId) : undefined;
    if (!threadId || !turn) return reply.ok({ outcome: { outcome: 'cancelled' } });
    const toolCall = asRecord(p.toolCall);
    const options = (Array.isArray(p.options) ? p.options : []).map(asRecord);
    turn.ensureToolCall(toolCall);
    const optionFor = (kinds: string[]) => options.find((o) => kinds.includes(str(o.kind) ?? ''));
    const choices: ApprovalDecision[] = [];
    if (optionFor(['allow_once'])) choices.push('allow');
    if (optionFor(['allow_always'])) choices.push('allow_session');
    choices.push('deny');
    const raw = asRecord(toolCall.rawInput);
    const title = str(toolCall.title) ?? str(toolCall.kind) ?? 'tool';
    const command = str(raw.command);
    this.emit('thread/status/changed', { threadId, status: 'waitingOnApproval' });
    this.approvals.ask(
      { threadId, turnId: turn.id, toolName: title, preview: command && command !== title ? `${title}: ${command}` : title, arguments: toolCall.rawInput ?? {}, choices },
      (outcome: ApprovalOutcome) => {
        const toolCallId = str(toolCall.toolCallId);
        if (outcome === 'deny' && toolCallId) turn.markDeclined(toolCallId);
        const option =
          outcome === 'allow' ? optionFor(['allow_once']) : outcome === 'allow_session' ? (optionFor(['allow_always']) ?? optionFor(['allow_once'])) : outcome === 'deny' ? optionFor(['reject_once', 'reject_always']) : undefined;
        reply.ok(option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } });
        if (this.active.get(threadId) === turn) this.emit('thread/status/changed', { threadId, status: 'running' });
      },
    );
  }

  protected override onAgentClosed(): void {
    for (const turn of [...this.active.values()]) this.endTurn(turn, { status: 'failed', error: { message: `${this.agentName} stopped during the turn`, code: ErrorCode.BackendUnavailable } });
  }

  private threadOfSession(sessionId: string): string | undefined {
    if (this.journal.get(sessionId)) return sessionId;
    for (const t of this.journal.threads()) if (this.journal.get(t.id)?.sessionId === sessionId) return t.id;
    return undefined;
  }

  private acp(method: string, params: unknown, threadId?: string): Promise<unknown> {
    return this.agent.request(method, params).catch((error: unknown) => {
      throw this.mapError(error, method, threadId);
    });
  }

  private mapError(error: unknown, method: string, threadId?: string): Error {
    if (!(error instanceof RpcError)) return error instanceof Error ? error : new Error(String(error));
    if (error.code === -32000) {
      return RpcError.backendUnavailable(
        `${this.agentName} needs you to sign in (${error.message}). Fix: sign in with the agent's own command (e.g. \`copilot login\`), or give it an API key or provider in backends.${this.options.backendId}.env of the Tether config`,
        { method, agentCode: error.code },
      );
    }
    if (error.code === -32002 && threadId) return RpcError.threadNotFound(threadId);
    return error;
  }
}

/** Turn status from an ACP stop reason. */
function stopStatus(stopReason: string | undefined, interrupted: boolean): { status: 'completed' | 'interrupted' | 'failed'; error?: { message: string; code?: string } } {
  if (stopReason === 'cancelled' || interrupted) return { status: 'interrupted' };
  if (stopReason === 'refusal') return { status: 'failed', error: { message: 'The agent refused to continue', code: 'refusal' } };
  if (stopReason === 'max_tokens') return { status: 'completed', error: { message: 'The answer was cut at the token limit', code: 'max_tokens' } };
  if (stopReason === 'max_turn_requests') return { status: 'completed', error: { message: 'The agent reached its limit of model requests for one turn', code: 'max_turn_requests' } };
  return { status: 'completed' };
}

function currentModel(configOptions: unknown): string | undefined {
  if (!Array.isArray(configOptions)) return undefined;
  const model = configOptions.map(asRecord).find((o) => o.category === 'model' || o.id === 'model');
  return model ? str(model.currentValue) : undefined;
}

function after(items: Item[], afterItemId: string | undefined): Item[] {
  if (!afterItemId) return items;
  const index = items.findIndex((i) => i.id === afterItemId);
  return index < 0 ? items : items.slice(index + 1);
}

function safeSegment(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_') || 'acp';
}
