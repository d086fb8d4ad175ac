/**
 * The host's MCP server: one set of grants (tokens) served over two transports, an HTTP endpoint on 127.0.0.1 started
 * on first need and the per-user socket that `tether mcp` connects to, opened when the host starts so that clients
 * can find it. It holds the extension's client tools as the last `initialize` declared them. The SDK is loaded only
 * with the first endpoint that needs it, never on the host's start-up path.
 */
import { writeFileSync } from 'node:fs';
import type { ClientTool, ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol/errors';
import { PRIVATE_FILE_MODE } from '../private-files';
import { type IssuedToken, type McpGrant, McpGrants } from './grants';
import type { McpHttpEndpoint } from './http-endpoint';
import { type HostAnnouncement, liveHosts, removeQuietly } from './host-registry';
import { ensureRuntimeDir, hostFiles, hubName, runtimeDir } from './runtime-dir';
import type { McpSocketEndpoint } from './socket-endpoint';
import { saveToolCache } from './tool-cache';
import { mcpTools } from './tools';

/** The environment variable that carries the token to `tether mcp` (never argv: `ps` shows argv to everyone). */
export const TOKEN_ENV = 'TETHER_MCP_TOKEN';
/** The environment variable that names the socket of the host `tether mcp` must use (the one that issued the token). */
export const SOCKET_ENV = 'TETHER_MCP_SOCKET';

const NOT_CONNECTED: ToolCallResult = {
  success: false,
  content: [{ type: 'text', text: 'Tether is not connected to a browser tab now; open the Tether side panel.' }],
};

/** Options of McpHub. */
export interface McpHubOptions {
  /** The browser that started the host, as `tether mcp --browser` names it (e.g. chromium, firefox-esr). */
  readonly browser: string;
  readonly log: (line: string) => void;
  /** Folder of running hosts (default: runtimeDir()). */
  readonly dir?: string;
  /** The `tether` entry script that `tether mcp` runs from (default: this process's). */
  readonly cliPath?: string;
  /**
   * The daemon's id of the browser connection this hub serves (the daemon runs one hub per connection); absent for a
   * host serving its browser in-process. Names the hub's files (hubName()).
   */
  readonly connection?: number;
  /** Where to keep the client tools for `tether mcp` to serve while no host runs (tool-cache.ts); none by default. */
  readonly toolCache?: string;
}

/** The host's MCP server and its tokens. */
export class McpHub {
  readonly grants = new McpGrants();
  private tools: readonly ClientTool[] = [];
  private http: Promise<McpHttpEndpoint> | undefined;
  private socket: Promise<McpSocketEndpoint | undefined> | undefined;
  private closed = false;
  private withdrawn = false;
  /** Ends the sessions of external clients when the hub is withdrawn. */
  private readonly externalEnded = new AbortController();
  private externalToken: IssuedToken | undefined;
  private external: Pick<McpGrant, 'call' | 'opened'> | undefined;
  private readonly dir: string;
  private readonly files: ReturnType<typeof hostFiles>;

  constructor(private readonly options: McpHubOptions) {
    this.dir = options.dir ?? runtimeDir();
    this.files = hostFiles(this.dir, hubName(process.pid, options.connection));
  }

  /** The extension's client tools, as its latest `initialize` declared them. */
  get clientTools(): readonly ClientTool[] {
    return this.tools;
  }

  /** Records the client tools of an `initialize` (the extension declares the same ones on each connection). */
  setClientTools(tools: readonly ClientTool[]): void {
    this.tools = tools;
    if (this.options.toolCache) void saveToolCache(this.options.toolCache, mcpTools(tools), this.options.log);
  }

  /** Routes the calls of external clients (those holding the host's external token) through `handler`. */
  setExternal(handler: Pick<McpGrant, 'call' | 'opened'>): void {
    this.external = handler;
  }

  /** Issues a token for `grant` (one per thread of a launched agent). */
  issue(grant: McpGrant): IssuedToken {
    return this.grants.issue(grant);
  }

  /** The HTTP endpoint's URL, starting it on first call. */
  async httpUrl(): Promise<string> {
    this.http ??= import('./http-endpoint').then((m) => m.startHttpEndpoint(this.grants, this.options.log));
    return (await this.http).url;
  }

  /**
   * Opens the socket and publishes this host (socket, info and external token files) for `tether mcp`; resolves with
   * the socket's path, or undefined (logged) when it cannot.
   */
  announce(): Promise<string | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    this.socket ??= this.openSocket().catch((error: unknown) => {
      this.options.log(`mcp: cannot open the socket for \`tether mcp\` in ${this.dir}: ${errorMessage(error)}`);
      return undefined;
    });
    return this.socket.then((s) => s?.path);
  }

  /** The `mcpServers` entry of the stdio form: `node <tether> mcp` with the token and socket in its environment. */
  stdioCommand(token: string, socket: string): { command: string; args: string[]; env: Record<string, string> } {
    return {
      command: process.execPath,
      args: [this.options.cliPath ?? process.argv[1] ?? 'tether', 'mcp'],
      env: { [TOKEN_ENV]: token, [SOCKET_ENV]: socket },
    };
  }

  /**
   * The browser went away while the hub's launched agents may still run (the daemon's connection lost its relay):
   * `tether mcp` no longer finds this hub, and the sessions of external clients are closed (their `tether mcp` looks
   * for another host). Per-thread grants stay valid until close().
   */
  async withdraw(): Promise<void> {
    this.withdrawn = true;
    this.external = undefined;
    this.externalToken?.revoke();
    this.externalEnded.abort();
    const socket = await this.socket?.catch(() => undefined);
    if (socket) for (const file of [this.files.info, this.files.token]) removeQuietly(file);
  }

  /** Closes the endpoints and removes this host's files. */
  async close(): Promise<void> {
    this.closed = true;
    this.externalToken?.revoke();
    const [http, socket] = await Promise.all([this.http?.catch(() => undefined), this.socket?.catch(() => undefined)]);
    await Promise.all([http?.close(), socket?.close()]);
    if (socket) for (const file of [this.files.info, this.files.token]) removeQuietly(file);
  }

  private async openSocket(): Promise<McpSocketEndpoint> {
    ensureRuntimeDir(this.dir, this.options.log);
    const { startSocketEndpoint } = await import('./socket-endpoint');
    const endpoint = await startSocketEndpoint(
      this.files.socket,
      this.grants,
      { browser: this.options.browser, pid: process.pid },
      this.options.log,
    );
    // Withdrawn while the socket opened: nothing to announce (per-thread grants still use the socket).
    if (this.withdrawn) return endpoint;
    this.externalToken = this.grants.issue({
      label: 'an external MCP client',
      tools: () => this.tools,
      call: (tool, args, caller, signal) =>
        this.external ? this.external.call(tool, args, caller, signal) : Promise.resolve(NOT_CONNECTED),
      opened: (caller) => this.external?.opened?.(caller) ?? (() => undefined),
      ended: this.externalEnded.signal,
    });
    writeFileSync(this.files.token, `${this.externalToken.token}\n`, { mode: PRIVATE_FILE_MODE });
    const announcement: HostAnnouncement = {
      pid: process.pid,
      ...(this.options.connection === undefined ? {} : { connection: this.options.connection }),
      browser: this.options.browser,
      startedAtMs: Date.now(),
      socket: endpoint.path,
      tokenFile: this.files.token,
    };
    writeFileSync(this.files.info, `${JSON.stringify(announcement)}\n`, { mode: PRIVATE_FILE_MODE });
    this.options.log(`mcp: \`tether mcp\` can reach this host at ${endpoint.path}`);
    // Hosts killed without their shutdown left their files: clear them now rather than let them pile up.
    void liveHosts(this.dir, this.files.info);
    return endpoint;
  }
}
