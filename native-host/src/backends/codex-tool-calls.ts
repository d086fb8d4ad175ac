/**
 * Codex's `item/tool/call` requests (Tether's client tools, the page tools) run in the browser: each waits for the
 * client's answer, and one Codex resolves itself meanwhile (`serverRequest/resolved` on interrupt or turn end) is
 * withdrawn in the browser (its card goes, no later click acts) and left unanswered.
 */
import type { RequestId, ToolCallResult } from '@tether/protocol';
import { callBrowserTool, type BrowserToolPeer } from '../mcp/tools';
import { str } from './dialect-core';

/** The tool calls of one Codex adapter still waiting for the client, by Codex's request id. */
export class CodexToolCalls {
  private readonly waiting = new Map<RequestId, AbortController>();

  constructor(private readonly client: BrowserToolPeer) {}

  /** Codex gave up on request `requestId` (if it is a tool call still waiting): it is withdrawn in the browser. */
  withdraw(requestId: unknown): void {
    if (typeof requestId === 'string' || typeof requestId === 'number') this.waiting.get(requestId)?.abort('cancelled');
  }

  /** Runs Codex's `item/tool/call` `p` in the client; Codex's answer, or a promise that never settles if withdrawn. */
  async call(p: Record<string, unknown>, codexId: RequestId): Promise<unknown> {
    const params = {
      threadId: str(p.threadId) ?? '',
      turnId: str(p.turnId) ?? '',
      callId: str(p.callId) ?? '',
      tool: str(p.tool) ?? '',
      arguments: p.arguments ?? {},
    };
    const stop = new AbortController();
    this.waiting.set(codexId, stop);
    let result: ToolCallResult;
    try {
      result = await callBrowserTool(this.client, params, stop.signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = {
        success: false,
        content: [{ type: 'text', text: `The browser could not run ${params.tool}: ${message}` }],
      };
    } finally {
      this.waiting.delete(codexId);
    }
    if (stop.signal.aborted) return new Promise<never>(() => undefined);
    return {
      success: result.success,
      contentItems: result.content.map((c) =>
        c.type === 'text'
          ? { type: 'inputText', text: c.text }
          : { type: 'inputImage', imageUrl: `data:${c.mimeType};base64,${c.data}` },
      ),
    };
  }
}
