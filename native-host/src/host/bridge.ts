/**
 * Routes messages between the browser and one backend. Only `bridge/*` messages are interpreted; everything else
 * moves as bytes. To fail pending requests with -32050 when a backend dies, the router scans (never parses) each
 * message from the browser for its top-level id and method, which the browser sends few of, and the backend's
 * messages for a response id only while some request is pending (PendingRequests). The backend's life (start,
 * crash backoff, restart, switch) is the BackendSupervisor's; bridge methods come from the protocol's rows
 * (bridge-methods.ts).
 */
import type { BridgeBackendExitedNotification } from '@tether/protocol';
import { parseJsonPayload } from '@tether/protocol/codec';
import { RpcError, errorMessage } from '@tether/protocol/errors';
import { GARBAGE_REPORT_BURST, garbageLineReport } from '../backends/garbage-line';
import type { Backend } from '../backends/types';
import type { HostConfig } from '../config/defaults';
import type { BackendConfig } from '../config/schema';
import type { Log } from '../log';
import type { PathEnv } from '../paths';
import type { McpHub } from '../mcp/hub';
import { clientToolsOf } from '../mcp/tools';
import { BackendSupervisor, type BackendGone } from './backend-supervisor';
import { preview, splitBatch } from './batch';
import type { ConfigDeps } from './bridge-config';
import { BRIDGE_LIMITS, backendInfos, requireBackend } from './bridge-hello';
import {
  type BridgeHandlers,
  type BridgeParams,
  type BridgeResult,
  callBridgeMethod,
  isBridgeMethod,
} from './bridge-methods';
import { type Envelope, mayNeedScan, mayNeedScanParts, scanEnvelope, shapeOf, shapeOfParts } from './envelope-scan';
import type { FrameWriter } from './frame-writer';
import { HostCalls } from './host-calls';
import { SharedTabs } from './mcp-share';
import { PendingRequests } from './pending-requests';
import { ReportLimit } from '../report-limit';

const NOT_A_REQUEST: Envelope = { shape: 'object', id: undefined, method: undefined, isResponse: false };

/** Options of Bridge. */
export interface BridgeOptions {
  readonly config: HostConfig;
  readonly writer: FrameWriter;
  readonly createBackend: (id: string, config: BackendConfig) => Backend;
  readonly log: Log;
  readonly hostVersion: string;
  /** The bridge protocol version `bridge/hello` reports (PROTOCOL_VERSION; tests may simulate an older host). */
  readonly protocolVersion: string;
  /** Stop (true) or resume (false) reading the browser's input, when the backend cannot keep up. */
  readonly setInputPaused: (paused: boolean) => void;
  /** When set, the host cannot serve (e.g. invalid config): every request is answered with this -32050 error. */
  readonly unavailable?: RpcError;
  readonly now?: () => number;
  /** The host's MCP server: told the browser's client tools, and routing external clients' calls to a shared tab. */
  readonly mcp?: McpHub;
  /** Where `bridge/config/*` finds the config file (default: the host's own environment). */
  readonly pathEnv?: PathEnv;
  /** What `bridge/hello` says of the daemon: its version when it serves this connection, or why it could not. */
  readonly daemon?: { readonly daemonVersion: string } | { readonly daemonUnavailable: string };
}

/** The message router of one browser connection. */
export class Bridge {
  private readonly supervisor: BackendSupervisor;
  private readonly pending = new PendingRequests();
  /** Messages waiting for a backend to start (or to finish stopping); tracked only once sent. */
  private queue: Array<{ parts: Buffer[]; length: number; envelope: Envelope }> = [];
  private readonly garbage: ReportLimit;
  private readonly refusals: ReportLimit;
  private readonly methods: BridgeHandlers = {
    'bridge/hello': (params) => this.hello(params),
    'bridge/backend/restart': () => this.restart(),
    'bridge/mcp/share': async (params) => {
      if (!this.shared) throw RpcError.methodNotFound('bridge/mcp/share (this host serves no MCP)');
      return this.shared.share(params);
    },
    // Loaded on first use: Zod and the endpoint code would cost every host start-up for a page seldom opened.
    'bridge/config/read': async (params) =>
      (await import('./bridge-config')).readConfigState(this.configDeps(), params?.detectLocal ?? false),
    'bridge/config/write': async (params) => (await import('./bridge-config')).writeConfig(this.configDeps(), params),
    'bridge/config/test': async (params) => (await import('./bridge-config')).testEndpoint(this.configDeps(), params),
    'bridge/files/read': async (params) => (await import('./files-read')).readFiles(params),
  };
  /** Tabs shared with external MCP clients. */
  private readonly shared: SharedTabs | undefined;
  /** The host's own requests to the browser. */
  private readonly hostCalls: HostCalls;

