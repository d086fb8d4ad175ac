/**
 * Keeps one live connection to the native host: connect, `bridge/hello`, `initialize`, `initialized`; after any
 * disconnect, reconnect with backoff and jitter. The state it reports never lies: `connected` only after the
 * handshake answered, and a failure keeps the browser's own words as the reason.
 */
import {
  AppServerClient,
  ErrorCode,
  PROTOCOL_VERSION,
  redactText,
  RpcError,
  type BridgeHelloResult,
  type ClientTool,
  type InitializeResult,
  errorMessage,
} from '@tether/protocol';
import { z } from 'zod';
import type { AgentFix, ConnectionState, VersionSkew } from '../../shared/records';
import { retryDelayMs } from './backoff';
import { NativePortTransport, type PortLike } from './native-port';
import { VersionSkewError, versionSkew } from './version-skew';

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
  /** The connection that was ready is gone, and with it any running turn. */
  onLost(loss: LinkLoss): void;
  now(): number;
  random(): number;
  log(line: string): void;
}

type Timer = ReturnType<typeof setTimeout>;

/** Why a ready connection went away: its host stopped, its backend stopped, or the user switched backends. */
export interface LinkLoss {
  readonly cause: 'host-stopped' | 'backend-stopped' | 'backend-switched';
  /** The browser's or host's own words (redacted). */
  readonly reason: string;
}

/**
 * Where the link is. Each phase holds what exists only in it: a client from the port's opening to its close, the
 * handshake's answers once connected, a timer while waiting.
 */
export type LinkPhase =
  /** Not started. */
  | { readonly status: 'idle' }
  /** Opening the native port. */
  | { readonly status: 'connecting'; readonly attempt: number; readonly reason?: string }
  /** The port is open; `bridge/hello` and `initialize` are on their way. */
  | { readonly status: 'handshaking'; readonly client: AppServerClient; readonly attempt: number }
  /** The port is open but its backend exited: the handshake is redone when the host has started a new one. */
  | {
      readonly status: 'backendRestart';
      readonly client: AppServerClient;
      readonly attempt: number;
      readonly reason: string;
      readonly retryAtMs: number;
      readonly timer: Timer;
    }
  /** The handshake answered at `sinceMs`; requests may flow. */
  | {
      readonly status: 'connected';
      readonly client: AppServerClient;
      readonly info: HostInfo;
      readonly sinceMs: number;
    }
  /** The port closed or the handshake failed: the next attempt waits for the timer. */
  | {
      readonly status: 'backoff';
      readonly attempt: number;
      readonly reason: string;
      readonly retryAtMs: number;
      readonly timer: Timer;
      /** How long the connection this failure ended had been up; absent when there was none. */
      readonly upForMs?: number;
      /** The host answered with a protocol this extension does not speak. */
      readonly skew?: VersionSkew;
      /** The backend's agent (or this Tether) is too old, and the command that updates it. */
      readonly fix?: AgentFix;
    };

/** The client of a phase that has one. */
function clientOf(phase: LinkPhase): AppServerClient | undefined {
  return 'client' in phase ? phase.client : undefined;
}

/** How many attempts have failed in a row (0 once connected). */
function attemptOf(phase: LinkPhase): number {
  return 'attempt' in phase ? phase.attempt : 0;
}

/** What pages see of a phase entered at `sinceMs`. */
function publicState(phase: LinkPhase, sinceMs: number): ConnectionState {
  switch (phase.status) {
    case 'idle':
      return { status: 'disconnected', attempt: 0, sinceMs };
    case 'connecting':
      return {
        status: 'connecting',
        attempt: phase.attempt,
        ...(phase.reason ? { reason: phase.reason } : {}),
        sinceMs,
      };
    case 'handshaking':
      return { status: 'connecting', attempt: phase.attempt, sinceMs };
    case 'backendRestart':
      return {
        status: 'connecting',
        attempt: phase.attempt,
        reason: phase.reason,
        retryAtMs: phase.retryAtMs,
        sinceMs,
      };
    case 'connected':
      return { status: 'connected', attempt: 0, sinceMs };
    case 'backoff':
      return {
        status: 'disconnected',
        attempt: phase.attempt,
        reason: phase.reason,
        retryAtMs: phase.retryAtMs,
        ...(phase.upForMs === undefined ? {} : { upForMs: phase.upForMs }),
        ...(phase.skew === undefined ? {} : { skew: phase.skew }),
        ...(phase.fix === undefined ? {} : { fix: phase.fix }),
        sinceMs,
      };
  }
}

