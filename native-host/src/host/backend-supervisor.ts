/**
 * Keeps one backend running for a browser connection: starts the selected backend on demand, stops it for a switch or
 * a restart, and restarts it after a crash with a growing delay, so a backend that dies at once does not spin.
 * It knows nothing of messages: output and departures go to the router through SupervisorEvents.
 */
import { RestartRefused } from '../backends/restart-refused';
import type { Backend, BackendExit, BackendSink } from '../backends/types';
import type { HostConfig } from '../config/defaults';
import type { BackendConfig } from '../config/schema';
import type { Log } from '../log';
import { requireBackend } from './bridge-hello';
import { errorMessage } from '@tether/protocol/errors';

/** A backend that ran at least this long before crashing starts its crash count afresh. */
const STABLE_RUN_MS = 10_000;

/** Delay before restart number `crashes` in a row: 0, then 250 ms doubling up to 8 s. */
export function restartDelayMs(crashes: number): number {
  return crashes <= 1 ? 0 : Math.min(250 * 2 ** (crashes - 2), 8000);
}

/** How the current backend went away. */
export type BackendGone =
  /** The host stopped it (switch, restart, shutdown); `reason` says so, for the requests it leaves unanswered. */
  | {
      readonly kind: 'stopped';
      readonly backend: string;
      readonly reason: string;
      readonly exit: Pick<BackendExit, 'code' | 'signal'>;
    }
  /** It ended by itself; `reason` is its exit with its last stderr line; it starts again after `restartInMs`. */
  | {
      readonly kind: 'crashed';
      readonly backend: string;
      readonly reason: string;
      readonly exit: BackendExit;
      readonly restartInMs: number;
    };

/** What the supervisor tells its router. */
export interface SupervisorEvents {
  /** A backend was just started: send it what waited for one. */
  started(backend: Backend): void;
  /** Output of the current backend (output of a backend being replaced is dropped). */
  readonly output: Pick<BackendSink, 'message' | 'messageParts' | 'problem'>;
  /** The current backend is gone; nothing more comes from it. */
  gone(event: BackendGone): void;
}

/** Options of BackendSupervisor. */
export interface BackendSupervisorOptions {
  readonly config: HostConfig;
  readonly createBackend: (id: string, config: BackendConfig) => Backend;
  readonly log: Log;
  /** Stop (true) or resume (false) reading the browser's input, when the backend cannot keep up. */
  readonly setInputPaused: (paused: boolean) => void;
  readonly now: () => number;
}

interface Run {
  readonly backend: Backend;
  readonly startedAt: number;
  /** Set when the host stops it on purpose; says why. */
  stopReason?: string;
}

/** Starts, stops, restarts and switches the one backend of a browser connection. */
export class BackendSupervisor {
  private chosen: string;
  private current: Run | undefined;
  private crashes = 0;
  private lastExitAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** A stop in progress: nothing may be sent until it is over. */
  private transition: Promise<void> | undefined;
  private closing = false;

  constructor(
    private readonly options: BackendSupervisorOptions,
    private readonly events: SupervisorEvents,
  ) {
    this.chosen = options.config.defaultBackend;
  }

  /** The backend id that is (or will be) running. */
  get selected(): string {
    return this.chosen;
  }

  /** The running backend when messages may be sent to it now (not stopping, not shutting down), else undefined. */
  get ready(): Backend | undefined {
    return this.current && !this.transition && !this.closing ? this.current.backend : undefined;
  }

  /** True once shutdown() was called: nothing starts any more. */
  get shuttingDown(): boolean {
    return this.closing;
  }

  /** The browser is (true) or is no longer (false) behind: stop reading the backend's output meanwhile. */
  pauseOutput(paused: boolean): void {
    this.current?.backend.pauseOutput(paused);
  }