  constructor(private readonly options: BridgeOptions) {
    const now = options.now ?? Date.now;
    this.garbage = new ReportLimit(GARBAGE_REPORT_BURST, now);
    this.refusals = new ReportLimit(GARBAGE_REPORT_BURST, now);
    const { config, createBackend, log, setInputPaused } = options;
    this.hostCalls = new HostCalls((text) => options.writer.enqueueText(text));
    if (options.mcp) {
      this.shared = new SharedTabs({
        request: (method, params, signal) => this.hostCalls.request(method, params, signal),
        notify: (method, params) => this.notify(method, params),
        log,
        now,
      });
      options.mcp.setExternal(this.shared);
    }
    this.supervisor = new BackendSupervisor(
      { config, createBackend, log, setInputPaused, now },
      {
        started: (backend) => this.sendQueued(backend),
        output: {
          message: (chunk, start, end) => this.fromBackendRange(chunk, start, end),
          messageParts: (parts, length) => this.fromBackend(parts, length),
          problem: (message) => this.reportProblem(message),
        },
        gone: (event) => this.backendGone(event),
      },
    );
  }

  /** One message from the browser whose bytes are `chunk[start, end)` (the common case: the hot path). */
  fromBrowserRange(chunk: Buffer, start: number, end: number): void {
    // Fast path: without an "id" key anywhere the message is no request (nothing to track), and without "bridge/"
    // it is none of the host's own: pass it on as it is, no scan, no copy. (An id key spelt with escapes, e.g.
    // "\u0069d", would go untracked: no JSON encoder writes that.)
    if (!mayNeedScan(chunk, start, end) && shapeOf(chunk, start, end) === 'object') {
      const backend = this.options.unavailable ? undefined : this.supervisor.ready;
      if (backend) backend.sendRange(chunk, start, end);
      else this.forward([chunk.subarray(start, end)], end - start, NOT_A_REQUEST);
      return;
    }
    this.route(chunk.subarray(start, end));
  }

