/**
 * Dialect adapters: a backend that speaks another wire (Codex app-server, ACP, vv-agent) is translated in the host.
 * The "agents" work fills in `dialectAdapters`; each entry loads its adapter lazily so `tether host` only loads the
 * one its backend needs.
 */
import type { MessageTransport } from '@tether/protocol';
import type { CommandBackendConfig, Dialect } from '../config/schema';
import type { McpHub } from '../mcp/hub';

/** What an adapter gets besides the upstream transport. */
export interface DialectAdapterOptions {
  readonly backendId: string;
  /** Directory the adapter may use for its own state (e.g. thread metadata). */
  readonly dataDir: string;
  readonly log: (line: string) => void;
  /** The backend's config entry (argv, env, options). */
  readonly backend?: CommandBackendConfig;
  /** The host's MCP server, for agents that reach the page tools over MCP (ACP agents). */
  readonly mcp?: McpHub;
}

/**
 * Translates between Tether's protocol and another wire: takes the JSONL transport to the agent's process and returns
 * the Tether-protocol side the host talks to. Closing either side must close the other.
 */
export type DialectAdapterFactory = (upstream: MessageTransport, options: DialectAdapterOptions) => MessageTransport;

/** Dialects other than the protocol's own. */
export type ForeignDialect = Exclude<Dialect, 'tether'>;

/**
 * Loaders of the adapters, by dialect. Add one as
 * `codex: async () => (await import('./codex')).createCodexAdapter,`.
 */
export const dialectAdapters: Partial<Record<ForeignDialect, () => Promise<DialectAdapterFactory>>> = {
  codex: async () => (await import('./codex-adapter')).createCodexAdapter,
  acp: async () => (await import('./acp-adapter')).createAcpAdapter,
  vv: async () => (await import('./vv-adapter')).createVvAdapter,
};

/** The adapter for `dialect`, or undefined when this build has none. */
export async function loadDialectAdapter(dialect: ForeignDialect): Promise<DialectAdapterFactory | undefined> {
  const load = Object.hasOwn(dialectAdapters, dialect) ? dialectAdapters[dialect] : undefined;
  return load ? load() : undefined;
}
