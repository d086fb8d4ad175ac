/**
 * Dialect adapter for `codex app-server` (OpenAI Codex CLI, tested with 0.171.0): Tether's protocol on one side,
 * Codex's thread/turn/item protocol (no `jsonrpc` field, server requests from id 0) on the other.
 */
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
  type UserInput,
} from '@tether/protocol';
import {
  type AdapterHandlers,
  type AdapterOptions,
  AdapterCore,
  type AgentIdentity,
  asRecord,
  str,
} from './dialect-core';
import { mapCodexError, mapModels, mapItem, mapThread, mapThreadStatus, mapTurn, policy } from './codex-map';
import { DEFAULT_PAGE_BUDGET, type PageBudget } from '../store/history-page';
import { checkAgentVersion, codexVersionOf } from './agent-versions';
import { CodexReads } from './codex-reads';
import { CodexPermissions, isCodexPermission } from './codex-permissions';
import { findPreset } from './presets';
import { join } from 'node:path';
import { safeSegment } from './acp-map';
import { CodexJournal } from './codex-journal';
import { CodexToolCalls } from './codex-tool-calls';

/**
 * Approval policy used when neither the client (`approvalPolicy` in `thread/start`) nor the backend's config
 * (`options.approvalPolicy`; `null` = Codex's own config.toml) chooses one: the side panel is where the user decides,
 * so Codex asks before anything that is not known to be safe.
 */
export const CODEX_DEFAULT_APPROVAL_POLICY = 'untrusted';

/** Creates the Codex adapter (the host's dialect contract); `budget` bounds its history pages. */
export function createCodexAdapter(
  upstream: MessageTransport,
  options: AdapterOptions,
  budget: PageBudget = DEFAULT_PAGE_BUDGET,
): MessageTransport {
  return new CodexAdapter(upstream, options, budget).transport;
}

/** Codex's row of the known agents (its oldest supported version and update command). */
const CODEX_VERSIONS = findPreset('codex')!;

class CodexAdapter extends AdapterCore {
  private readonly turnInputs = new Map<string, UserInput[]>();
  private readonly turns = new Map<string, Turn>();
  private readonly permissions = new CodexPermissions({
    ask: (spec) => this.askApproval(spec),
    withdraw: (requestId) => this.approvals.withdrawById(requestId, 'cancelled'),
  });
  private dynamicTools: Array<Record<string, unknown>> = [];
  private readonly toolCalls = new CodexToolCalls({
    request: (call, signal) => this.client.request('item/tool/call', call, { signal }),
    notify: (cancelled) => {
      if (!this.client.isClosed) this.client.notify('item/tool/call/cancelled', cancelled);
    },
  });
  /** What was relayed of the turns, so one Codex does not finish reads back as it was shown (codex-journal.ts). */
  private readonly journal: CodexJournal;
  /** Last thread object seen per id (Codex answers some calls with `{}`). */
  private readonly knownThreads = new Map<string, Thread>();
  private readonly reads: CodexReads;

  protected readonly runsClientTools = true;

  constructor(upstream: MessageTransport, options: AdapterOptions, budget: PageBudget) {
    super(upstream, options, { jsonrpc: false, agentName: 'codex' });
    this.journal = new CodexJournal(join(options.dataDir, 'agents', safeSegment(options.backendId)), this.log);
    this.reads = new CodexReads(
      {
        forward: (method, params, ctx, threadId, map) => this.forward(method, params, ctx, threadId, map),
        remember: (thread) => this.remember(thread),
        turnOf: (raw, threadId) => this.turnOf(raw, threadId),
        merge: (threadId, items, turns, active) => this.journal.merge(threadId, items, turns, active),
      },
      budget,
    );
  }

  /** Codex went away: its running turns are journaled interrupted with what was relayed of them. */
  protected override onAgentClosed(): void {
    this.journal.agentGone();
    this.journal.close();
  }

