/**
 * Tether's MCP server as ACP agents get it: one token per thread, handed over in `session/new` and `session/load` as
 * the HTTP form when the agent advertises `mcpCapabilities.http` (Copilot 1.0.102 silently drops the stdio form),
 * else as `tether mcp` over stdio with the token in its environment. A call made with a thread's token becomes the
 * same `item/tool/call` as any client tool, on that thread, so the extension's approval and site rules decide.
 */
import type { ToolCallCancelledNotification, ToolCallParams, ToolCallResult } from '@tether/protocol';
import type { IssuedToken, McpCaller } from '../mcp/grants';
import type { McpHub } from '../mcp/hub';
import { callBrowserTool } from '../mcp/tools';
import { asRecord, str } from './dialect-core';

/** The name agents know Tether's server by: Copilot shows its tools as `tether-page_read`, Claude as `mcp__tether__page_read`. */
export const MCP_SERVER_NAME = 'tether';

const REVOKED = 'This conversation is closed to Tether page tools now (its agent stopped or the browser disconnected).';

/** An ACP `McpServer` entry (HTTP or stdio form). */
export type AcpMcpServer =
  | { type: 'http'; name: string; url: string; headers: Array<{ name: string; value: string }> }
  | { name: string; command: string; args: string[]; env: Array<{ name: string; value: string }> };

/** What the thread grants need from their adapter. */
export interface ThreadToolRunner {
  /** Sends `item/tool/call` to the client (the extension) and resolves with its answer; rejects once `signal` aborts. */
  call(params: ToolCallParams, signal: AbortSignal): Promise<ToolCallResult>;
  /** Tells the client that nobody waits for a call any more (`item/tool/call/cancelled`). */
  cancelled(params: ToolCallCancelledNotification): void;
  /** The id of the thread's running turn, if one runs. */
  turnOf(threadId: string): string | undefined;
  log(line: string): void;
}

/** The per-thread tokens of one ACP adapter. */
export class AcpMcpGrants {
  private readonly tokens = new Map<string, IssuedToken>();
  private calls = 0;

  constructor(
    private readonly hub: McpHub,
    private readonly runner: ThreadToolRunner,
  ) {}

  /**
   * The `mcpServers` of a `session/new` or `session/load` for thread `threadId` (or the provisional key a new
   * session's token is issued under until `bind`); empty when the agent can take no form Tether offers.
   */
  async servers(threadId: string, http: boolean): Promise<AcpMcpServer[]> {
    const issued = this.tokenFor(threadId);
    if (http) {
      const url = await this.hub.httpUrl();
      return [
        {
          type: 'http',
          name: MCP_SERVER_NAME,
          url,
          headers: [{ name: 'Authorization', value: `Bearer ${issued.token}` }],
        },
      ];
    }
    const socket = await this.hub.announce();
    if (!socket) return [];
    const { command, args, env } = this.hub.stdioCommand(issued.token, socket);
    return [
      {
        name: MCP_SERVER_NAME,
        command,
        args,
        env: Object.entries(env).map(([name, value]) => ({ name, value })),
      },
    ];
  }

  /** Re-keys the token issued under a provisional id once `session/new` named the thread. */
  bind(provisional: string, threadId: string): void {
    const issued = this.tokens.get(provisional);
    if (!issued || provisional === threadId) return;
    this.tokens.delete(provisional);
    this.tokens.get(threadId)?.revoke();
    this.tokens.set(threadId, issued);
  }

  /** Revokes the token of `threadId` (a session that was never made) or every token (the agent or the client went away). */
  revoke(threadId?: string): void {
    for (const [id, issued] of this.tokens) {
      if (threadId !== undefined && id !== threadId) continue;
      issued.revoke();
      this.tokens.delete(id);
    }
  }

  /** Whether an ACP tool call (title, or the title its `tool_call` update gave) is one of Tether's MCP tools. */
  isTetherTool(toolCall: unknown, announcedTitle: string | undefined): boolean {
    const names = new Set(this.hub.clientTools.map((t) => t.name));
    const title = str(asRecord(toolCall).title);
    return [title, announcedTitle].some((t) => t !== undefined && names.has(stripServerPrefix(t) ?? ''));
  }

  private tokenFor(key: string): IssuedToken {
    const existing = this.tokens.get(key);
    if (existing) return existing;
    const issued = this.hub.issue({
      label: `thread ${key}`,
      tools: () => this.hub.clientTools,
      call: (tool, args, caller, signal) => this.run(this.threadOfToken(issued), tool, args, caller, signal),
      // Agents report no failure to attach an MCP server (Copilot drops a form it does not take): this line is the proof.
      opened: (client) => {
        this.runner.log(`mcp: ${client.name} ${client.version} connected for thread ${this.threadOfToken(issued)}`);
        return () => this.runner.log(`mcp: ${client.name} disconnected`);
      },
    });
    this.tokens.set(key, issued);
    return issued;
  }

  private threadOfToken(issued: IssuedToken): string | undefined {
    for (const [id, t] of this.tokens) if (t === issued) return id;
    return undefined;
  }

  private async run(
    threadId: string | undefined,
    tool: string,
    args: unknown,
    caller: McpCaller,
    signal: AbortSignal,
  ): Promise<ToolCallResult> {
    // A connection authenticated before the revocation (the socket checks the token once) gets no further call.
    if (threadId === undefined) return { success: false, content: [{ type: 'text', text: REVOKED }] };
    this.runner.log(`mcp: ${caller.name || 'the agent'} calls ${tool} for thread ${threadId}`);
    // The agent cancelling the call (a turn interrupted, its own timeout) or dropping the connection withdraws it.
    return await callBrowserTool(
      { request: (p, s) => this.runner.call(p, s), notify: (p) => this.runner.cancelled(p) },
      { threadId, turnId: this.runner.turnOf(threadId) ?? '', callId: `mcp_${++this.calls}`, tool, arguments: args },
      signal,
    );
  }
}

/** The tool name in an agent's title for an MCP tool of Tether's server (`tether-X`, `mcp__tether__X`), else undefined. */
function stripServerPrefix(title: string): string | undefined {
  for (const prefix of [`${MCP_SERVER_NAME}-`, `mcp__${MCP_SERVER_NAME}__`, `${MCP_SERVER_NAME}/`]) {
    if (title.startsWith(prefix)) return title.slice(prefix.length);
  }
  // Gemini CLI titles the permission request of an MCP tool "page_read (tether MCP Server)".
  const suffix = ` (${MCP_SERVER_NAME} MCP Server)`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : undefined;
}
