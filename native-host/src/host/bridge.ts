/**
 * Routes messages between the browser and one backend. Only `bridge/*` messages are interpreted; everything else
 * moves as bytes. To fail pending requests with -32050 when a backend dies, the bridge tracks request ids cheaply:
 * it scans (never parses) each message from the browser for its top-level id and method, which the browser sends
 * few of, and scans the backend's messages for a response id only while some request is pending, which is rare
 * during a stream of deltas (turn/start is answered before its deltas start).
 */
import type { BridgeBackendExitedNotification, BridgeHelloResult } from '@tether/protocol';
import { parseJsonPayload } from '@tether/protocol/codec';
import { RpcError } from '@tether/protocol/errors';
import type { Backend, BackendExit, BackendSink } from '../backends/types';
import type { HostConfig } from '../config/defaults';
import type { BackendConfig } from '../config/schema';
import type { Log } from '../log';
import { preview, splitBatch } from './batch';
import { type Envelope, forEachBatchMember, mayNeedScan, mayNeedScanParts, scanEnvelope, shapeOf, shapeOfParts } from './envelope-scan';
import { BRIDGE_LIMITS, backendInfos, checkHelloParams, requireBackend } from './bridge-hello';
import type { FrameWriter } from './frame-writer';
import { ReportLimit } from './report-limit';

/** A backend that ran at least this long before crashing starts its crash count afresh. */
const STABLE_RUN_MS = 10_000;
/** Requests remembered at most; beyond, the oldest are forgotten (a backend that never answers must not grow us). */
const MAX_PENDING = 100_000;
/** Garbage lines (and refused messages) reported one by one before reports are rate-limited to one a second. */
const GARBAGE_REPORTS = 5;

const NOT_A_REQUEST: Envelope = { shape: 'object', id: undefined, method: undefined, isResponse: false };

/** Delay before restart number `crashes` in a row: 0, then 250 ms doubling up to 8 s. */
export function restartDelayMs(crashes: number): number {
  return crashes <= 1 ? 0 : Math.min(250 * 2 ** (crashes - 2), 8000);
}

/** Options of Bridge. */
export interface BridgeOptions {
  readonly config: HostConfig;
  readonly writer: FrameWriter;
  readonly createBackend: (id: string, config: BackendConfig) => Backend;
  readonly log: Log;
  readonly hostVersion: string;
  /** Stop (true) or resume (false) reading the browser's input, when the backend cannot keep up. */
  readonly setInputPaused: (paused: boolean) => void;
  /** When set, the host cannot serve (e.g. invalid config): every request is answered with this -32050 error. */
  readonly unavailable?: RpcError;
  readonly now?: () => number;
}

interface Run {
  readonly backend: Backend;
  readonly startedAt: number;
  /** Set when the host stops it on purpose; says why, for the requests it leaves unanswered. */
  stopReason?: string;
}

/** The message router of one browser connection. */
export class Bridge {
  private selected: string;
  private current: Run | undefined;
  private readonly pending = new Map<string, string>();
  private queue: Array<{ parts: Buffer[]; length: number; envelope: Envelope }> = [];
  private crashes = 0;
  private lastExitAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private transition: Promise<void> | undefined;
  private closing = false;
  private readonly garbage: ReportLimit;
  private readonly refusals: ReportLimit;
  private readonly now: () => number;

  constructor(private readonly options: BridgeOptions) {
    this.selected = options.config.defaultBackend;
    this.now = options.now ?? Date.now;
    this.garbage = new ReportLimit(GARBAGE_REPORTS, this.now);
    this.refusals = new ReportLimit(GARBAGE_REPORTS, this.now);
  }

  /** One message from the browser whose bytes are `chunk[start, end)` (the common case: the hot path). */
  fromBrowserRange(chunk: Buffer, start: number, end: number): void {
    // Fast path: without an "id" key anywhere the message is no request (nothing to track), and without "bridge/"
    // it is none of the host's own: pass it on as it is, no scan, no copy. (An id key spelt with escapes, e.g.
    // "\u0069d", would go untracked: no JSON encoder writes that.)
    if (!mayNeedScan(chunk, start, end) && shapeOf(chunk, start, end) === 'object') {
      if (this.current && !this.transition && !this.closing && !this.options.unavailable) {
        this.current.backend.sendRange(chunk, start, end);
      } else this.forward([chunk.subarray(start, end)], end - start, NOT_A_REQUEST);
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
        else this.forward([payload], payload.length, envelope);
    }
  }

