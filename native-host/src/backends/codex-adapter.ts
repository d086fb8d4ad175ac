/**
 * Dialect adapter for `codex app-server` (OpenAI Codex CLI, tested with 0.171.0): Tether's protocol on one side,
 * Codex's thread/turn/item protocol (no `jsonrpc` field, server requests from id 0) on the other.
 */
import {
  type ClientRequestMethod,
  type ClientRequestParams,
  ErrorCode,
  type InitializeParams,
  type InitializeResult,
  type MessageTransport,
  PROTOCOL_VERSION,
  type RequestId,
  RpcError,
  type Thread,
  ToolCallResult,
  type Turn,
  type UserInput,
} from '@tether/protocol';
import { type AdapterOptions, AdapterCore, asRecord, type MethodHandler, str } from './dialect-core';
import type { ApprovalSpec } from './dialect-approvals';
import type { Reply } from './dialect-peer';
import {
  after,
  choicesFrom,
  CODEX_CAPABILITIES,
  codexDecision,
  historyItems,
  mapCodexError,
  mapItem,
  mapThread,
  mapThreadStatus,
  mapTurn,
  policy,
} from './codex-map';

/**
 * Approval policy used when neither the client (`approvalPolicy` in `thread/start`) nor the backend's config
 * (`options.approvalPolicy`; `null` = Codex's own config.toml) chooses one: the side panel is where the user decides,
 * so Codex asks before anything that is not known to be safe.
 */
export const CODEX_DEFAULT_APPROVAL_POLICY = 'untrusted';

/** Creates the Codex adapter (the host's dialect contract). */
export function createCodexAdapter(upstream: MessageTransport, options: AdapterOptions): MessageTransport {
  return new CodexAdapter(upstream, options).transport;
}

type P<M extends ClientRequestMethod> = ClientRequestParams<M>;

class CodexAdapter extends AdapterCore {
  private readonly turnInputs = new Map<string, UserInput[]>();
  private readonly turns = new Map<string, Turn>();
  private readonly pendingChanges = new Map<string, unknown>();
  /** Codex server request id -> Tether approval id, to withdraw what Codex resolves itself (interrupt). */
  private readonly approvalByCodexId = new Map<RequestId, string>();
  private dynamicTools: Array<Record<string, unknown>> = [];
  /** Last thread object seen per id (Codex answers some calls with `{}`). */
  private readonly knownThreads = new Map<string, Thread>();

  constructor(upstream: MessageTransport, options: AdapterOptions) {
    super(upstream, options, { jsonrpc: false, agentName: 'codex' });
  }

