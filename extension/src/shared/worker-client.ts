/**
 * A page's link to the service worker: one runtime Port, `hello` first, request/response calls, pushed messages.
 * When the worker stops (MV3 workers do), the Port closes; the page reconnects at once, which restarts the worker,
 * and says hello again so the worker resends state and the full thread. A ping keeps the worker alive while a page
 * is open and the host is down (an open native port does that otherwise).
 */
import { z } from 'zod';
import { VIEW_PORT_NAME, WorkerToView, type ViewKind, type WorkerPush } from './messages';
import { resultSchema, type ViewOp, type ViewOpParams, type ViewOpResult } from './operations';

/** An error the worker answered a call with, or an answer the page could not read. */
export class WorkerCallError extends Error {
  override readonly name = 'WorkerCallError';
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

interface PendingCall {
  /** Parses the raw result with the operation's schema and settles the caller's promise. */
  settle(result: unknown): void;
  reject(error: Error): void;
}

const PING_INTERVAL_MS = 20_000;

/** The page side of the worker connection. */
export class WorkerClient {
  private port: chrome.runtime.Port | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly listeners = new Set<(message: WorkerPush) => void>();
  private readonly linkListeners = new Set<(up: boolean) => void>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly early: WorkerPush[] = [];

  constructor(
    private readonly view: ViewKind,
    private tabId: number | null,
  ) {}

  /** Connects (and reconnects whenever the worker goes away). */
  start(): void {
    this.connect();
    this.pingTimer ??= setInterval(() => this.post({ type: 'ping' }), PING_INTERVAL_MS);
  }

  /** Switches the tab this page serves (Firefox sidebar following the active tab). */
  setTab(tabId: number | null): void {
    this.tabId = tabId;
    this.post({ type: 'hello', view: this.view, tabId });
  }

  /** Subscribes to pushed messages; returns the unsubscribe function. */
  onMessage(listener: (message: WorkerPush) => void): () => void {
    this.listeners.add(listener);
    // Messages that came before the page's UI subscribed (its effects run after the first paint) are not lost.
    const early = this.early.splice(0);
    for (const m of early) listener(m);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes to the worker link going down/up (the worker restarting); called at once with the current value. */
  onLink(listener: (up: boolean) => void): () => void {
    this.linkListeners.add(listener);
    listener(this.port !== undefined);
    return () => this.linkListeners.delete(listener);
  }

  /** Calls a worker operation; resolves with its result as the operation's row types it, rejects with WorkerCallError. */
  call<O extends ViewOp>(op: O, params: ViewOpParams<O>): Promise<ViewOpResult<O>> {
    const id = this.nextId++;
    const schema = resultSchema(op);
    return new Promise((resolve, reject) => {
      const settle = (raw: unknown): void => {
        const parsed = schema.safeParse(raw);
        if (parsed.success) resolve(parsed.data);
        else
          reject(
            new WorkerCallError(
              `The extension answered ${op} with something this page cannot read: ${z.prettifyError(parsed.error)}`,
            ),
          );
      };
      this.pending.set(id, { settle, reject });
      if (!this.post({ type: 'call', id, op, params })) {
        this.pending.delete(id);
        reject(new WorkerCallError('The extension is restarting; try again in a moment.'));
      }
    });
  }

  private post(message: unknown): boolean {
    if (!this.port) return false;
    try {
      this.port.postMessage(message);
      return true;
    } catch {
      return false;
    }
  }

  private connect(): void {
    const port = chrome.runtime.connect({ name: VIEW_PORT_NAME });
    this.port = port;
    port.onMessage.addListener((message: unknown) => this.receive(message));
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = undefined;
      for (const [, p] of this.pending)
        p.reject(new WorkerCallError('The extension restarted before answering; try again.'));
      this.pending.clear();
      for (const l of this.linkListeners) l(false);
      // Reconnecting wakes the worker up again.
      setTimeout(() => this.connect(), 100);
    });
    this.post({ type: 'hello', view: this.view, tabId: this.tabId });
    for (const l of this.linkListeners) l(true);
  }

  private receive(raw: unknown): void {
    const parsed = WorkerToView.safeParse(raw);
    if (!parsed.success) {
      // Only this extension's worker answers on this port, so this is a bug in one of the two, not an attack.
      console.error(
        `[tether] dropped a message from the worker that does not fit the table: ${z.prettifyError(parsed.error)}`,
      );
      return;
    }
    const message = parsed.data;
    if (message.type === 'result' || message.type === 'error') {
      const p = this.pending.get(message.id);
      if (!p) return;
      this.pending.delete(message.id);
      if (message.type === 'result') p.settle(message.result);
      else p.reject(new WorkerCallError(message.error.message, message.error.code));
      return;
    }
    if (this.listeners.size === 0) this.early.push(message);
    for (const l of this.listeners) l(message);
  }
}