  /** One message from the browser whose bytes are spread over several buffers. */
  fromBrowser(parts: Buffer[], length: number): void {
    if (!mayNeedScanParts(parts) && shapeOfParts(parts, length) === 'object') {
      this.forward(parts, length, NOT_A_REQUEST);
      return;
    }
    this.route(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length));
  }

  /** Stops the backend (EOF, SIGTERM, SIGKILL) and flushes what is queued for the browser. */
  async shutdown(): Promise<void> {
    this.queue = [];
    this.hostCalls.rejectAll('the browser connection is closing');
    await this.supervisor.shutdown();
    await this.options.writer.whenIdle();
  }

  /** The browser is (true) or is no longer (false) behind: stop reading the backend's output meanwhile. */
  outputPressure(high: boolean): void {
    this.supervisor.pauseOutput(high);
  }

  /** Routes a message that may be a request or a bridge message, after reading its envelope. */
  private route(payload: Buffer): void {
    const envelope = scanEnvelope(payload);
    switch (envelope.shape) {
      case 'blank':
        return;
      case 'invalid':
        this.refuse(RpcError.parseError(`a message must be one valid JSON object or array; got ${preview(payload)}`));
        return;
      case 'array':
        this.fromBrowserBatch(payload);
        return;
      case 'object':
        if (envelope.method?.startsWith('bridge/')) void this.handleBridge(payload, envelope);
        else if (envelope.isResponse && envelope.id !== undefined && this.hostCalls.owns(envelope.id))
          this.hostCalls.settle(envelope.id, payload);
        else {
          if (envelope.method === 'initialize' && this.options.mcp) this.readClientTools(payload);
          this.forward([payload], payload.length, envelope);
        }
    }
  }

  /** The browser's `initialize` declares its client tools: the MCP server offers the same (read once a connection). */
  private readClientTools(payload: Buffer): void {
    try {
      this.options.mcp?.setClientTools(clientToolsOf(parseJsonPayload(payload, 'Message')));
    } catch {
      // A malformed initialize is the backend's to answer; the tools stay as they were.
    }
  }

  private fromBrowserBatch(payload: Buffer): void {
    const batch = splitBatch(payload);
    if (batch instanceof RpcError) {
      this.refuse(batch);
      return;
    }
    for (const member of batch) {
      if (member instanceof RpcError) this.refuse(member);
      else this.fromBrowserRange(payload, member.start, member.end);
    }
  }

  /** Answers a message from the browser that cannot be routed (id null: its id cannot be read) and logs why. */
  private refuse(error: RpcError): void {
    this.replyError('null', error);
    const held = this.refusals.admit();
    if (held !== undefined)
      this.options.log(
        `refused a message from the browser: ${error.message}${held ? ` (${held} more were refused since the last report)` : ''}`,
      );
  }

  private forward(parts: Buffer[], length: number, envelope: Envelope): void {
    if (this.options.unavailable) {
      if (envelope.id !== undefined && envelope.method !== undefined)
        this.replyError(envelope.id, this.options.unavailable);
      return;
    }
    if (this.supervisor.shuttingDown) return;
    const backend = this.supervisor.ready;
    if (backend) {
      this.pending.track(envelope);
      backend.send(parts, length);
    } else {
      // Tracked only once sent: the backend being stopped meanwhile must not fail a request it never saw.
      this.queue.push({ parts, length, envelope });
      this.supervisor.ensureStarted();
    }
  }

  /** Sends what waited for a backend to the one just started. */
  private sendQueued(backend: Backend): void {
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) {
      this.pending.track(message.envelope);
      backend.send(message.parts, message.length);
    }
  }

  private fromBackendRange(chunk: Buffer, start: number, end: number): void {
    const shape = shapeOf(chunk, start, end);
    if (shape === 'object' && this.pending.size === 0) {
      this.options.writer.enqueueRange(chunk, start, end);
      return;
    }
    this.fromBackend([chunk.subarray(start, end)], end - start);
  }

  private fromBackend(parts: Buffer[], length: number): void {
    const shape = shapeOfParts(parts, length);
    if (shape === 'blank') return;
    if (shape === 'invalid') {
      this.reportGarbage(parts, length);
      return;
    }
    if (this.pending.size > 0) {
      const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
      if (shape === 'object') this.pending.settle(scanEnvelope(whole));
      else this.pending.settleBatch(whole);
    }
    this.options.writer.enqueue(parts, length, shape === 'array');
  }

  private backendGone(event: BackendGone): void {
    if (event.kind === 'crashed') {
      const { exit } = event;
      const params: BridgeBackendExitedNotification = {
        backend: event.backend,
        code: exit.code,
        signal: exit.signal,
        stderrTail: [...exit.stderrTail],
        message: `${event.reason}. The next request (or bridge/backend/restart) starts it again; send initialize first`,
        restartInMs: event.restartInMs,
      };
      this.notify('bridge/backend/exited', params);
    }
    this.pending.failAll(event.backend, event.reason, event.exit, (rawId, error) => this.replyError(rawId, error));
  }

  private async handleBridge(payload: Buffer, envelope: Envelope): Promise<void> {
    let message: unknown;
    try {
      message = parseJsonPayload(payload, 'Message');
    } catch (error) {
      this.refuse(RpcError.parseError(errorMessage(error)));
      return;
    }
    const params = typeof message === 'object' && message !== null && 'params' in message ? message.params : undefined;
    const rawId = envelope.id;
    if (rawId === undefined) return; // bridge notifications from the browser carry nothing the host must act on
    if (this.options.unavailable) {
      this.replyError(rawId, this.options.unavailable);
      return;
    }
    const method = envelope.method ?? '';
    try {
      if (!isBridgeMethod(method)) throw RpcError.methodNotFound(method);
      const result = await callBridgeMethod(this.methods, method, params);
      this.reply(rawId, { result });
      // Start the chosen backend now so its start-up overlaps the browser's next step, but only once the answer
      // is out: loading the embedded app-server would otherwise delay the first frame.
      if (method === 'bridge/hello')
        void this.options.writer.whenIdle().then(() => setImmediate(() => this.supervisor.ensureStarted()));
    } catch (error) {
      const rpc = error instanceof RpcError ? error : RpcError.internal(errorMessage(error), error);
      this.replyError(rawId, rpc);
    }
  }

  private async hello(params: BridgeParams<'bridge/hello'>): Promise<BridgeResult<'bridge/hello'>> {
    const wanted = params.backend;
    const client = params.clientInfo;
    const speaks = params.protocolVersion === undefined ? '' : `, protocol ${params.protocolVersion}`;
    this.options.log(
      `bridge/hello from ${client ? `${client.name} ${client.version}` : 'an unnamed client'}${speaks}${wanted ? `, backend ${wanted}` : ''}`,
    );
    if (wanted !== undefined) {
      requireBackend(wanted, this.options.config);
      await this.supervisor.select(wanted);
    }
    return {
      hostVersion: this.options.hostVersion,
      protocolVersion: this.options.protocolVersion,
      backend: this.supervisor.selected,
      backends: backendInfos(this.options.config),
      limits: BRIDGE_LIMITS,
      ...this.options.daemon,
    };
  }

  private configDeps(): ConfigDeps {
    return { ...this.options.pathEnv, log: this.options.log };
  }

  private async restart(): Promise<BridgeResult<'bridge/backend/restart'>> {
    await this.supervisor.restart();
    return { backend: this.supervisor.selected };
  }

  private reportGarbage(parts: Buffer[], length: number): void {
    const held = this.garbage.admit();
    if (held === undefined) return;
    const head = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, Math.min(length, 4096))).subarray(0, 200);
    this.reportProblem(garbageLineReport(this.supervisor.selected, head, held));
  }

  private reportProblem(message: string): void {
    this.options.log(`backend ${this.supervisor.selected}: ${message}`);
    this.notify('error', { message, code: 'backendProtocolError' });
  }

  private notify(method: string, params: unknown): void {
    this.options.writer.enqueueText(JSON.stringify({ method, params }));
  }

  /** Writes an error response; `rawId` is the id's JSON text as it arrived. */
  private replyError(rawId: string, error: RpcError): void {
    this.reply(rawId, { error: error.toJSON() });
  }

  /** Writes a response; `rawId` is the id's JSON text as it arrived (so it is echoed byte for byte). */
  private reply(rawId: string, body: { result: unknown } | { error: unknown }): void {
    const rest = JSON.stringify(body);
    this.options.writer.enqueueText(`{"id":${rawId},${rest.slice(1)}`);
  }
}