  /** Stops the backend (EOF, SIGTERM, SIGKILL) and flushes what is queued for the browser. */
  async shutdown(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    this.queue = [];
    const run = this.current;
    if (run) await this.stopRun(run, 'the host is shutting down');
    await this.options.writer.whenIdle();
  }

  /** The browser is (true) or is no longer (false) behind: stop reading the backend's output meanwhile. */
  outputPressure(high: boolean): void {
    this.current?.backend.pauseOutput(high);
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
    if (held !== undefined) this.options.log(`refused a message from the browser: ${error.message}${held ? ` (${held} more were refused since the last report)` : ''}`);
  }

  private forward(parts: Buffer[], length: number, envelope: Envelope): void {
    if (this.options.unavailable) {
      if (envelope.id !== undefined && envelope.method !== undefined) this.reply(envelope.id, { error: this.options.unavailable.toJSON() });
      return;
    }
    if (this.closing) return;
    if (this.current && !this.transition) {
      this.track(envelope);
      this.current.backend.send(parts, length);
    } else {
      // Tracked only once sent: the backend being stopped meanwhile must not fail a request it never saw.
      this.queue.push({ parts, length, envelope });
      this.ensureStarted();
    }
  }

  /** Remembers a request sent to the current backend, to fail it with -32050 if that backend goes away. */
  private track(envelope: Envelope): void {
    if (envelope.id === undefined || envelope.method === undefined) return;
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(envelope.id, envelope.method);
  }

