/**
 * What every dialect adapter shares: the Tether-side transport handed to the host, served by the same session gate and
 * approval broker as the app-server (so every backend behaves the same to the extension), one Connection to the agent,
 * and the ordering rule between the two: an agent's answer is read synchronously, and what the agent sends after it
 * waits until the translated answer has reached the client.
 */
import {
  type ApprovalRequestParams,
  Connection,
  createMemoryTransportPair,
  type InitializeParams,
  type InitializeResult,
  type Item,
  type MessageTransport,
  type RequestContext,
  RpcError,
  serverInbound,
  serverNotifications,
  type ServerNotificationMethod,
  type ServerNotificationParams,
  serverRequests,
} from '@tether/protocol';
import { type ApprovalPeer, Approvals, type ApprovalSettlement } from '../session/approvals';
import { capabilitiesOf } from '../session/capabilities';
import { type Handlers, SessionGate } from '../session/gate';
import type { DialectAdapterOptions } from './dialects';

/** Options every adapter factory takes (the host's contract). */
export type AdapterOptions = DialectAdapterOptions;

/** The client requests an adapter implements besides `initialize`, typed from the protocol rows. */
export type AdapterHandlers = Omit<Handlers, 'initialize'>;

/** What to ask the user; the adapter adds the request id. */
export type ApprovalSpec = Pick<
  ApprovalRequestParams,
  'threadId' | 'turnId' | 'toolName' | 'preview' | 'arguments' | 'choices' | 'sessionScope'
>;

/** Who the agent is; the capabilities follow from the handler table. */
export type AgentIdentity = Pick<InitializeResult, 'serverInfo' | 'protocolVersion' | 'supportedTransports'>;

type Outbound = { requests: typeof serverRequests; notifications: typeof serverNotifications };

/** Base of the codex and acp adapters. */
export abstract class AdapterCore {
  /** The Tether-protocol side; the host talks to this. */
  readonly transport: MessageTransport;
  protected readonly client: Connection<typeof serverInbound, Outbound>;
  protected readonly agent: Connection;
  protected readonly approvals: Approvals;
  protected readonly log: (line: string) => void;
  protected clientCapabilities: NonNullable<InitializeParams['capabilities']> = {};
  private readonly gate: SessionGate;
  private readonly clientPeer: ApprovalPeer;
  private readonly implemented: readonly string[];
  /** The agent's requests not answered yet, by id (see answerOnce). */
  private readonly agentAsks = new Map<unknown, Promise<unknown>>();
  private approvalCounter = 0;

  constructor(
    upstream: MessageTransport,
    protected readonly options: AdapterOptions,
    wire: { readonly jsonrpc: boolean; readonly agentName: string },
  ) {
    this.log = options.log;
    const [outer, inner] = createMemoryTransportPair({ clone: false });
    this.transport = outer;
    this.client = new Connection(inner, {
      inbound: serverInbound,
      outbound: { requests: serverRequests, notifications: serverNotifications },
      log: (line) => this.log(`client: ${line}`),
    });
    const client = this.client;
    this.clientPeer = {
      id: 1,
      get isOpen(): boolean {
        return !client.isClosed;
      },
      request: (method, params, signal) => client.request(method, params, { signal }),
    };
    this.agent = new Connection(upstream, {
      jsonrpc: wire.jsonrpc,
      answerDecodeErrors: false,
      log: (line) => this.log(`${wire.agentName}: ${line}`),
    });
    this.gate = new SessionGate({
      send: (method, params) => {
        if (!this.client.isClosed) this.client.notify(method, params);
      },
      unsupported: (method) => RpcError.unsupported(method, this.options.backendId),
      log: (line) => this.log(`client: ${line}`),
    });
    this.approvals = new Approvals(({ threadId, turnId, requestId }, decision) => {
      this.emit('approval/resolved', { threadId, turnId, requestId, decision });
    }, this.log);
    void this.client.closed.then(() => {
      this.approvals.withdraw('cancelled');
      this.agent.close();
    });
    void this.agent.closed.then((error) => {
      this.log(`${wire.agentName}: connection to the agent closed${error ? `: ${error.message}` : ''}`);
      this.approvals.withdraw('cancelled');
      this.onAgentClosed();
      // Let what was just emitted (withdrawn approvals) reach the client before its side closes.
      setTimeout(() => this.client.close(), 0);
    });
    // Registered before any message can arrive: transports deliver on a later microtask at the earliest.
    const methods = this.handlers();
    this.implemented = Object.keys(methods);
    this.gate.serve(this.client, {
      ...methods,
      initialize: async (params) => {
        this.clientCapabilities = params.capabilities ?? {};
        const identity = await this.initializeAgent(params);
        return { ...identity, capabilities: this.capabilities() };
      },
    });
    this.agent.setFallbackRequestHandler((method, params, ctx) => this.answerOnce(method, params, ctx));
    this.agent.onNotification('*', (params, method) => this.onAgentNotification(method, params));
  }

