/**
 * Chrome's debugger attachment per tab, held only while a turn acts: attached on the first trusted action, detached
 * when the turn ends or after `IDLE_DETACH_MS` without a command, attached again when a navigation or redirect dropped
 * it. When the user cancels Chrome's "started debugging this browser" bar, or the tab cannot be attached (DevTools
 * open on it, a page Chrome protects, a policy), the tab gets no trusted input until its turn ends, and the reason is
 * kept so every action's result can say why it fell back.
 */

/** The part of chrome.debugger the sessions use (index.ts binds it; tests give a fake). */
export interface DebuggerApi {
  attach(tabId: number): Promise<void>;
  detach(tabId: number): Promise<void>;
  send(tabId: number, method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Registers the listener for detaches the extension did not ask for (the bar's Cancel, a closed target). */
  onDetach(listener: (tabId: number, reason: string) => void): void;
}

/** Timers, injected so tests run the idle backstop without waiting. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** A trusted command could not be sent and trusted input is off for the tab's turn; `message` says why. */
export class TrustedInputUnavailable extends Error {
  override readonly name = 'TrustedInputUnavailable';
}

/** Detach after this long without a trusted command, in case no turn end ever arrives (an MCP client's call). */
export const IDLE_DETACH_MS = 30_000;

/** Chrome's reason when the user pressed Cancel on the debugging bar. */
const CANCELED_BY_USER = 'canceled_by_user';

/** The CDP protocol version chrome.debugger is asked for. */
export const CDP_VERSION = '1.3';

/** Why attaching failed, in words for the action's result, from Chrome's own error text. */
export function attachFailure(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  if (/another debugger/i.test(raw))
    return 'another debugger is attached to the tab (DevTools open on it?); close DevTools for trusted input';
  if (/polic/i.test(raw)) return `a browser policy forbids debugging this tab (${raw})`;
  return `Chrome would not let the extension debug this tab (${raw})`;
}

function isNotAttached(error: unknown): boolean {
  const raw = error instanceof Error ? error.message : String(error);
  return /not attached|detached|no tab with given id|target closed/i.test(raw);
}

/** The debugger sessions of every tab. */
export class DebuggerSessions {
  private readonly attached = new Set<number>();
  private readonly attaching = new Map<number, Promise<void>>();
  /** Tabs with no trusted input until their turn ends, and why. */
  private readonly refused = new Map<number, string>();
  private readonly idle = new Map<number, unknown>();

  constructor(
    private readonly api: DebuggerApi,
    private readonly timers: Timers,
    private readonly idleMs = IDLE_DETACH_MS,
  ) {
    api.onDetach((tabId, reason) => this.lost(tabId, reason));
  }

  /** Why the tab gets no trusted input for the rest of its turn, or undefined while it may. */
  refusal(tabId: number): string | undefined {
    return this.refused.get(tabId);
  }

  /** Whether the debugger is attached to the tab now. */
  isAttached(tabId: number): boolean {
    return this.attached.has(tabId);
  }

  /**
   * Sends one CDP command, attaching first when needed and once more when a navigation dropped the attachment.
   * Rejects with TrustedInputUnavailable when the tab refuses trusted input (the reason is then kept for the turn).
   */
  async send(tabId: number, method: string, params?: Record<string, unknown>): Promise<unknown> {
    await this.ensure(tabId);
    this.touch(tabId);
    try {
      return await this.api.send(tabId, method, params);
    } catch (error) {
      if (!isNotAttached(error)) throw error;
      this.attached.delete(tabId);
      const refused = this.refused.get(tabId);
      if (refused) throw new TrustedInputUnavailable(refused, { cause: error });
      await this.ensure(tabId);
      return this.api.send(tabId, method, params);
    }
  }

  /** Attaches to the tab unless attached; rejects with TrustedInputUnavailable when it may not be. */
  async ensure(tabId: number): Promise<void> {
    const refused = this.refused.get(tabId);
    if (refused) throw new TrustedInputUnavailable(refused);
    if (this.attached.has(tabId)) return;
    let pending = this.attaching.get(tabId);
    if (!pending) {
      pending = this.api.attach(tabId).then(
        () => {
          this.attached.add(tabId);
        },
        (error: unknown) => {
          const why = attachFailure(error);
          this.refused.set(tabId, why);
          throw new TrustedInputUnavailable(why, { cause: error });
        },
      );
      this.attaching.set(tabId, pending);
      void pending.finally(() => this.attaching.delete(tabId)).catch(() => undefined);
    }
    await pending;
    this.touch(tabId);
  }

  /** The tab's turn ended: detach, and let the next turn try trusted input again. */
  async turnEnded(tabId: number): Promise<void> {
    this.refused.delete(tabId);
    await this.release(tabId);
  }

  /** Every turn ended at once (the host connection was lost): detach from every tab. */
  async endAll(): Promise<void> {
    this.refused.clear();
    await Promise.all([...this.attached].map((tabId) => this.release(tabId)));
  }

  /** The tab closed: nothing to detach, only to forget. */
  tabClosed(tabId: number): void {
    this.attached.delete(tabId);
    this.refused.delete(tabId);
    this.stopIdle(tabId);
  }

  private async release(tabId: number): Promise<void> {
    this.stopIdle(tabId);
    if (!this.attached.delete(tabId)) return;
    // The tab may have closed or the user detached it meanwhile: there is nothing left to undo then.
    await this.api.detach(tabId).catch(() => undefined);
  }

  private lost(tabId: number, reason: string): void {
    this.attached.delete(tabId);
    this.stopIdle(tabId);
    if (reason === CANCELED_BY_USER)
      this.refused.set(
        tabId,
        'you cancelled Chrome\'s "started debugging this browser" bar, so trusted input is off until this turn ends',
      );
  }

  private touch(tabId: number): void {
    this.stopIdle(tabId);
    this.idle.set(
      tabId,
      this.timers.set(() => {
        this.idle.delete(tabId);
        void this.release(tabId);
      }, this.idleMs),
    );
  }

  private stopIdle(tabId: number): void {
    const handle = this.idle.get(tabId);
    if (handle !== undefined) this.timers.clear(handle);
    this.idle.delete(tabId);
  }
}
