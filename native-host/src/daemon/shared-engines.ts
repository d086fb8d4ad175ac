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

type Settings = Omit<AppServerOptions, 'log'>;

/**
 * The engines, created on first use by `create`: one per data dir (a memory-only engine per set of settings), since
 * two engines of one process on one data dir would each take the other's running turns for a crash's and close them.
 */
export class SharedEngines {
  private readonly engines = new Map<string, ReplaceableEngine>();

  constructor(
    private readonly create: (settings: Settings) => AppServerHandle,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** The shared engine for these options (the log left out: each connection has its own). */
  get(options: AppServerOptions): SharedEngine {
    const { log: _ignored, ...settings } = options;
    const key = settings.dataDir === null ? `memory:${JSON.stringify(settings)}` : `dir:${settings.dataDir}`;
    let engine = this.engines.get(key);
    if (!engine) {
      engine = new ReplaceableEngine(this.create, this.log);
      this.engines.set(key, engine);
    }
    return engine.withSettings(settings);
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

/**
 * One data dir's engine, opened on first connect and again after a restart replaced it. A connection whose settings
 * (model, endpoint: the config file changed since) differ from the engine's reopens it with them when nothing uses it
 * (no turn runs, no connection is open); otherwise it joins the engine as it is, and the new settings wait.
 */
class ReplaceableEngine {
  private current: { readonly engine: AppServerHandle; readonly key: string } | undefined;
  /** The sessions of the current engine, to tell them why it went. */
  private sessions = new Set<AppServerSession>();
  private readonly ended = new WeakMap<AppServerSession, string>();

  constructor(
    private readonly create: (settings: Settings) => AppServerHandle,
    private readonly log: (line: string) => void,
  ) {}

  /** The engine as a connection with these settings sees it. */
  withSettings(settings: Settings): SharedEngine {
    const engine = this;
    return {
      connect: (transport, options) => this.connect(settings, transport, options),
      close: () => this.close(),
      replace: (backend, session, reason) => this.replace(backend, session, reason),
      endedBecause: (session) => this.ended.get(session),
      runningTurnsBeyond: (session) => this.current?.engine.runningTurnsBeyond(session) ?? 0,
      get runningTurns() {
        return engine.runningTurns;
      },
    };
  }

  private connect(settings: Settings, ...args: Parameters<AppServerHandle['connect']>): AppServerSession {
    const key = JSON.stringify(settings);
    let current = this.current;
    if (current && current.key !== key) {
      if (current.engine.runningTurns === 0 && this.sessions.size === 0) {
        // Nothing uses it: closing interrupts nothing and lets go of the data dir at once.
        void current.engine.close();
        current = undefined;
      } else {
        this.log(
          `embedded: the config changed the built-in app-server's settings; they apply once no turn runs and no browser is connected (or on a restart)`,
        );
      }
    }
    if (!current) {
      current = { engine: this.create(settings), key };
      this.current = current;
    }
    const session = current.engine.connect(...args);
    const sessions = this.sessions;
    sessions.add(session);
    void session.closed.then(() => sessions.delete(session));
    return session;
  }

  private async replace(backend: string, session: AppServerSession, reason: string): Promise<void> {
    const engine = this.current?.engine;
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

  async close(): Promise<void> {
    const engine = this.current?.engine;
    this.current = undefined;
    await engine?.close();
  }

  get runningTurns(): number {
    return this.current?.engine.runningTurns ?? 0;
  }
}