/** The native connection and its reconnect loop. */
export class HostLink {
  private phaseValue: LinkPhase = { status: 'idle' };
  private published: ConnectionState;

  constructor(private readonly deps: HostLinkDeps) {
    this.published = publicState(this.phaseValue, deps.now());
  }

  /** Where the link is now. */
  get phase(): LinkPhase {
    return this.phaseValue;
  }

  /** The state pages were last told. */
  get state(): ConnectionState {
    return this.published;
  }

  /** The client, only while the handshake is done and the port is open. */
  get client(): AppServerClient | undefined {
    return this.phaseValue.status === 'connected' ? this.phaseValue.client : undefined;
  }

  /** What the handshake learned, while connected. */
  get info(): HostInfo | undefined {
    return this.phaseValue.status === 'connected' ? this.phaseValue.info : undefined;
  }

  /** Connects unless a port is open or opening; a waiting retry happens now. */
  start(): void {
    const { status } = this.phaseValue;
    if (status === 'idle' || status === 'backoff')
      void this.connectOnce(status === 'idle' ? 0 : this.phaseValue.attempt);
  }

  /** Ends a wait for the next attempt and goes idle (a connection in progress or up is left alone). */
  stopWaiting(): void {
    if ('timer' in this.phaseValue) this.go({ status: 'idle' });
  }

  /** Drops any waiting and tries now, counting attempts from zero (the user pressed Retry); no-op while a port is open. */
  retryNow(): void {
    if (clientOf(this.phaseValue)) return;
    this.go({ status: 'idle' });
    this.start();
  }

  /** Closes and reconnects at once (the backend choice changed). */
  restart(): void {
    const old = this.phaseValue;
    this.go({ status: 'idle' });
    clientOf(old)?.close();
    if (old.status === 'connected') this.deps.onLost({ cause: 'backend-switched', reason: 'Switching backend.' });
    this.start();
  }

  /**
   * The host says its backend process ended (`bridge/backend/exited`). The port is fine but the new backend needs a
   * fresh `initialize`, so the link goes back to `connecting` with that reason and redoes the handshake on the same port.
   */
  backendExited(why: string, restartInMs: number | undefined): void {
    const old = this.phaseValue;
    const client = clientOf(old);
    if (!client) return;
    const reason = redactText(why);
    const delay = Math.max(0, restartInMs ?? 0);
    const timer = setTimeout(() => {
      if (this.phaseValue.status === 'backendRestart' && this.phaseValue.timer === timer)
        void this.completeHandshake(client, attemptOf(this.phaseValue));
    }, delay);
    this.go({
      status: 'backendRestart',
      client,
      attempt: attemptOf(old) + 1,
      reason,
      retryAtMs: this.deps.now() + delay,
      timer,
    });
    if (old.status === 'connected') this.deps.onLost({ cause: 'backend-stopped', reason });
    this.publish();
  }

  /** Moves to `phase` without telling pages (the phase they see did not change), ending the old phase's timer. */
  private go(phase: LinkPhase): void {
    const old = this.phaseValue;
    if ('timer' in old && old !== phase) clearTimeout(old.timer);
    this.phaseValue = phase;
  }

  /** Moves to `phase` and tells pages. */
  private enter(phase: LinkPhase): void {
    this.go(phase);
    this.publish();
  }

  /** Tells pages the current phase. */
  private publish(): void {
    this.published = publicState(this.phaseValue, this.deps.now());
    this.deps.onState(this.published);
  }

  private async connectOnce(attempt: number): Promise<void> {
    const last = this.published.status === 'connected' ? undefined : this.published.reason;
    this.enter({ status: 'connecting', attempt, ...(last && attempt > 0 ? { reason: last } : {}) });
    let client: AppServerClient;
    try {
      const transport = new NativePortTransport(this.deps.connect(), {
        lastError: this.deps.lastError,
        onBatch: (messages) => (clientOf(this.phaseValue) === client ? this.deps.onBatch(messages) : []),
      });
      client = new AppServerClient(transport, { log: (line) => this.deps.log(`connection: ${line}`) });
    } catch (error) {
      this.fail(errorMessage(error), attempt);
      return;
    }
    this.deps.attach(client);
    void client.closed.then((error) => {
      const phase = this.phaseValue;
      if (clientOf(phase) !== client) return;
      const reason = redactText(error?.message ?? 'The connection to the Tether host was closed.');
      this.go({ status: 'idle' });
      if (phase.status === 'connected') {
        // A host that was working stopped: pages say so (not "is it installed?") and mark the turn it was running.
        this.deps.onLost({ cause: 'host-stopped', reason });
        this.fail(reason, 0, { upForMs: this.deps.now() - phase.sinceMs });
      } else this.fail(reason, attemptOf(phase));
    });
    await this.completeHandshake(client, attempt);
  }

