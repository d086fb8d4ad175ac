/**
 * Codex's `mcpServer/elicitation/request` as a Tether approval: an MCP server the user configured in Codex (or Codex
 * on its behalf, before a tool call) asks the user something. Tether cannot fill in a form, so the side panel offers
 * accept or decline, and the card says which server asks, for which tool, and that the request is the server's own.
 */
import type { ApprovalOutcome } from '@tether/protocol';
import { type ApprovalSpec, asRecord, str } from './dialect-core';

/** What to ask the user, and how to answer Codex once they decided. */
export interface Elicitation {
  readonly spec: ApprovalSpec;
  /** Codex's answer for `outcome` (`accept` with no fields, or `decline`; `cancel` when withdrawn). */
  answer(outcome: ApprovalOutcome): { action: 'accept' | 'decline' | 'cancel'; content: Record<string, never> | null };
}

/** The approval for an elicitation request's params (read defensively: they come from Codex). */
export function elicitation(params: unknown): Elicitation {
  const p = asRecord(params);
  const meta = asRecord(p._meta);
  const server = str(p.serverName) ?? 'an MCP server';
  const tool = str(meta.tool_name);
  const message = str(p.message) ?? '';
  const toolCall = str(meta.codex_approval_kind) === 'mcp_tool_call';
  const head = tool
    ? `The "${server}" MCP server asks to run its tool "${tool}"`
    : `The "${server}" MCP server asks you something`;
  return {
    spec: {
      threadId: str(p.threadId) ?? '',
      turnId: str(p.turnId) ?? '',
      toolName: tool ? `${server}: ${tool}` : server,
      preview: `${head} (the server's own request, through Codex)${message ? `: ${message}` : ''}`,
      arguments: {
        server,
        ...(tool ? { tool } : {}),
        ...(meta.tool_params !== undefined ? { params: meta.tool_params } : {}),
        ...(message ? { message } : {}),
      },
      choices: ['allow', 'deny'],
    },
    answer: (outcome) => {
      if (outcome === 'allow' || outcome === 'allow_session')
        return { action: 'accept', content: toolCall ? null : {} };
      return { action: outcome === 'deny' ? 'decline' : 'cancel', content: null };
    },
  };
}
