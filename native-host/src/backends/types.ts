/**
 * What the host needs from a backend, at the byte level: the host moves JSON texts, and only backends that hold
 * objects (the embedded app-server, dialect adapters) parse or serialise them, once each way.
 */
import type { BackendConfig } from '../config/schema';
import type { AppServerHandle, AppServerOptions, AppServerSession } from '../app-server';
import type { McpHub } from '../mcp/hub';

/** How a backend ended. */
export interface BackendExit {
  /** Exit code, or null when killed by a signal or when the backend is not a process. */
  readonly code: number | null;
  readonly signal: string | null;
  /** Last lines the backend wrote to stderr (oldest first). */
  readonly stderrTail: readonly string[];
  /** One sentence for people: what happened and, when known, what to do. */
  readonly message: string;
  /** True when the backend could not be started at all (command not found, adapter missing). */
  readonly failedToStart?: boolean;
}

/** Where a backend delivers what it produces. */
export interface BackendSink {
  /** One message: the bytes of its JSON text (no newline) are `chunk[start, end)`. */
  message(chunk: Buffer, start: number, end: number): void;
  /** One message whose bytes are spread over several buffers; `length` is their total size. */
  messageParts(parts: Buffer[], length: number): void;
  /** The backend wrote something that is not a message (garbage, an oversized line); said for people. */
  problem(message: string): void;
  /** The backend can take no more input for now (true) or can again (false). */
  inputPressure(high: boolean): void;
  /** The backend is gone; called once per start. */
  exit(info: BackendExit): void;
}

/** A running (or starting) backend. One instance serves one start; a restart creates a new instance. */
export interface Backend {
  readonly id: string;
  readonly config: BackendConfig;
  /** The process id of the backend's child, when it has one. */
  readonly pid: number | undefined;
  /** Starts it; failures are reported through `sink.exit` (never thrown). */
  start(sink: BackendSink): void;
  /** Sends one message: the bytes of its JSON text in one or more buffers, without newline (not modified afterwards). */
  send(parts: readonly Buffer[], length: number): void;
  /** Sends one message whose bytes are `chunk[start, end)` (the hot path: no view is created). */
  sendRange(chunk: Buffer, start: number, end: number): void;
  /** Stops reading the backend's output (the browser is behind) or resumes it. */
  pauseOutput(paused: boolean): void;
  /** Stops it: end of input, then SIGTERM, then SIGKILL after a grace period; resolves once it is gone. */
  stop(): Promise<void>;
  /**
   * For a restart the user asked for: stops the process behind this handle even when other connections share it
   * (they see it end as they would a crash, and start the next one); without it, `stop()` is the restart's stop.
   * May reject with RestartRefused (restart-refused.ts) having stopped nothing: the backend then goes on as it was.
   */
  stopProcess?(reason: string): Promise<void>;
}

/** Everything a backend factory needs besides the backend's own config. */
export interface BackendContext {
  /** The config file, for messages that tell people what to edit. */
  readonly configFile: string;
  /** Default data directory (threads) for the embedded backend and adapters. */
  readonly dataDir: string;
  /** Longest line accepted from a backend, in bytes. */
  readonly maxLineBytes: number;
  readonly log: (line: string) => void;
  /** Environment for children and PATH lookup (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The host's MCP server, through which agents reach the extension's page tools (absent: none offered). */
  readonly mcp?: McpHub;
  /**
   * The daemon's engines, one per set of options: an embedded backend connects to one (and stopping it closes only
   * that connection, its turns going on) instead of running an engine of its own.
   */
  readonly sharedEngine?: (options: AppServerOptions) => SharedEngine;
  /**
   * The daemon's command backends, one per agent: a command backend joins the one running for its id and config
   * (its turns outliving this connection) instead of starting a process of its own.
   */
  readonly sharedCommands?: SharedCommands;
}

/** One of the daemon's engines (daemon/shared-engines.ts), as an embedded backend sees it: a restart replaces it. */
export interface SharedEngine extends AppServerHandle {
  /**
   * Replaces the engine (a restart the user asked for): its running turns are interrupted and journaled as such, every
   * connection on it closes (`endedBecause` then says why), and the next `connect` opens a fresh engine. Rejects with
   * RestartRefused, having changed nothing, while turns run that `session` does not follow alone.
   */
  replace(backend: string, session: AppServerSession, reason: string): Promise<void>;
  /** Why the engine `session` was connected to was replaced, once it was. */
  endedBecause(session: AppServerSession): string | undefined;
}

/** Command backends shared by the daemon's browser connections (shared-command.ts). */
export interface SharedCommands {
  /** This connection's Backend over the shared process for `id` and `config` (started with the first connection). */
  connect(id: string, config: BackendConfig, context: BackendContext): Backend;
}