  private async completeHandshake(client: AppServerClient, attempt: number): Promise<void> {
    const phase: LinkPhase = { status: 'handshaking', client, attempt };
    this.go(phase);
    try {
      const info = await this.handshake(client);
      // Anything since (a close, a restart, a backend exit and its new handshake) makes this answer stale.
      if (this.phaseValue !== phase) return;
      this.enter({ status: 'connected', client, info, sinceMs: this.deps.now() });
      this.deps.onReady(client, info);
    } catch (error) {
      if (this.phaseValue !== phase) return;
      // A handshake that fails on an open port (bad answer, timeout, a host of another protocol) is a dead link too:
      // close and retry (the user may update the older side meanwhile).
      const skew = error instanceof VersionSkewError ? error.skew : undefined;
      const fix = agentFixOf(error);
      const reason = redactText(
        skew || fix ? errorMessage(error) : `The Tether host did not complete the handshake: ${errorMessage(error)}`,
      );
      this.deps.log(reason);
      this.go({ status: 'idle' });
      client.close();
      this.fail(reason, attempt, { ...(skew ? { skew } : {}), ...(fix ? { fix } : {}) });
    }
  }

  private async handshake(client: AppServerClient): Promise<HostInfo> {
    const opts = { timeoutMs: HANDSHAKE_TIMEOUT_MS };
    let hello: BridgeHelloResult | undefined;
    try {
      const backend = this.deps.backend();
      hello = await client.bridgeHello(
        { clientInfo: this.deps.clientInfo, protocolVersion: PROTOCOL_VERSION, ...(backend ? { backend } : {}) },
        opts,
      );
    } catch (error) {
      // A plain app-server (no bridge) answers -32601; it still works with its defaults.
      if (!(error instanceof RpcError && error.code === ErrorCode.MethodNotFound)) throw error;
    }
    // Checked before `initialize`: a host of another protocol may not understand what follows.
    const skew = hello && versionSkew(hello, this.deps.clientInfo.version);
    if (skew) throw new VersionSkewError(skew);
    const init = await client.initialize(
      {
        clientInfo: this.deps.clientInfo,
        capabilities: { experimentalApi: true, clientTools: [...this.deps.clientTools] },
      },
      opts,
    );
    return { ...(hello ? { hello } : {}), init };
  }

  /**
   * Waits before the next attempt; `attempt` is the number that failed in a row before this one, `upForMs` how long
   * the connection this failure ended had been up.
   */
  private fail(
    why: string,
    attempt: number,
    { upForMs, skew, fix }: { upForMs?: number; skew?: VersionSkew; fix?: AgentFix } = {},
  ): void {
    // The reason is shown on every page and kept in the connection log: never with a key in it.
    const reason = redactText(why);
    const next = attempt + 1;
    const delay = retryDelayMs(next, this.deps.random());
    const timer = setTimeout(() => {
      if (this.phaseValue.status === 'backoff' && this.phaseValue.timer === timer) this.start();
    }, delay);
    this.enter({
      status: 'backoff',
      attempt: next,
      reason,
      retryAtMs: this.deps.now() + delay,
      timer,
      ...(upForMs === undefined ? {} : { upForMs }),
      ...(skew === undefined ? {} : { skew }),
      ...(fix === undefined ? {} : { fix }),
    });
  }
}

/** The agent's update command from a backend that refused to start over versions (`data.fix`, `data.olderSide`). */
function agentFixOf(error: unknown): AgentFix | undefined {
  if (!(error instanceof RpcError)) return undefined;
  const data = AgentFixData.safeParse(error.data);
  return data.success ? { olderSide: data.data.olderSide, command: data.data.fix } : undefined;
}

const AgentFixData = z.object({ olderSide: z.enum(['agent', 'tether']), fix: z.string().min(1) });
