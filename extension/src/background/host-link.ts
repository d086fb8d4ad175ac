/**
 * Keeps one live connection to the native host: connect, `bridge/hello`, `initialize`, `initialized`; after any
 * disconnect, reconnect with backoff and jitter. The state it reports never lies: `connected` only after the
 * handshake answered, and a failure keeps the browser's own words as the reason.
 */
import { AppServerClient, ErrorCode, redactText, RpcError, type BridgeHelloResult, type ClientTool, type InitializeResult } from '@tether/protocol';
import type { ConnectionState } from '../shared/messages';
import { retryDelayMs } from './backoff';
import { NativePortTransport, type PortLike } from './native-port';

/** How long the handshake may take before the attempt counts as failed. */
export const HANDSHAKE_TIMEOUT_MS = 20_000;

/** What a successful handshake learned. */
export interface HostInfo {
  /** Undefined when the peer is a plain app-server without the bridge's `bridge/hello`. */
  readonly hello?: BridgeHelloResult;
  readonly init: InitializeResult;
}

/** What HostLink needs from the worker. */
export interface HostLinkDeps {
  connect(): PortLike;
  lastError(): string | undefined;
  readonly clientInfo: { name: string; version: string };
  readonly clientTools: readonly ClientTool[];
  /** The backend the user chose (undefined = the host's default). */
  backend(): string | undefined;
  /** Sees each host frame first (see NativePortTransport). */
  onBatch(messages: unknown[]): unknown[];
  /** Registers server-request handlers on a fresh client, before any traffic. */
  attach(client: AppServerClient): void;
  onState(state: ConnectionState): void;
  onReady(client: AppServerClient, info: HostInfo): void;
  /** The connection that was ready (or trying) is gone. */
  onLost(reason: string): void;
  now(): number;
  random(): number;
  log(line: string): void;
}

/** The native connection and its reconnect loop. */
export class HostLink {
  private current: AppServerClient | undefined;
  private ready = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stateValue: ConnectionState;

  constructor(private readonly deps: HostLinkDeps) {
    this.stateValue = { status: 'disconnected', attempt: 0, sinceMs: deps.now() };
  }

  /** The current state. */
  get state(): ConnectionState {
    return this.stateValue;
  }

  /** The client, only while the handshake is done and the port is open. */
  get client(): AppServerClient | undefined {
    return this.ready ? this.current : undefined;
  }

  /** Connects unless connected or connecting. */
  start(): void {
    if (this.current) return;
    this.clearTimer();
    void this.connectOnce();
  }

  /** Drops any waiting and tries now (the user pressed Retry). */
  retryNow(): void {
    if (this.current && this.ready) return;
    this.attempt = 0;
    this.start();
  }

  /** Closes and reconnects at once (the backend choice changed). */
  restart(): void {
    const old = this.current;
    const wasReady = this.ready;
    this.current = undefined;
    this.ready = false;
    old?.close();
    if (wasReady) this.deps.onLost('Switching backend.');
    this.attempt = 0;
    this.start();
  }

  /**
   * The host says its backend process ended (`bridge/backend/exited`). The port is fine but the new backend needs a
   * fresh `initialize`, so the link goes back to `connecting` with that reason and redoes the handshake on the same port.
   */
  backendExited(why: string, restartInMs: number | undefined): void {
    const client = this.current;
    if (!client) return;
    const reason = redactText(why);
    const wasReady = this.ready;
    this.ready = false;
    if (wasReady) this.deps.onLost(reason);
    this.attempt += 1;
    const delay = Math.max(0, restartInMs ?? 0);
    this.setState({ status: 'connecting', reason, attempt: this.attempt, retryAtMs: this.deps.now() + delay });
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.current === client) void this.completeHandshake(client);
    }, delay);
  }

  private setState(state: Omit<ConnectionState, 'sinceMs'>): void {
    this.stateValue = { ...state, sinceMs: this.deps.now() };
    this.deps.onState(this.stateValue);
  }

  private async connectOnce(): Promise<void> {
    const last = this.stateValue.reason;
    this.setState({ status: 'connecting', attempt: this.attempt, ...(last && this.attempt > 0 ? { reason: last } : {}) });
    let client: AppServerClient;
    try {
      const transport = new NativePortTransport(this.deps.connect(), {
        lastError: this.deps.lastError,
        onBatch: (messages) => (this.current === client ? this.deps.onBatch(messages) : []),
      });
      client = new AppServerClient(transport, { log: (line) => this.deps.log(`connection: ${line}`) });
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    this.current = client;
    this.deps.attach(client);
    void client.closed.then((error) => {
      if (this.current !== client) return;
      this.current = undefined;
      const wasReady = this.ready;
      this.ready = false;
      const reason = error?.message ?? 'The connection to the Tether host was closed.';
      if (wasReady) this.deps.onLost(reason);
      this.fail(reason);
    });
    await this.completeHandshake(client);
  }

  private async completeHandshake(client: AppServerClient): Promise<void> {
    try {
      const info = await this.handshake(client);
      if (this.current !== client) return;
      this.ready = true;
      this.attempt = 0;
      this.setState({ status: 'connected', attempt: 0 });
      this.deps.onReady(client, info);
    } catch (error) {
      if (this.current !== client) return;
      // A handshake that fails on an open port (bad answer, timeout) is a dead link too: close and retry.
      const reason = redactText(`The Tether host did not complete the handshake: ${error instanceof Error ? error.message : String(error)}`);
      this.deps.log(reason);
      this.current = undefined;
      client.close();
      this.fail(reason);
    }
  }

  private async handshake(client: AppServerClient): Promise<HostInfo> {
    const opts = { timeoutMs: HANDSHAKE_TIMEOUT_MS };
    let hello: BridgeHelloResult | undefined;
    try {
      const backend = this.deps.backend();
      hello = await client.bridgeHello({ clientInfo: this.deps.clientInfo, ...(backend ? { backend } : {}) }, opts);
    } catch (error) {
      // A plain app-server (no bridge) answers -32601; it still works with its defaults.
      if (!(error instanceof RpcError && error.code === ErrorCode.MethodNotFound)) throw error;
    }
    const init = await client.initialize(
      { clientInfo: this.deps.clientInfo, capabilities: { experimentalApi: true, clientTools: [...this.deps.clientTools] } },
      opts,
    );
    return { ...(hello ? { hello } : {}), init };
  }

  private fail(why: string): void {
    // The reason is shown on every page and kept in the connection log: never with a key in it.
    const reason = redactText(why);
    this.attempt += 1;
    const delay = retryDelayMs(this.attempt, this.deps.random());
    this.setState({ status: 'disconnected', reason, attempt: this.attempt, retryAtMs: this.deps.now() + delay });
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