  protected async initializeAgent(params: InitializeParams): Promise<AgentIdentity> {
    const tools = params.capabilities?.clientTools ?? [];
    this.dynamicTools = tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }));
    const info = params.clientInfo;
    const result = asRecord(
      await this.codex('initialize', {
        clientInfo: { name: info.name, title: info.title ?? info.name, version: info.version },
        // Dynamic tools (Tether's client tools) are an experimental Codex API.
        capabilities: { experimentalApi: tools.length > 0 },
      }),
    );
    const reported = codexVersionOf(str(result.userAgent));
    const tooOld = checkAgentVersion(CODEX_VERSIONS, reported, this.log);
    if (tooOld) throw tooOld;
    this.journal.load();
    this.agent.notify('initialized');
    const version = reported ?? 'unknown';
    return {
      serverInfo: { name: 'codex', version },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
    };
  }

  protected handlers(): AdapterHandlers {
    return {
      'thread/start': (p, ctx) => {
        const extra = asRecord(p);
        const params: Record<string, unknown> = {
          ...(p.model ? { model: p.model } : {}),
          ...(p.cwd ? { cwd: p.cwd } : {}),
          ...(p.ephemeral !== undefined ? { ephemeral: p.ephemeral } : {}),
          ...policy(
            'approvalPolicy',
            extra.approvalPolicy,
            this.backendOptions.approvalPolicy,
            CODEX_DEFAULT_APPROVAL_POLICY,
          ),
          ...policy('sandbox', extra.sandbox, this.backendOptions.sandbox, undefined),
          ...(this.dynamicTools.length > 0 ? { dynamicTools: this.dynamicTools } : {}),
        };
        return this.forward('thread/start', params, ctx, undefined, (r) => {
          const mapped = mapThread(r.thread, false);
          const thread = { ...mapped, model: mapped.model || (str(r.model) ?? '') };
          if (p.title) this.nameThread(thread.id, p.title);
          return { thread: this.remember(p.title ? { ...thread, title: p.title } : thread) };
        });
      },
      'thread/read': (p, ctx) => this.reads.read(p, ctx),
      'thread/resume': (p, ctx) => this.reads.resume(p, ctx),
      'thread/history/read': (p, ctx) => this.reads.history(p, ctx),
      'thread/list': (p, ctx) => {
        const params = {
          ...(p.cursor ? { cursor: p.cursor } : {}),
          ...(p.limit ? { limit: p.limit } : {}),
          ...(p.archived ? { archived: true } : {}),
        };
        return this.forward('thread/list', params, ctx, undefined, (r) => ({
          threads: (Array.isArray(r.data) ? r.data : []).map((t) => this.remember(mapThread(t, p.archived === true))),
          nextCursor: str(r.nextCursor) ?? null,
        }));
      },
      'thread/archive': async (p, ctx) => {
        const known = await this.forward('thread/archive', { threadId: p.threadId }, ctx, p.threadId, () =>
          this.knownThreads.get(p.threadId),
        );
        const thread =
          known ??
          (await this.forward('thread/read', { threadId: p.threadId }, ctx, p.threadId, (r) => mapThread(r.thread)));
        return {
          thread: this.remember({
            ...thread,
            archived: true,
            status: 'idle',
            updatedAtMs: Math.max(thread.updatedAtMs, Date.now()),
          }),
        };
      },
      'thread/unarchive': (p, ctx) =>
        this.forward('thread/unarchive', { threadId: p.threadId }, ctx, p.threadId, (r) => ({
          thread: this.remember(mapThread(r.thread, false)),
        })),
      'thread/fork': (p, ctx) => {
        if (p.afterItemId) {
          throw new RpcError(
            ErrorCode.Unsupported,
            `thread/fork with afterItemId is not supported by the ${this.options.backendId} backend: Codex forks whole threads`,
            {
              method: 'thread/fork',
              backend: this.options.backendId,
            },
          );
        }
        return this.forward('thread/fork', { threadId: p.threadId }, ctx, p.threadId, (r) => {
          const thread: Thread = mapThread(r.thread, false);
          if (p.title) this.nameThread(thread.id, p.title);
          return { thread: this.remember(p.title ? { ...thread, title: p.title } : thread) };
        });
      },
      'thread/unsubscribe': (p, ctx) =>
        this.forward('thread/unsubscribe', { threadId: p.threadId }, ctx, p.threadId, () => ({})),
      'turn/start': (p, ctx) => this.startTurn(p, ctx),
      'turn/interrupt': (p, ctx) =>
        this.forward('turn/interrupt', { threadId: p.threadId, turnId: p.turnId }, ctx, p.threadId, () => ({
          turn: this.turns.get(p.turnId) ?? {
            id: p.turnId,
            threadId: p.threadId,
            status: 'running' as const,
            input: this.turnInputs.get(p.turnId) ?? [],
          },
        })),
      'turn/steer': (p, ctx) => {
        const input = p.input.map((i) => ({ type: 'text', text: i.text, text_elements: [] }));
        return this.forward(
          'turn/steer',
          { threadId: p.threadId, expectedTurnId: p.expectedTurnId, input },
          ctx,
          p.threadId,
          (r) => ({
            threadId: p.threadId,
            turnId: str(r.turnId) ?? p.expectedTurnId,
            queued: false,
          }),
        );
      },
      'approval/resolve': async (p) => {
        this.approvals.resolve(p, p.decision);
        return {};
      },
      'model/list': (_p, ctx) => this.forward('model/list', {}, ctx, undefined, (r) => ({ models: mapModels(r.data) })),
    };
  }

  private async startTurn(p: ClientRequestParams<'turn/start'>, ctx: RequestContext): Promise<{ turn: Turn }> {
    if (this.knownThreads.get(p.threadId)?.archived) throw RpcError.threadArchived(p.threadId);
    const input = p.input.map((i) => ({ type: 'text' as const, text: i.text }));
    const params = {
      threadId: p.threadId,
      input: input.map((i) => ({ ...i, text_elements: [] })),
      ...(p.model ? { model: p.model } : {}),
    };
    // Mapped when the answer is read, so the turn/started that follows it already knows the turn's input.
    const map = (r: Record<string, unknown>) => {
      this.turnInputs.set(str(asRecord(r.turn).id) ?? '', input);
      return { turn: this.turnOf(r.turn, p.threadId) };
    };
    try {
      return await this.forward('turn/start', params, ctx, p.threadId, map);
    } catch (error) {
      if (!(error instanceof RpcError) || error.code !== ErrorCode.ThreadNotFound) throw error;
      // Codex only runs turns on threads loaded in this process: after a restart, load it and try once more.
      await this.forward('thread/resume', { threadId: p.threadId }, ctx, p.threadId, () => undefined).catch(() => {
        throw error;
      });
      return this.forward('turn/start', params, ctx, p.threadId, map);
    }
  }

  protected onAgentNotification(method: string, params: unknown): void {
    const p = asRecord(params);
    const threadId = str(p.threadId);
    const turnId = str(p.turnId);
    switch (method) {
      case 'thread/started':
        return this.emit('thread/started', { thread: mapThread(p.thread, false) });
      case 'thread/status/changed':
        if (threadId) this.emit('thread/status/changed', { threadId, status: mapThreadStatus(p.status) });
        return;
      case 'thread/archived':
      case 'thread/unarchived':
        if (threadId) this.emit(method, { threadId });
        return;
      case 'turn/started':
      case 'turn/completed': {
        if (!threadId) return;
        const turn = this.turnOf(p.turn, threadId);
        if (method === 'turn/started')
          this.journal.turnStarted(turn, this.knownThreads.get(threadId) ?? mapThread({ id: threadId }));
        else this.journal.turnEnded(turn);
        if (method === 'turn/completed') {
          this.turns.delete(turn.id);
          this.turnInputs.delete(turn.id);
          this.approvals.withdraw('cancelled', (s) => s.threadId === threadId && s.turnId === turn.id);
        }
        return this.emit(method, { turn });
      }
      case 'item/started':
      case 'item/completed': {
        if (!threadId || !turnId) return;
        const raw = asRecord(p.item);
        this.permissions.noteItem(method, raw);
        const item = mapItem(raw, { turnId, final: method === 'item/completed' });
        if (!item) return;
        // Journaled before it is announced: what the browser saw survives Codex dying.
        if (method === 'item/started') this.journal.itemStarted(threadId, item);
        else this.journal.itemCompleted(threadId, item);
        return this.emit(method, { threadId, turnId, item });
      }
      case 'item/agentMessage/delta':
      case 'item/reasoning/summaryTextDelta':
      case 'item/reasoning/textDelta': {
        const itemId = str(p.itemId);
        const delta = str(p.delta);
        if (!threadId || !turnId || !itemId || delta === undefined) return;
        const out = method === 'item/agentMessage/delta' ? method : 'item/reasoning/delta';
        this.journal.delta(threadId, itemId, delta);
        return this.emit(out, { threadId, turnId, itemId, delta });
      }
      case 'serverRequest/resolved':
        // Codex withdrew a request we still show (interrupt, turn end): settle it as cancelled without answering Codex.
        // A page tool call Codex gave up on is withdrawn in the browser (its card goes, no later click acts).
        this.toolCalls.withdraw(p.requestId);
        return this.permissions.resolvedByCodex(p.requestId);
      case 'error': {
        const e = asRecord(p.error);
        const message = str(e.message) ?? str(p.message) ?? 'Codex reported an error';
        return this.emit('error', {
          message,
          ...(threadId ? { threadId } : {}),
          ...(turnId ? { turnId } : {}),
          ...(typeof p.willRetry === 'boolean' ? { willRetry: p.willRetry } : {}),
        });
      }
      case 'warning':
      case 'configWarning': {
        const message = str(p.message) ?? str(p.summary);
        if (message) this.emit('warning', { message, ...(threadId ? { threadId } : {}) });
        return;
      }
      default:
        // Codex has dozens of other notifications (token usage, rate limits, realtime...): none maps to Tether.
        return;
    }
  }

  protected onAgentRequest(method: string, params: unknown, ctx: RequestContext): unknown {
    const p = asRecord(params);
    if (isCodexPermission(method)) return this.permissions.answer(method, p, ctx.id);
    if (method === 'item/tool/call') return this.toolCalls.call(p, ctx.id);
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: Tether cannot answer Codex's ${method}`);
  }

  /** Codex keeps a title only through `thread/name/set`; a failure costs the title, not the thread. */
  private nameThread(threadId: string, name: string): void {
    this.agent
      .request('thread/name/set', { threadId, name })
      .catch((e: unknown) => this.log(`codex: thread/name/set failed: ${String(e)}`));
  }

  private remember(thread: Thread): Thread {
    if (thread.id) this.knownThreads.set(thread.id, thread);
    return thread;
  }

  private turnOf(raw: unknown, threadId: string): Turn {
    const id = str(asRecord(raw).id) ?? '';
    const turn = mapTurn(raw, threadId, this.turnInputs.get(id));
    if (turn.status === 'running') this.turns.set(id, turn);
    return turn;
  }

  /** One request to Codex, its errors translated (initialize: no client answer to order against). */
  private codex(method: string, params: unknown): Promise<unknown> {
    return this.agent.request(method, params).catch((error: unknown) => {
      throw mapCodexError(error, { method });
    });
  }

  /**
   * One request to Codex for the client request answered through `ctx`: `map` reads the answer synchronously (see
   * AdapterCore.agentRequest), and errors are translated.
   */
  private async forward<T>(
    method: string,
    params: unknown,
    ctx: RequestContext,
    threadId: string | undefined,
    map: (result: Record<string, unknown>) => T,
  ): Promise<T> {
    try {
      return await this.agentRequest(method, params, ctx, (result) => map(asRecord(result)));
    } catch (error) {
      throw mapCodexError(error, { method, ...(threadId === undefined ? {} : { threadId }) });
    }
  }
}
