/**
 * What every dialect adapter shares: the Tether-side transport handed to the host, the lifecycle gate
 * (`initialize` first, once; notifications held until `initialized`), parameter validation from the method table,
 * -32013 for methods the backend cannot do, opt-out of notifications, and the approval broker.
 */
import {
  clientRequests,
  type ClientRequestMethod,
  InitializeParams,
  type InitializeResult,
  createMemoryTransportPair,
  type MessageTransport,
  RpcError,
  type ServerNotificationMethod,
} from '@tether/protocol';
import { ApprovalBroker } from './dialect-approvals';
import { type Reply, RpcPeer } from './dialect-peer';
import type { DialectAdapterOptions } from './dialects';

/** Options every adapter factory takes (the host's contract). */
export type AdapterOptions = DialectAdapterOptions;

/** Handles one validated client request; answer through `reply` (throwing or rejecting answers with the error). */
export type MethodHandler = (params: never, reply: Reply) => void | Promise<void>;

const MAX_HELD_NOTIFICATIONS = 10_000;

/** Base of the codex, acp and vv adapters. */
export abstract class AdapterCore {
  /** The Tether-protocol side; the host talks to this. */
  readonly transport: MessageTransport;
  protected readonly client: RpcPeer;
  protected readonly agent: RpcPeer;
  protected readonly approvals: ApprovalBroker;
  protected readonly log: (line: string) => void;
  protected clientCapabilities: NonNullable<InitializeParams['capabilities']> = {};
  private phase: 'new' | 'initializing' | 'ready' = 'new';
  private clientReady = false;
  private held: Array<[string, unknown]> = [];
  private optOut = new Set<string>();

  constructor(
    upstream: MessageTransport,
    protected readonly options: AdapterOptions,
    wire: { readonly jsonrpc: boolean; readonly agentName: string },
  ) {
    this.log = options.log;
    const [outer, inner] = createMemoryTransportPair({ clone: false });
    this.transport = outer;
    this.client = new RpcPeer(inner, { jsonrpc: false, name: 'client', log: this.log });
    this.agent = new RpcPeer(upstream, { jsonrpc: wire.jsonrpc, name: wire.agentName, log: this.log });
    this.approvals = new ApprovalBroker(this.client, (m, p) => this.emit(m, p), this.log);
    // Both peers start on the next microtask so that subclass fields exist before any message is handled.
    queueMicrotask(() => {
      this.client.start({
        onRequest: (method, params, reply) => this.dispatch(method, params, reply),
        onNotification: (method) => {
          if (method === 'initialized') this.markClientReady();
        },
        onClose: () => {
          this.approvals.withdraw('cancelled');
          this.agent.close();
        },
      });
      this.agent.start({
        onRequest: (method, params, reply) => this.onAgentRequest(method, params, reply),
        onNotification: (method, params) => this.onAgentNotification(method, params),
        onClose: (error) => {
          this.log(`${wire.agentName}: connection to the agent closed${error ? `: ${error.message}` : ''}`);
          this.approvals.withdraw('cancelled');
          this.onAgentClosed();
          // Let what was just emitted (withdrawn approvals) reach the client before its side closes.
          setTimeout(() => this.client.close(), 0);
        },
      });
    });
  }

  /** Initializes the agent and says what this backend can do. */
  protected abstract initializeAgent(params: InitializeParams): Promise<InitializeResult>;
  /** Client requests this backend supports; the rest answer -32013. */
  protected abstract readonly methods: Partial<Record<ClientRequestMethod, MethodHandler>>;
  /** A notification from the agent. Must never throw on unknown input. */
  protected abstract onAgentNotification(method: string, params: unknown): void;
  /** A request from the agent. */
  protected abstract onAgentRequest(method: string, params: unknown, reply: Reply): void;
  /** The agent went away. */
  protected onAgentClosed(): void {}

  /** Sends a notification to the client, unless opted out; held until the client said `initialized`. */
  protected emit(method: ServerNotificationMethod | string, params: unknown): void {
    if (this.optOut.has(method)) return;
    if (!this.clientReady) {
      if (this.held.length < MAX_HELD_NOTIFICATIONS) this.held.push([method, params]);
      return;
    }
    this.client.notify(method, params);
  }

  /** The backend's dialect-specific `options` from the config file. */
  protected get backendOptions(): Record<string, unknown> {
    return this.options.backend?.options ?? {};
  }

  /** The -32013 error for `method` on this backend. */
  protected unsupported(method: string): RpcError {
    return RpcError.unsupported(method, this.options.backendId);
  }

  private markClientReady(): void {
    if (this.clientReady) return;
    this.clientReady = true;
    const held = this.held;
    this.held = [];
    for (const [m, p] of held) this.emit(m, p);
  }

  private dispatch(method: string, rawParams: unknown, reply: Reply): void {
    if (method === 'initialize') {
      this.initialize(rawParams, reply);
      return;
    }
    if (this.phase !== 'ready') return reply.fail(RpcError.notInitialized());
    if (!Object.hasOwn(clientRequests, method)) return reply.fail(RpcError.methodNotFound(method));
    const parsed = clientRequests[method as ClientRequestMethod].params.safeParse(rawParams);
    if (!parsed.success) return reply.fail(RpcError.invalidParams(method, parsed.error));
    const handler = this.methods[method as ClientRequestMethod];
    if (!handler) return reply.fail(this.unsupported(method));
    try {
      const pending = (handler as (p: unknown, r: Reply) => void | Promise<void>)(parsed.data, reply);
      if (pending) pending.catch((error: unknown) => reply.fail(error));
    } catch (error) {
      reply.fail(error);
    }
  }

  private initialize(rawParams: unknown, reply: Reply): void {
    if (this.phase !== 'new') return reply.fail(RpcError.alreadyInitialized());
    const parsed = InitializeParams.safeParse(rawParams);
    if (!parsed.success) return reply.fail(RpcError.invalidParams('initialize', parsed.error));
    this.phase = 'initializing';
    this.clientCapabilities = parsed.data.capabilities ?? {};
    this.optOut = new Set(this.clientCapabilities.optOutNotificationMethods ?? []);
    this.initializeAgent(parsed.data).then(
      (result) => {
        this.phase = 'ready';
        reply.ok(result);
      },
      (error: unknown) => {
        this.phase = 'new';
        reply.fail(error);
      },
    );
  }
}

/** Milliseconds from a Unix time in seconds (Codex and ACP agents use seconds or ISO strings). */
export function secondsToMs(seconds: unknown, fallback: number): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : fallback;
}

/** Reads `value` as a record, or an empty one: agents' payloads are never trusted to have a shape. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
