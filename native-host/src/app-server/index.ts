/**
 * The reference app-server: threads, turns, approvals, client tools, models and persistence, served over any
 * MessageTransport (stdio for `tether app-server`, an in-memory pair for the host's embedded backend).
 */
import type { MessageTransport } from '@tether/protocol';
import { AppServer } from './app-server';
import { ClientWaits, type EngineClients } from './client-wait';
import type { AppServerOptions } from './options';
import { Session, type AppServerSession } from './session';

export type { AppServerOptions, AppServerConfig } from './options';
export type { AppServerSession } from './session';
export type { OpenAiConfig } from './models/openai-config';

/** An engine shared by several connections: a thread started or resumed on one can be resumed on another. */
export interface AppServerHandle {
  /** Serves one more connection; `group` names the browser it relays for (see Peer.group). */
  connect(transport: MessageTransport, options?: { jsonrpc?: boolean; group?: string }): AppServerSession;
  /**
   * Interrupts running turns (journaling their end, told to the connections that follow them) and closes the store,
   * at once, then closes every connection: once called, another engine may open the same data dir.
   */
  close(): Promise<void>;
  /** Turns running now, whatever connection started them. */
  readonly runningTurns: number;
  /** Running turns that `session` (one of this engine's) does not follow alone; all of them for another session. */
  runningTurnsBeyond(session: AppServerSession): number;
}

/** Creates an engine (opening and repairing the data dir) to serve connections with `connect`. */
export function createAppServer(options: AppServerOptions): AppServerHandle {
  const server = new AppServer(options);
  const log = options.log ?? (() => undefined);
  const sessions = new Set<Session>();
  const clients: EngineClients = {
    open: { [Symbol.iterator]: () => [...sessions].filter((s) => s.isOpen)[Symbol.iterator]() },
    waits: new ClientWaits(),
    waitMs: options.config?.clientToolWaitMs ?? 0,
  };
  return {
    connect(transport, connectOptions) {
      const session = new Session(server, transport, log, { ...connectOptions, clients });
      sessions.add(session);
      void session.closed.then(() => sessions.delete(session));
      return session;
    },
    async close() {
      server.close();
      await Promise.all([...sessions].map((s) => s.close()));
    },
    get runningTurns() {
      return server.runningTurns;
    },
    runningTurnsBeyond(session) {
      const own = [...sessions].find((s) => s === session);
      return own ? server.runningTurnsBeyond(own) : server.runningTurns;
    },
  };
}

/** Serves one connection with its own engine; closing the session closes the engine. */
export function startAppServer(transport: MessageTransport, options: AppServerOptions): AppServerSession {
  const handle = createAppServer(options);
  const session = handle.connect(transport);
  const closed = session.closed.then(() => handle.close());
  return {
    closed,
    async close() {
      await session.close();
      await closed;
    },
  };
}
