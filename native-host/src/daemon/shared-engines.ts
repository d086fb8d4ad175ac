/**
 * The daemon's embedded app-server engines, one per set of options, shared by every browser connection: a thread
 * started in one browser can be resumed in another, and a turn outlives the connection that started it.
 *
 * Restarting the embedded backend (`bridge/backend/restart`) replaces the engine with a fresh one, as restarting the
 * in-process host's backend does: an engine that misbehaves (a stuck turn, a model in a bad state) is gone and its data
 * dir reopened. It is refused while turns run that the restarting browser does not follow alone (another browser
 * follows their thread, or none does since its browser closed): they would be cut off without their user asking.
 */
import type { AppServerHandle, AppServerOptions, AppServerSession } from '../app-server';
import { RestartRefused } from '../backends/restart-refused';
import type { SharedEngine } from '../backends/types';

/** The engines, created on first use by `create` with the options (less the log) they are keyed by. */
export class SharedEngines {
  private readonly engines = new Map<string, ReplaceableEngine>();

  constructor(private readonly create: (settings: Omit<AppServerOptions, 'log'>) => AppServerHandle) {}

  /** The shared engine for these options (the log left out: each connection has its own). */
  get(options: AppServerOptions): SharedEngine {
    const { log: _ignored, ...settings } = options;
    const key = JSON.stringify(settings);
    let engine = this.engines.get(key);
    if (!engine) {
      engine = new ReplaceableEngine(() => this.create(settings));
      this.engines.set(key, engine);
    }
    return engine;
  }

  /** Turns running now in every engine. */
  get runningTurns(): number {
    let n = 0;
    for (const e of this.engines.values()) n += e.runningTurns;
    return n;
  }

  /** Closes every engine: running turns are interrupted (journaled as such), connections closed. */
  async close(): Promise<void> {
    await Promise.all([...this.engines.values()].map((e) => e.close()));
  }
}

/** One set of options' engine, opened on first connect and again after a restart replaced it. */
class ReplaceableEngine implements SharedEngine {
  private current: AppServerHandle | undefined;
  /** The sessions of the current engine, to tell them why it went. */
  private sessions = new Set<AppServerSession>();
  private readonly ended = new WeakMap<AppServerSession, string>();

  constructor(private readonly open: () => AppServerHandle) {}

  connect(...args: Parameters<AppServerHandle['connect']>): AppServerSession {
    this.current ??= this.open();
    const session = this.current.connect(...args);
    const sessions = this.sessions;
    sessions.add(session);
    void session.closed.then(() => sessions.delete(session));
    return session;
  }

  async replace(backend: string, session: AppServerSession, reason: string): Promise<void> {
    const engine = this.current;
    if (!engine) return;
    const beyond = engine.runningTurnsBeyond(session);
    if (beyond > 0) throw new RestartRefused(backend, beyond);
    for (const s of this.sessions) this.ended.set(s, reason);
    this.current = undefined;
    this.sessions = new Set();
    // Closing interrupts the turns and closes the store at once (synchronously): a connect made while the
    // sessions still close opens the new engine on a data dir the old one let go of.
    await engine.close();
  }

  endedBecause(session: AppServerSession): string | undefined {
    return this.ended.get(session);
  }

  async close(): Promise<void> {
    const engine = this.current;
    this.current = undefined;
    await engine?.close();
  }

  get runningTurns(): number {
    return this.current?.runningTurns ?? 0;
  }

  runningTurnsBeyond(session: AppServerSession): number {
    return this.current?.runningTurnsBeyond(session) ?? 0;
  }
}
