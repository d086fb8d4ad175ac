/**
 * Tabs shared with external MCP clients (Claude Code, Codex CLI, Cursor through `tether mcp`): the extension says
 * which conversation's tab is shared (`bridge/mcp/share`), and a call made with the host's external token becomes an
 * `item/tool/call` on that conversation, naming the client (its own claim) in `caller`, so the extension asks in that
 * tab's panel like for any page tool. The extension learns which clients are connected from `bridge/mcp/clients`.
 */
import type {
  BridgeMcpShareParams,
  BridgeMcpShareResult,
  McpClientInfo,
  ToolCallCancelledNotification,
  ToolCallParams,
  ToolCallResult,
} from '@tether/protocol';
import type { McpCaller, McpGrant } from '../mcp/grants';
import { callBrowserTool } from '../mcp/tools';

/** What an external call without a shared tab answers: how to share one. */
export const NO_SHARED_TAB =
  'No browser tab is shared with external agents. In the browser, open the Tether side panel on the tab to use and ' +
  'turn on "Share this tab with external agents", then call the tool again.';

/** What SharedTabs needs from the browser connection. */
export interface SharedTabsDeps {
  /** Sends a server request to the browser and resolves with its result; rejects (and forgets it) when `signal` aborts. */
  request(method: 'item/tool/call', params: ToolCallParams, signal: AbortSignal): Promise<unknown>;
  notify(method: 'bridge/mcp/clients', params: { clients: McpClientInfo[] }): void;
  notify(method: 'item/tool/call/cancelled', params: ToolCallCancelledNotification): void;
  log(line: string): void;
  now?: () => number;
}

/** The shared conversations and the connected external clients of one browser connection. */
export class SharedTabs implements Pick<McpGrant, 'call' | 'opened'> {
  /** Shared thread ids, the one shared last first. */
  private shared: string[] = [];
  /** Connected clients by connection id. */
  private readonly clients = new Map<string, McpClientInfo>();
  private counter = 0;

  constructor(private readonly deps: SharedTabsDeps) {}

  /** Shares or stops sharing a conversation's tab. */
  share(params: BridgeMcpShareParams): BridgeMcpShareResult {
    this.shared = this.shared.filter((id) => id !== params.threadId);
    if (params.shared) this.shared.unshift(params.threadId);
    this.deps.log(`mcp: ${params.shared ? 'sharing' : 'no longer sharing'} the tab of thread ${params.threadId}`);
    return { shared: [...this.shared], clients: [...this.clients.values()] };
  }

  /**
   * Runs a tool for an external client on the tab shared last, naming the client and its connection (grants in the
   * browser are per connection); withdrawn in the browser when `signal` aborts (the client cancelled or went away).
   */
  async call(tool: string, args: unknown, caller: McpCaller, signal: AbortSignal): Promise<ToolCallResult> {
    const threadId = this.shared[0];
    if (threadId === undefined) return { success: false, content: [{ type: 'text', text: NO_SHARED_TAB }] };
    const params: ToolCallParams = {
      threadId,
      turnId: '',
      callId: `mcp_external_${++this.counter}`,
      tool,
      arguments: args,
      caller: {
        kind: 'mcpClient',
        name: caller.name || 'an unnamed MCP client',
        version: caller.version,
        connection: caller.connection,
      },
    };
    return callBrowserTool(
      {
        request: (p, s) => this.deps.request('item/tool/call', p, s),
        notify: (p) => this.deps.notify('item/tool/call/cancelled', p),
      },
      params,
      signal,
    );
  }

  /** An external client connected; returns what to call when it disconnects. */
  opened(caller: McpCaller): () => void {
    const id = caller.connection;
    const now = this.deps.now ?? Date.now;
    this.clients.set(id, { id, name: caller.name, version: caller.version, connectedAtMs: now() });
    this.announce();
    return () => {
      if (this.clients.delete(id)) this.announce();
    };
  }

  private announce(): void {
    this.deps.notify('bridge/mcp/clients', { clients: [...this.clients.values()] });
  }
}
