/**
 * Keeps a command backend (Codex, an ACP agent, a `tether`-dialect app-server) and its running turns alive after
 * its relay went away: the turns are counted from what the backend sends (`turn/started`, `turn/completed`, which
 * every dialect adapter emits), and once detached, requests the backend makes of the browser are declined at once
 * (nothing is approved for a browser that is not there) so a turn never waits for an answer that cannot come. The
 * embedded backend needs none of this: its engine is shared by the daemon and outlives every connection.
 */
import { TurnCompletedNotification, TurnStartedNotification } from '@tether/protocol';
import { parseJsonPayload } from '@tether/protocol/codec';
import { ErrorCode, RpcError } from '@tether/protocol/errors';
import type { Backend, BackendSink } from '../backends/types';
import { forEachBatchMember, mayNeedScan, scanEnvelope, shapeOf } from '../host/envelope-scan';

const TURN_METHOD = Buffer.from('"turn/');

/** Counts one connection's running turns and, once detached, answers its backend's requests in the browser's place. */
export class TurnWatch {
  private readonly running = new Set<string>();
  private detached = false;
  private idle: Array<() => void> = [];

  /** Turns the watched backends are running now. */
  get runningTurns(): number {
    return this.running.size;
  }

  /** The backend, its output watched (the same backend when it is the embedded one). */
  watch(backend: Backend): Backend {
    if (backend.config.kind === 'embedded') return backend;
    return {
      id: backend.id,
      config: backend.config,
      get pid() {
        return backend.pid;
      },
      start: (sink) => backend.start(this.sinkFor(backend, sink)),
      send: (parts, length) => backend.send(parts, length),
      sendRange: (chunk, start, end) => backend.sendRange(chunk, start, end),
      pauseOutput: (paused) => backend.pauseOutput(paused),
      stop: () => backend.stop(),
    };
  }

  private sinkFor(backend: Backend, sink: BackendSink): BackendSink {
    return {
      problem: (message) => sink.problem(message),
      inputPressure: (high) => sink.inputPressure(high),
      message: (chunk, start, end) => {
        this.inspect(backend, chunk, start, end);
        sink.message(chunk, start, end);
      },
      messageParts: (parts, length) => {
        this.inspect(backend, Buffer.concat(parts, length), 0, length);
        sink.messageParts(parts, length);
      },
      exit: (info) => {
        this.running.clear();
        this.settle();
        sink.exit(info);
      },
    };
  }

  /** The relay is gone: from now on requests are declined; resolves once no turn runs. */
  detach(): Promise<void> {
    this.detached = true;
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private inspect(backend: Backend, chunk: Buffer, start: number, end: number): void {
    if (shapeOf(chunk, start, end) === 'array') {
      const batch = chunk.subarray(start, end);
      forEachBatchMember(batch, (s, e) => this.inspectOne(backend, batch, s, e));
    } else this.inspectOne(backend, chunk, start, end);
  }

  private inspectOne(backend: Backend, chunk: Buffer, start: number, end: number): void {
    const view = chunk.subarray(start, end);
    const mentionsTurn = view.indexOf(TURN_METHOD) >= 0;
    if (!mentionsTurn && !(this.detached && mayNeedScan(chunk, start, end))) return;
    const envelope = scanEnvelope(view);
    if (envelope.method === 'turn/started' || envelope.method === 'turn/completed') this.track(envelope.method, view);
    else if (this.detached && envelope.id !== undefined && envelope.method !== undefined && !envelope.isResponse) {
      const error = new RpcError(
        ErrorCode.InternalError,
        `No browser is connected to answer ${envelope.method}: the user closed it; it can be reopened to continue.`,
      );
      const reply = Buffer.from(`{"id":${envelope.id},"error":${JSON.stringify(error.toJSON())}}`);
      backend.send([reply], reply.length);
    }
  }

  private track(method: 'turn/started' | 'turn/completed', view: Buffer): void {
    let params: unknown;
    try {
      const message = parseJsonPayload(view, 'Notification');
      params = typeof message === 'object' && message !== null && 'params' in message ? message.params : undefined;
    } catch {
      return;
    }
    const parsed = (method === 'turn/started' ? TurnStartedNotification : TurnCompletedNotification).safeParse(params);
    if (!parsed.success) return;
    if (method === 'turn/started') this.running.add(parsed.data.turn.id);
    else this.running.delete(parsed.data.turn.id);
    this.settle();
  }

  private settle(): void {
    if (this.running.size > 0) return;
    const waiters = this.idle;
    this.idle = [];
    for (const resolve of waiters) resolve();
  }
}
