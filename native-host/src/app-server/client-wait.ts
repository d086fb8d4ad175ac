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

/**
 * What a page-tool call answers when no browser came back in time to serve it: words the model can pass on. The
 * daemon's shared command backends (Codex, ACP agents) answer their agents' calls with the same words.
 */
export function browserClosedToolText(tool: string): string {
  return (
    `The browser is closed, so ${tool} could not run: no browser connected in time to serve it. ` +
    'The user can reopen the browser (and the Tether side panel on this thread) to let you use the page again; ' +
    'tell them so, or go on without the page.'
  );
}

/** The waits in progress; `find` is asked again on each change. */
export class ClientWaits {
  private readonly waiting = new Set<() => void>();

  /** Waits in progress (for logs and tests). */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Resolves with the first client `find` returns, asking again after each change, or undefined once `timeoutMs`
   * passed (never when it is Infinity) or `signal` aborted (the turn ended).
   */
  wait<T>(find: () => T | undefined, timeoutMs: number, signal: AbortSignal): Promise<T | undefined> {
    const now = find();
    if (now !== undefined || timeoutMs <= 0 || signal.aborted) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (peer: T | undefined): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.waiting.delete(check);
        resolve(peer);
      };
      const check = (): void => {
        const peer = find();
        if (peer !== undefined) done(peer);
      };
      const aborted = (): void => done(undefined);
      // setTimeout fires at once for delays past 2^31 ms: an endless wait has no timer.
      const timer = Number.isFinite(timeoutMs) ? setTimeout(() => done(undefined), timeoutMs) : undefined;
      signal.addEventListener('abort', aborted, { once: true });
      this.waiting.add(check);
    });
  }

  /** A client became able to serve tools, or subscribed to a thread: the waits look again. */
  changed(): void {
    for (const check of [...this.waiting]) check();
  }
}