  private ensureStarted(): void {
    if (this.current || this.transition || this.restartTimer || this.closing || this.options.unavailable) return;
    const wait = this.lastExitAt + restartDelayMs(this.crashes) - this.now();
    if (wait > 0) {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        this.ensureStarted();
      }, wait);
      return;
    }
    this.startBackend();
  }

  private startBackend(): void {
    const id = this.selected;
    const backend = this.options.createBackend(id, requireBackend(id, this.options.config));
    const run: Run = { backend, startedAt: this.now() };
    this.current = run;
    backend.start(this.sinkFor(run));
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) {
      this.track(message.envelope);
      backend.send(message.parts, message.length);
    }
  }

  private sinkFor(run: Run): BackendSink {
    return {
      message: (chunk, start, end) => {
        if (this.current === run) this.fromBackendRange(chunk, start, end);
      },
      messageParts: (parts, length) => {
        if (this.current === run) this.fromBackend(parts, length);
      },
      problem: (message) => {
        if (this.current === run) this.reportProblem(message);
      },
      inputPressure: (high) => this.options.setInputPaused(high),
      exit: (info) => this.backendExited(run, info),
    };
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
      if (shape === 'object') this.settle(scanEnvelope(whole));
      else this.settleBatch(whole);
    }
    this.options.writer.enqueue(parts, length, shape === 'array');
  }

  private settle(envelope: Envelope): void {
    if (envelope.isResponse && envelope.method === undefined && envelope.id !== undefined) this.pending.delete(envelope.id);
  }

  private settleBatch(whole: Buffer): void {
    // Scanned in place, like the browser's batches; a malformed batch is the browser's to reject.
    forEachBatchMember(whole, (start, end) => {
      if (whole[start] === 0x7b /* { */) this.settle(scanEnvelope(whole.subarray(start, end)));
    });
  }

  private backendExited(run: Run, info: BackendExit): void {
    if (this.current !== run) return;
    this.current = undefined;
    this.options.setInputPaused(false);
    const id = run.backend.id;
    if (run.stopReason) {
      this.failPending(id, `the "${id}" backend was stopped (${run.stopReason})`, info);
      return;
    }
    const now = this.now();
    this.crashes = now - run.startedAt < STABLE_RUN_MS ? this.crashes + 1 : 1;
    this.lastExitAt = now;
    const last = info.stderrTail.at(-1);
    const detail = `${info.message}${last ? ` (its last stderr line: ${JSON.stringify(last)})` : ''}`;
    this.options.log(`backend ${id}: ${info.message}`);
    const params: BridgeBackendExitedNotification = {
      backend: id,
      code: info.code,
      signal: info.signal,
      stderrTail: [...info.stderrTail],
      message: `${detail}. The next request (or bridge/backend/restart) starts it again; send initialize first`,
      restartInMs: restartDelayMs(this.crashes),
    };
    this.notify('bridge/backend/exited', params);
    this.failPending(id, detail, info);
  }

  private failPending(id: string, reason: string, info: Pick<BackendExit, 'code' | 'signal'>): void {
    for (const [requestId, method] of this.pending) {
      const error = RpcError.backendUnavailable(`${method} was not answered: ${reason}`, {
        backend: id,
        method,
        code: info.code,
        signal: info.signal,
      });
      this.reply(requestId, { error: error.toJSON() });
    }
    this.pending.clear();
  }

  private async stopRun(run: Run, reason: string): Promise<void> {
    run.stopReason = reason;
    const stopping = run.backend.stop();
    this.transition = stopping;
    try {
      await stopping;
    } catch (error) {
      this.options.log(`backend ${run.backend.id}: stopping failed: ${(error as Error).message}`);
    }
    if (this.transition === stopping) this.transition = undefined;
    // The process is gone even when its last output has not been reported yet: fail what it left unanswered now.
    if (this.current === run) {
      this.current = undefined;
      this.failPending(run.backend.id, `the "${run.backend.id}" backend was stopped (${reason})`, { code: null, signal: null });
    }
  }

  private async handleBridge(payload: Buffer, envelope: Envelope): Promise<void> {
    let message: unknown;
    try {
      message = parseJsonPayload(payload, 'Message');
    } catch (error) {
      this.refuse(RpcError.parseError(error instanceof Error ? error.message : String(error)));
      return;
    }
    const params = typeof message === 'object' && message !== null && 'params' in message ? message.params : undefined;
    const rawId = envelope.id;
    if (rawId === undefined) return; // bridge notifications from the browser carry nothing the host must act on
    if (this.options.unavailable) {
      this.reply(rawId, { error: this.options.unavailable.toJSON() });
      return;
    }
    try {
      let result: unknown;
      if (envelope.method === 'bridge/hello') result = await this.hello(params);
      else if (envelope.method === 'bridge/backend/restart') result = await this.restart();
      else throw RpcError.methodNotFound(envelope.method ?? '');
      this.reply(rawId, { result });
      // Start the chosen backend now so its start-up overlaps the browser's next step, but only once the answer
      // is out: loading the embedded app-server would otherwise delay the first frame.
      if (envelope.method === 'bridge/hello') void this.options.writer.whenIdle().then(() => setImmediate(() => this.ensureStarted()));
    } catch (error) {
      const rpc = error instanceof RpcError ? error : RpcError.internal((error as Error).message, error);
      this.reply(rawId, { error: rpc.toJSON() });
    }
  }

  private async hello(rawParams: unknown): Promise<BridgeHelloResult> {
    const params = checkHelloParams(rawParams);
    const wanted = params.backend;
    const client = params.clientInfo;
    this.options.log(`bridge/hello from ${client ? `${client.name} ${client.version}` : 'an unnamed client'}${wanted ? `, backend ${wanted}` : ''}`);
    if (wanted !== undefined) requireBackend(wanted, this.options.config);
    if (wanted !== undefined && wanted !== this.selected) {
      const run = this.current;
      this.selected = wanted;
      this.crashes = 0;
      this.lastExitAt = 0;
      if (run) await this.stopRun(run, `the browser switched to the "${wanted}" backend`);
    }
    return {
      hostVersion: this.options.hostVersion,
      backend: this.selected,
      backends: backendInfos(this.options.config),
      limits: BRIDGE_LIMITS,
    };
  }

  private async restart(): Promise<{ backend: string }> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.crashes = 0;
    this.lastExitAt = 0;
    const run = this.current;
    if (run) await this.stopRun(run, 'restarted at the browser\'s request');
    if (!this.current && !this.closing) this.startBackend();
    return { backend: this.selected };
  }

  private reportGarbage(parts: Buffer[], length: number): void {
    const held = this.garbage.admit();
    if (held === undefined) return;
    const more = held > 0 ? ` (${held} more such lines were dropped since the last report)` : '';
    const head = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, Math.min(length, 4096))).subarray(0, 200);
    this.reportProblem(
      `The "${this.selected}" backend wrote a line that is not a JSON message; it was dropped${more}. ` +
        `A backend must write only JSON messages on stdout, one per line (logs go to stderr). The line began: ${JSON.stringify(head.toString('utf8'))}`,
    );
  }

  private reportProblem(message: string): void {
    this.options.log(`backend ${this.selected}: ${message}`);
    this.notify('error', { message, code: 'backendProtocolError' });
  }

  private notify(method: string, params: unknown): void {
    this.options.writer.enqueueText(JSON.stringify({ method, params }));
  }

  private replyError(rawId: string, error: RpcError): void {
    this.reply(rawId, { error: error.toJSON() });
  }

  /** Writes a response; `rawId` is the id's JSON text as it arrived (so it is echoed byte for byte). */
  private reply(rawId: string, body: { result: unknown } | { error: unknown }): void {
    const rest = JSON.stringify(body);
    this.options.writer.enqueueText(`{"id":${rawId},${rest.slice(1)}`);
  }
}