  /** Initializes the agent and says who it is (the capabilities follow from `methods`). */
  protected abstract initializeAgent(params: InitializeParams): Promise<AgentIdentity>;
  /**
   * Client requests this backend implements; the rest answer -32013. Called once from this constructor, before the
   * subclass's fields exist: the handlers may use them only when they run.
   */
  protected abstract handlers(): AdapterHandlers;
  /** Whether the backend runs the client's tools (`item/tool/call`). */
  protected abstract readonly runsClientTools: boolean;
  /** A notification from the agent. Must never throw on unknown input. */
  protected abstract onAgentNotification(method: string, params: unknown): void;
  /** A request from the agent: its answer, or a promise of it (one that never settles leaves it unanswered). */
  protected abstract onAgentRequest(method: string, params: unknown, ctx: RequestContext): unknown;
  /** The agent went away. */
  protected onAgentClosed(): void {}

  /**
   * Codex sends its pending requests again to a client that resumes their thread (the daemon's browser coming back),
   * under the same id: the first is still being answered, so the repeat asks the browser nothing and gets no answer.
   */
  private answerOnce(method: string, params: unknown, ctx: RequestContext): unknown {
    if (this.agentAsks.has(ctx.id)) {
      this.log(`the agent sent ${method} ${JSON.stringify(ctx.id)} again while it is being answered; answered once`);
      return new Promise<never>(() => undefined);
    }
    const answer = Promise.resolve().then(() => this.onAgentRequest(method, params, ctx));
    this.agentAsks.set(ctx.id, answer);
    const forget = () => this.agentAsks.delete(ctx.id);
    answer.then(forget, forget);
    return answer;
  }

  /** What `initialize` says this backend can do: derived from the handler table. */
  protected capabilities(): InitializeResult['capabilities'] {
    return capabilitiesOf(this.implemented, { approvalRequests: true, clientTools: this.runsClientTools });
  }

  /** Sends a notification to the client (opt-outs, holds and the `initialized` gate apply). */
  protected emit<M extends ServerNotificationMethod>(method: M, params: ServerNotificationParams<M>): void {
    this.gate.notify(method, params);
  }

  /**
   * Sends `method` to the agent on behalf of the client request answered through `ctx`, and resolves with `map` of its
   * result. `map` runs synchronously when the answer is read, before the agent's next message is handled, so it sees
   * the state the answer speaks of (Codex may answer turn/interrupt, then end the turn). From that answer until the
   * client's answer is written, notifications to the client wait: the client learns the answer before what the agent
   * sent after it (Codex answers turn/start, then says turn/started).
   */
  protected agentRequest<T>(
    method: string,
    params: unknown,
    ctx: RequestContext,
    map: (result: unknown) => T,
  ): Promise<T> {
    return new Promise((resolve, reject) =>
      this.agent.call(method, params, {
        ok: (result) => {
          ctx.afterAnswer(this.gate.hold());
          try {
            resolve(map(result));
          } catch (error) {
            reject(error);
          }
        },
        fail: (error) => {
          ctx.afterAnswer(this.gate.hold());
          reject(error);
        },
      }),
    );
  }

  /** Asks the client about `spec` (`approval/requested` first); resolves with how it was decided. */
  protected askApproval(spec: ApprovalSpec): {
    readonly requestId: string;
    readonly settled: Promise<ApprovalSettlement>;
  } {
    const params: ApprovalRequestParams = { ...spec, requestId: `approval_${++this.approvalCounter}` };
    this.emit('approval/requested', params);
    return { requestId: params.requestId, settled: this.approvals.request(params, [this.clientPeer]) };
  }

  /** The backend's dialect-specific `options` from the config file. */
  protected get backendOptions(): Record<string, unknown> {
    return this.options.backend?.options ?? {};
  }

  /** The -32013 error for `method` on this backend. */
  protected unsupported(method: string): RpcError {
    return RpcError.unsupported(method, this.options.backendId);
  }
}

/** The items after `afterItemId`; -32602 when the thread has no such item (as the app-server answers). */
export function itemsAfter<T extends Pick<Item, 'id'>>(
  items: readonly T[],
  afterItemId: string | undefined,
  threadId: string,
): T[] {
  if (afterItemId === undefined) return [...items];
  const index = items.findIndex((i) => i.id === afterItemId);
  if (index < 0) throw RpcError.itemNotFound(threadId, afterItemId);
  return items.slice(index + 1);
}

/** Milliseconds from a Unix time in seconds (Codex and ACP agents use seconds or ISO strings). */
export function secondsToMs(seconds: unknown, fallback: number): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? Math.round(seconds * 1000)
    : fallback;
}

/** Reads `value` as a record, or an empty one: agents' payloads are never trusted to have a shape. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