  /** Starts the selected backend unless one runs or is stopping; after crashes, once their delay has passed. */
  ensureStarted(): void {
    if (this.current || this.transition || this.restartTimer || this.closing) return;
    const wait = this.lastExitAt + restartDelayMs(this.crashes) - this.options.now();
    if (wait > 0) {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = undefined;
        this.ensureStarted();
      }, wait);
      return;
    }
    this.start();
  }

  /** Makes `id` (a configured backend, checked by the caller) the selected one; stops the running one if it differs. */
  async select(id: string): Promise<void> {
    if (id === this.chosen) return;
    const run = this.current;
    this.chosen = id;
    this.crashes = 0;
    this.lastExitAt = 0;
    if (run) await this.stop(run, `the browser switched to the "${id}" backend`);
  }

  /** Stops the running backend and starts the selected one at once, forgetting earlier crashes. */
  async restart(): Promise<void> {
    const run = this.current;
    // A shared agent's process (the daemon's engine) is restarted for every browser using it, not only this browser's
    // handle on it; a refusal (RestartRefused: turns of others would be cut off) leaves it running and is answered.
    if (run) await this.stop(run, "restarted at the browser's request", true);
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.crashes = 0;
    this.lastExitAt = 0;
    if (!this.current && !this.closing) this.start();
  }

  /** Stops the backend for good (EOF, SIGTERM, SIGKILL); resolves once it is gone. */
  async shutdown(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    const run = this.current;
    if (run) await this.stop(run, 'the host is shutting down');
  }

  private start(): void {
    const id = this.chosen;
    const backend = this.options.createBackend(id, requireBackend(id, this.options.config));
    const run: Run = { backend, startedAt: this.options.now() };
    this.current = run;
    backend.start(this.sinkFor(run));
    this.events.started(backend);
  }

  private sinkFor(run: Run): BackendSink {
    const output = this.events.output;
    return {
      message: (chunk, start, end) => {
        if (this.current === run) output.message(chunk, start, end);
      },
      messageParts: (parts, length) => {
        if (this.current === run) output.messageParts(parts, length);
      },
      problem: (message) => {
        if (this.current === run) output.problem(message);
      },
      inputPressure: (high) => this.options.setInputPaused(high),
      exit: (info) => this.exited(run, info),
    };
  }

  private exited(run: Run, info: BackendExit): void {
    if (this.current !== run) return;
    this.current = undefined;
    this.options.setInputPaused(false);
    const backend = run.backend.id;
    if (run.stopReason) {
      this.events.gone({ kind: 'stopped', backend, reason: stoppedBecause(backend, run.stopReason), exit: info });
      return;
    }
    const now = this.options.now();
    this.crashes = now - run.startedAt < STABLE_RUN_MS ? this.crashes + 1 : 1;
    this.lastExitAt = now;
    const last = info.stderrTail.at(-1);
    this.options.log(`backend ${backend}: ${info.message}`);
    const reason = `${info.message}${last ? ` (its last stderr line: ${JSON.stringify(last)})` : ''}`;
    this.events.gone({ kind: 'crashed', backend, reason, exit: info, restartInMs: restartDelayMs(this.crashes) });
  }

  private async stop(run: Run, reason: string, wholeProcess = false): Promise<void> {
    run.stopReason = reason;
    const { backend } = run;
    const stopping = wholeProcess && backend.stopProcess ? backend.stopProcess(reason) : backend.stop();
    this.transition = stopping;
    try {
      await stopping;
    } catch (error) {
      if (error instanceof RestartRefused) {
        // Nothing was stopped: the backend goes on as it was.
        run.stopReason = undefined;
        if (this.transition === stopping) this.transition = undefined;
        throw error;
      }
      this.options.log(`backend ${run.backend.id}: stopping failed: ${errorMessage(error)}`);
    }
    if (this.transition === stopping) this.transition = undefined;
    // The process is gone even when its last output has not been reported yet: its requests are failed now.
    if (this.current === run) {
      this.current = undefined;
      const backend = run.backend.id;
      this.events.gone({
        kind: 'stopped',
        backend,
        reason: stoppedBecause(backend, reason),
        exit: { code: null, signal: null },
      });
    }
  }
}

function stoppedBecause(backend: string, reason: string): string {
  return `the "${backend}" backend was stopped (${reason})`;
}
