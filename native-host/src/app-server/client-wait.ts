/**
 * Client-tool calls waiting for a client to serve them. In the daemon a turn outlives the browser connection that
 * started it; a page tool called while no browser is connected waits (bounded) for one to come back rather than
 * failing at once, and fails with words the model can pass on when none does. Whoever can change the answer (a
 * client that finished `initialize`, a client that subscribed to a thread) calls `changed()`.
 */
import type { Peer } from './peer';

/** An engine's clients as its sessions see them: who is connected, the waits, and how long a wait lasts. */
export interface EngineClients {
  readonly open: Iterable<Peer>;
  readonly waits: ClientWaits;
  /** AppServerConfig.clientToolWaitMs. */
  readonly waitMs: number;
}

/** The waits in progress; `find` is asked again on each change. */
export class ClientWaits {
  private readonly waiting = new Set<() => void>();

  /** Waits in progress (for logs and tests). */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Resolves with the first peer `find` returns, asking again after each change, or undefined once `timeoutMs`
   * passed or `signal` aborted (the turn ended).
   */
  wait(find: () => Peer | undefined, timeoutMs: number, signal: AbortSignal): Promise<Peer | undefined> {
    const now = find();
    if (now || timeoutMs <= 0 || signal.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (peer: Peer | undefined): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.waiting.delete(check);
        resolve(peer);
      };
      const check = (): void => {
        const peer = find();
        if (peer) done(peer);
      };
      const aborted = (): void => done(undefined);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      signal.addEventListener('abort', aborted, { once: true });
      this.waiting.add(check);
    });
  }

  /** A client became able to serve tools, or subscribed to a thread: the waits look again. */
  changed(): void {
    for (const check of [...this.waiting]) check();
  }
}