  protected async initializeAgent(params: InitializeParams): Promise<InitializeResult> {
    const tools = params.capabilities?.clientTools ?? [];
    this.dynamicTools = tools.map((t) => ({ type: 'function', name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const info = params.clientInfo;
    const result = asRecord(
      await this.codex('initialize', {
        clientInfo: { name: info.name, title: info.title ?? info.name, version: info.version },
        // Dynamic tools (Tether's client tools) are an experimental Codex API.
        capabilities: { experimentalApi: tools.length > 0 },
      }),
    );
    this.agent.notify('initialized');
    const version = /\/(\d+\.\d+\.\d+[^\s]*)/.exec(str(result.userAgent) ?? '')?.[1] ?? 'unknown';
    return {
      serverInfo: { name: 'codex', version },
      protocolVersion: PROTOCOL_VERSION,
      supportedTransports: ['stdio'],
      capabilities: { ...CODEX_CAPABILITIES },
    };
  }

  protected readonly methods: Partial<Record<ClientRequestMethod, MethodHandler>> = {
    'thread/start': (p: P<'thread/start'>, reply: Reply) => {
      const extra = asRecord(p);
      const params: Record<string, unknown> = {
        ...(p.model ? { model: p.model } : {}),
        ...(p.cwd ? { cwd: p.cwd } : {}),
        ...(p.ephemeral !== undefined ? { ephemeral: p.ephemeral } : {}),
        ...policy('approvalPolicy', extra.approvalPolicy, this.backendOptions.approvalPolicy, CODEX_DEFAULT_APPROVAL_POLICY),
        ...policy('sandbox', extra.sandbox, this.backendOptions.sandbox, undefined),
        ...(this.dynamicTools.length > 0 ? { dynamicTools: this.dynamicTools } : {}),
      };
      this.forward('thread/start', params, reply, undefined, (r) => {
        const mapped = mapThread(r.thread, false);
        const thread = { ...mapped, model: mapped.model || (str(r.model) ?? '') };
        if (p.title) this.nameThread(thread.id, p.title);
        return { thread: this.remember(p.title ? { ...thread, title: p.title } : thread) };
      });
    },
    'thread/read': (p: P<'thread/read'>, reply: Reply) =>
      this.forward('thread/read', { threadId: p.threadId, includeTurns: true }, reply, p.threadId, (r) => ({
        thread: this.remember(mapThread(r.thread)),
        items: after(historyItems(r.thread), p.afterItemId),
      })),
    'thread/resume': (p: P<'thread/resume'>, reply: Reply) => {
      // Without a subscription a plain read gives the same history.
      const method = p.subscribe === false ? 'thread/read' : 'thread/resume';
      const params = p.subscribe === false ? { threadId: p.threadId, includeTurns: true } : { threadId: p.threadId };
      this.forward(method, params, reply, p.threadId, (r) => {
        const turns = asRecord(r.thread).turns;
        const active = Array.isArray(turns) ? turns.map(asRecord).filter((t) => t.status === 'inProgress').pop() : undefined;
        return {
          thread: this.remember(mapThread(r.thread)),
          items: historyItems(r.thread),
          ...(active ? { activeTurn: this.turnOf(active, p.threadId) } : {}),
        };
      });
    },
    'thread/list': (p: P<'thread/list'>, reply: Reply) =>
      this.forward(
        'thread/list',
        { ...(p.cursor ? { cursor: p.cursor } : {}), ...(p.limit ? { limit: p.limit } : {}), ...(p.archived ? { archived: true } : {}) },
        reply,
        undefined,
        (r) => ({
          threads: (Array.isArray(r.data) ? r.data : []).map((t) => this.remember(mapThread(t, p.archived === true))),
          nextCursor: str(r.nextCursor) ?? null,
        }),
      ),
    'thread/archive': async (p: P<'thread/archive'>, reply: Reply) => {
      await this.codex('thread/archive', { threadId: p.threadId }, p.threadId);
      const known = this.knownThreads.get(p.threadId);
      const thread = known ?? mapThread(asRecord(await this.codex('thread/read', { threadId: p.threadId }, p.threadId)).thread);
      reply.ok({ thread: this.remember({ ...thread, archived: true, status: 'idle', updatedAtMs: Math.max(thread.updatedAtMs, Date.now()) }) });
    },
    'thread/unarchive': (p: P<'thread/unarchive'>, reply: Reply) =>
      this.forward('thread/unarchive', { threadId: p.threadId }, reply, p.threadId, (r) => ({ thread: this.remember(mapThread(r.thread, false)) })),
    'thread/fork': (p: P<'thread/fork'>, reply: Reply) => {
      if (p.afterItemId) throw new RpcError(-32013, `thread/fork with afterItemId is not supported by the ${this.options.backendId} backend: Codex forks whole threads`, { method: 'thread/fork', backend: this.options.backendId });
      this.forward('thread/fork', { threadId: p.threadId }, reply, p.threadId, (r) => {
        const thread: Thread = mapThread(r.thread, false);
        if (p.title) this.nameThread(thread.id, p.title);
        return { thread: this.remember(p.title ? { ...thread, title: p.title } : thread) };
      });
    },
    'thread/unsubscribe': (p: P<'thread/unsubscribe'>, reply: Reply) =>
      this.forward('thread/unsubscribe', { threadId: p.threadId }, reply, p.threadId, () => ({})),
    'turn/start': (p: P<'turn/start'>, reply: Reply) => {
      if (this.knownThreads.get(p.threadId)?.archived) throw RpcError.threadArchived(p.threadId);
      const input = p.input.map((i) => ({ type: 'text' as const, text: i.text }));
      const params = { threadId: p.threadId, input: input.map((i) => ({ ...i, text_elements: [] })), ...(p.model ? { model: p.model } : {}) };
      const map = (r: Record<string, unknown>) => {
        const id = str(asRecord(r.turn).id) ?? '';
        this.turnInputs.set(id, input);
        return { turn: this.turnOf(r.turn, p.threadId) };
      };
      this.agent.call('turn/start', params, {
        ok: (result) => reply.ok(map(asRecord(result))),
        fail: (error) => {
          const mapped = mapCodexError(error, { method: 'turn/start', threadId: p.threadId });
          if (!(mapped instanceof RpcError) || mapped.code !== ErrorCode.ThreadNotFound) return reply.fail(mapped);
          // Codex only runs turns on threads loaded in this process: after a restart, load it and try once more.
          this.codex('thread/resume', { threadId: p.threadId }, p.threadId).then(
            () => this.forward('turn/start', params, reply, p.threadId, map),
            () => reply.fail(mapped),
          );
        },
      });
    },
    'turn/interrupt': (p: P<'turn/interrupt'>, reply: Reply) =>
      this.forward('turn/interrupt', { threadId: p.threadId, turnId: p.turnId }, reply, p.threadId, () => {
        return { turn: this.turns.get(p.turnId) ?? { id: p.turnId, threadId: p.threadId, status: 'running', input: this.turnInputs.get(p.turnId) ?? [] } };
      }),
    'turn/steer': (p: P<'turn/steer'>, reply: Reply) => {
      const input = p.input.map((i) => ({ type: 'text', text: i.text, text_elements: [] }));
      this.forward('turn/steer', { threadId: p.threadId, expectedTurnId: p.expectedTurnId, input }, reply, p.threadId, (r) => ({
        threadId: p.threadId,
        turnId: str(r.turnId) ?? p.expectedTurnId,
        queued: false,
      }));
    },
    'approval/resolve': (p: P<'approval/resolve'>, reply: Reply) => {
      this.approvals.resolve(p);
      reply.ok({});
    },
    'model/list': (_p: P<'model/list'>, reply: Reply) =>
      this.forward('model/list', {}, reply, undefined, (r) => ({
        models: (Array.isArray(r.data) ? r.data : [])
          .map(asRecord)
          .filter((m) => m.hidden !== true && typeof m.id === 'string')
          .map((m) => ({
            id: m.id as string,
            ...(str(m.displayName) ? { displayName: str(m.displayName) } : {}),
            provider: 'codex',
            ...(typeof m.isDefault === 'boolean' ? { isDefault: m.isDefault } : {}),
          })),
      })),
  };

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
        if (raw.type === 'fileChange' && typeof raw.id === 'string') {
          if (method === 'item/started') this.pendingChanges.set(raw.id, raw.changes);
          else this.pendingChanges.delete(raw.id);
        }
        const item = mapItem(raw, { turnId, final: method === 'item/completed' });
        if (item) this.emit(method, { threadId, turnId, item });
        return;
      }
      case 'item/agentMessage/delta':
      case 'item/reasoning/summaryTextDelta':
      case 'item/reasoning/textDelta': {
        const itemId = str(p.itemId);
        const delta = str(p.delta);
        if (!threadId || !turnId || !itemId || delta === undefined) return;
        const out = method === 'item/agentMessage/delta' ? method : 'item/reasoning/delta';
        return this.emit(out, { threadId, turnId, itemId, delta });
      }
      case 'serverRequest/resolved': {
        // Codex withdrew a request we still show (interrupt, turn end): settle it as cancelled without answering Codex.
        const id = p.requestId as RequestId;
        const approval = this.approvalByCodexId.get(id);
        if (approval !== undefined) {
          this.approvalByCodexId.delete(id);
          this.approvals.withdrawById(approval, 'cancelled');
        }
        return;
      }
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

  protected onAgentRequest(method: string, params: unknown, reply: Reply): void {
    const p = asRecord(params);
    const threadId = str(p.threadId) ?? '';
    const turnId = str(p.turnId) ?? '';
    switch (method) {
      case 'item/commandExecution/requestApproval': {
        const command = str(p.command);
        return this.askApproval(reply, {
          threadId,
          turnId,
          toolName: 'shell',
          preview: command ?? str(p.reason) ?? 'Run a command',
          arguments: { command, cwd: p.cwd, reason: p.reason ?? undefined },
          choices: choicesFrom(p.availableDecisions),
          // Codex's acceptForSession approves this exact command for the rest of the session.
          sessionScope: 'command',
        });
      }
      case 'item/fileChange/requestApproval': {
        const changes = this.pendingChanges.get(str(p.itemId) ?? '');
        const paths = Array.isArray(changes) ? changes.map((c) => str(asRecord(c).path)).filter(Boolean) : [];
        return this.askApproval(reply, {
          threadId,
          turnId,
          toolName: 'apply_patch',
          preview: str(p.reason) ?? (paths.length > 0 ? `Change ${paths.join(', ')}` : 'Apply file changes'),
          arguments: { changes: changes ?? [], reason: p.reason ?? undefined, grantRoot: p.grantRoot ?? undefined },
          choices: ['allow', 'allow_session', 'deny'],
        });
      }
      case 'item/tool/call':
        return this.callClientTool(p, reply);
      default:
        return reply.fail(new RpcError(-32601, `Method not found: Tether cannot answer Codex's ${method}`));
    }
  }

  private askApproval(reply: Reply, spec: ApprovalSpec): void {
    const requestId = this.approvals.ask(spec, (outcome) => {
      if (this.approvalByCodexId.delete(reply.id)) reply.ok({ decision: codexDecision(outcome) });
    });
    this.approvalByCodexId.set(reply.id, requestId);
  }

  private callClientTool(p: Record<string, unknown>, reply: Reply): void {
    const params = {
      threadId: str(p.threadId) ?? '',
      turnId: str(p.turnId) ?? '',
      callId: str(p.callId) ?? '',
      tool: str(p.tool) ?? '',
      arguments: p.arguments ?? {},
    };
    const failed = (message: string) => reply.ok({ success: false, contentItems: [{ type: 'inputText', text: message }] });
    this.client.call('item/tool/call', params, {
      ok: (result) => {
        const parsed = ToolCallResult.safeParse(result);
        if (!parsed.success) return failed(`The browser returned an unreadable result for ${params.tool}`);
        reply.ok({
          success: parsed.data.success,
          contentItems: parsed.data.content.map((c) =>
            c.type === 'text' ? { type: 'inputText', text: c.text } : { type: 'inputImage', imageUrl: `data:${c.mimeType};base64,${c.data}` },
          ),
        });
      },
      fail: (error) => failed(`The browser could not run ${params.tool}: ${error.message}`),
    });
  }

  /** Codex keeps a title only through `thread/name/set`; a failure costs the title, not the thread. */
  private nameThread(threadId: string, name: string): void {
    this.agent.call('thread/name/set', { threadId, name }, { ok: () => undefined, fail: (e) => this.log(`codex: thread/name/set failed: ${e.message}`) });
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

  /** One request to Codex, its errors translated. */
  private codex(method: string, params: unknown, threadId?: string): Promise<unknown> {
    return this.agent.request(method, params).catch((error: unknown) => {
      throw mapCodexError(error, { method, threadId });
    });
  }

  /** Sends `method` to Codex and answers the client synchronously with `map(result)`, keeping message order. */
  private forward(
    method: string,
    params: unknown,
    reply: Reply,
    threadId: string | undefined,
    map: (result: Record<string, unknown>) => unknown,
  ): void {
    this.agent.call(method, params, {
      ok: (result) => {
        try {
          reply.ok(map(asRecord(result)));
        } catch (error) {
          reply.fail(error);
        }
      },
      fail: (error) => reply.fail(mapCodexError(error, { method, threadId })),
    });
  }
}
