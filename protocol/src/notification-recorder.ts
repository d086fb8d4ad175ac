/**
 * Waiting for notifications, for tests and `tether debug`: the production connection delivers notifications to its
 * subscribers and keeps none, so a caller that needs "the first X, even if it came before I asked" attaches a recorder.
 */
import type { Connection } from './connection';
import type { NotificationParamsOut, Side } from './connection-types';
import { NotificationTimeoutError, TransportClosedError } from './errors';

/** One received notification. */
export interface ReceivedNotification {
  readonly method: string;
  readonly params: unknown;
}

/** How long and until what a waiter waits. */
export interface WaitOptions {
  /** Rejects with NotificationTimeoutError after this many ms; 0/undefined = no limit. */
  timeoutMs?: number;
  /** Rejects with the signal's reason when it aborts. */
  signal?: AbortSignal;
}

/** Options of a recorder. */
export interface RecorderOptions {
  /** How many notifications are kept for later waits (default 10000); past it the oldest is dropped and logged. */
  readonly limit?: number;
  readonly log?: (line: string) => void;
}

interface Waiter {
  readonly matches: (n: ReceivedNotification) => boolean;
  readonly resolve: (n: ReceivedNotification) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Records the notifications of one connection (bounded, oldest dropped first) for callers that wait for one, so that a
 * notification arriving around a response is never lost to a caller who awaits the response first. A notification
 * taken by a wait is consumed. Attach it right after the connection is made (delivery is asynchronous).
 */
export class NotificationRecorder<In extends Side = Side> {
  private backlog: ReceivedNotification[] = [];
  private head = 0;
  private readonly waiters = new Set<Waiter>();
  private closedWith: Error | undefined;
  private readonly limit: number;
  private readonly log: (line: string) => void;
  private readonly off: () => void;

  constructor(connection: Connection<In, Side>, options: RecorderOptions = {}) {
    this.limit = options.limit ?? 10_000;
    this.log = options.log ?? (() => {});
    this.off = connection.onNotification('*', (params, method) => this.offer({ method, params }));
    void connection.closed.then((error) =>
      this.close(
        new TransportClosedError(
          error ? `Connection closed: ${error.message}` : 'Connection closed',
          error ? { cause: error } : undefined,
        ),
      ),
    );
  }

  /** Number of notifications recorded and not yet taken. */
  get size(): number {
    return this.backlog.length - this.head;
  }

  /** Resolves with the params of the first notification `method` (recorded, else live) that satisfies `predicate`. */
  waitFor<M extends keyof In['notifications'] & string>(
    method: M,
    predicate?: (params: NotificationParamsOut<In>[M]) => boolean,
    opts?: WaitOptions,
  ): Promise<NotificationParamsOut<In>[M]>;
  waitFor(method: string, predicate?: (params: unknown) => boolean, opts?: WaitOptions): Promise<unknown>;
  async waitFor(method: string, predicate?: (params: never) => boolean, opts?: WaitOptions): Promise<unknown> {
    const test = predicate as ((params: unknown) => boolean) | undefined;
    const n = await this.take((x) => x.method === method && (!test || test(x.params)), method, opts);
    return n.params;
  }

  /** Resolves with the oldest recorded notification, else the next one that arrives. */
  next(opts?: WaitOptions): Promise<ReceivedNotification> {
    return this.take(() => true, 'next', opts);
  }

  /** Stops recording; waiters (and later calls) reject with `error`; drops what was recorded. */
  close(error: Error = new TransportClosedError('Notification recorder closed')): void {
    if (this.closedWith) return;
    this.closedWith = error;
    this.off();
    for (const w of [...this.waiters]) w.reject(error);
    this.backlog = [];
    this.head = 0;
  }

  /** Gives a live notification to the oldest waiter it matches, else records it. */
  private offer(n: ReceivedNotification): void {
    if (this.closedWith) return;
    for (const w of this.waiters) {
      if (!safeMatch(w, n, this.log)) continue;
      this.waiters.delete(w);
      w.resolve(n);
      return;
    }
    this.push(n);
  }

  private take(
    matches: (n: ReceivedNotification) => boolean,
    what: string,
    opts: WaitOptions = {},
  ): Promise<ReceivedNotification> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    let found: ReceivedNotification | undefined;
    try {
      found = this.removeFirst(matches);
    } catch (error) {
      return Promise.reject(error);
    }
    if (found) return Promise.resolve(found);
    return new Promise<ReceivedNotification>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => settle(() => reject(opts.signal?.reason));
      const settle = (finish: () => void): void => {
        this.waiters.delete(waiter);
        if (timer !== undefined) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        finish();
      };
      const waiter: Waiter = {
        matches,
        resolve: (n) => settle(() => resolve(n)),
        reject: (e) => settle(() => reject(e)),
      };
      this.waiters.add(waiter);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      if (opts.timeoutMs && opts.timeoutMs > 0) {
        const ms = opts.timeoutMs;
        timer = setTimeout(() => settle(() => reject(new NotificationTimeoutError(what, ms))), ms);
      }
    });
  }

  private push(n: ReceivedNotification): void {
    if (this.size >= this.limit) {
      const dropped = this.backlog[this.head++];
      this.log(`notification backlog full (${this.limit}): dropped the oldest, ${dropped?.method}`);
    }
    this.backlog.push(n);
    // Compact now and then so the array does not grow with the number of notifications ever received.
    if (this.head > 1024 && this.head * 2 > this.backlog.length) {
      this.backlog = this.backlog.slice(this.head);
      this.head = 0;
    }
  }

  private removeFirst(matches: (n: ReceivedNotification) => boolean): ReceivedNotification | undefined {
    for (let i = this.head; i < this.backlog.length; i++) {
      const n = this.backlog[i]!;
      if (!matches(n)) continue;
      if (i === this.head) this.head++;
      else this.backlog.splice(i, 1);
      return n;
    }
    return undefined;
  }
}

function safeMatch(w: Waiter, n: ReceivedNotification, log: (line: string) => void): boolean {
  try {
    return w.matches(n);
  } catch (error) {
    // A throwing predicate must not break delivery to everyone else; the waiter learns why.
    log(`notification predicate threw on ${n.method}: ${String(error)}`);
    w.reject(error);
    return false;
  }
}
