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

interface Waiter {
  readonly matches: (n: ReceivedNotification) => boolean;
  readonly resolve: (n: ReceivedNotification) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The notifications nobody subscribed to, kept (bounded, oldest dropped first) for callers that wait for one,
 * so that a notification arriving around a response is never lost to a caller who awaits the response first.
 */
export class NotificationQueue {
  private backlog: ReceivedNotification[] = [];
  private head = 0;
  private readonly waiters = new Set<Waiter>();
  private closedWith: Error | undefined;

  constructor(
    private readonly limit: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Number of notifications held in the backlog. */
  get size(): number {
    return this.backlog.length - this.head;
  }

  /**
   * Offers a live notification to the waiters (the oldest matching one consumes it); when none takes it and
   * `keep` is true it goes to the backlog. Returns whether a waiter took it.
   */
  offer(n: ReceivedNotification, keep: boolean): boolean {
    for (const w of this.waiters) {
      if (!safeMatch(w, n, this.log)) continue;
      this.waiters.delete(w);
      w.resolve(n);
      return true;
    }
    if (keep) this.push(n);
    return false;
  }

  /** Resolves with the oldest backlog entry that matches, or the next live one; see WaitOptions for rejection. */
  take(matches: (n: ReceivedNotification) => boolean, what: string, opts: WaitOptions = {}): Promise<ReceivedNotification> {
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

  /** Rejects every waiter (and every later call) with `error`; drops the backlog. */
  close(error: Error = new TransportClosedError()): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const w of [...this.waiters]) w.reject(error);
    this.backlog = [];
    this.head = 0;
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
