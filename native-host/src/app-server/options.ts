/** Options of the reference app-server, shared by the stdio command and the in-process embedded backend. */
import type { PageBudget } from '../store/history-page';
import type { OpenAiConfig } from './models/openai-config';

/** How an app-server is configured. */
export interface AppServerOptions {
  /** Folder for thread journals; `null` keeps everything in memory (nothing touches disk). */
  dataDir: string | null;
  /** Default model of new threads: `scripted` (default, offline), `openai`, or a model id of the OpenAI endpoint. */
  model?: string;
  /** Diagnostics, one line each; never stdout. API keys are never passed here. */
  log?: (line: string) => void;
  /** Everything else, with defaults that suit a desktop. */
  config?: AppServerConfig;
}

/** Tunables of the app-server; every field is optional. */
export interface AppServerConfig {
  /** OpenAI-compatible endpoint; fields left out come from TETHER_OPENAI_* / OPENAI_* in `env`. */
  openai?: Partial<OpenAiConfig>;
  /** Environment read for the endpoint settings (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Working directory of threads started without `cwd` (default: process.cwd()). */
  cwd?: string;
  /** Longest a `bash` tool command may run, in ms (default 120,000). */
  bashTimeoutMs?: number;
  /**
   * How long a client-tool call waits for a client that serves it when none is connected, in ms (default 0: it fails
   * at once). The daemon sets it, since its turns outlive the browser connection that started them.
   */
  clientToolWaitMs?: number;
  /** Most turns running at once across all threads before turn/start answers -32001 (default 256). */
  maxRunningTurns?: number;
  /** Most a history page holds (`thread/read`, `thread/resume`, `thread/history/read`) and a model sees of the
   * thread before its turn (default 1 MiB / 100 turns, see DEFAULT_PAGE_BUDGET). */
  historyPage?: PageBudget;
  /** Clock, for deterministic transcripts in tests (default Date.now). */
  now?: () => number;
  /** Id factory, for deterministic transcripts in tests (default: unique, time-ordered ids). */
  newId?: (kind: IdKind) => string;
}

/** What an id names. */
export type IdKind = 'thread' | 'turn' | 'item' | 'approval' | 'call';
