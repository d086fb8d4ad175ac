/**
 * The extension's client tools as MCP tools, and their results as MCP content. The extension declares each tool
 * (name, description, JSON Schema and, since issue 12, annotations); the host adds nothing but a fallback for
 * extensions that do not send annotations yet.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  ClientTool,
  ToolAnnotations,
  ToolCallCancelReason,
  ToolCallCancelledNotification,
  ToolCallParams,
  ToolCallResult,
} from '@tether/protocol';

/**
 * Page tools that only read, for an extension that declares no annotations: Copilot and Codex skip their own prompt
 * for a tool marked `readOnlyHint` (Tether's side panel still asks). Delete once every extension sends annotations.
 */
const READ_ONLY_FALLBACK: ReadonlySet<string> = new Set([
  'page_read',
  'page_snapshot',
  'page_find',
  'tabs_list',
  'page_screenshot',
  'page_wait',
]);

/** One tool as MCP's `tools/list` lists it. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { type: 'object'; [key: string]: unknown };
  readonly annotations: ToolAnnotations;
}

/** What a `tools/call` answers. */
export type McpCallResult = CallToolResult;

/** The annotations of `tool`: its own, else read-only for the tools known to only read, else none claimed. */
export function annotationsOf(tool: ClientTool): ToolAnnotations {
  if (tool.annotations) return tool.annotations;
  return READ_ONLY_FALLBACK.has(tool.name) ? { readOnlyHint: true, destructiveHint: false } : { readOnlyHint: false };
}

/** The client tools as MCP tools (MCP requires an object schema: anything else is wrapped as one). */
export function mcpTools(tools: readonly ClientTool[]): McpTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema:
      tool.inputSchema['type'] === 'object'
        ? { ...tool.inputSchema, type: 'object' }
        : { type: 'object', properties: {}, additionalProperties: true },
    annotations: annotationsOf(tool),
  }));
}

/** The extension's answer to `item/tool/call` as MCP content; a failure (a denial too) is an MCP tool error. */
export function mcpResult(result: ToolCallResult): McpCallResult {
  const content = result.content.map((part): CallToolResult['content'][number] =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image', data: part.data, mimeType: part.mimeType },
  );
  return { content: content.length > 0 ? content : [{ type: 'text', text: '' }], isError: !result.success };
}

/** An MCP tool error carrying `text` for the model (so the agent can go on, unlike a protocol error). */
export function mcpError(text: string): McpCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : undefined;
}

/**
 * The client tools of an `initialize` message from the browser (read by hand: the host does not load Zod on its
 * start-up path); tools whose name, description or schema are missing are left out.
 */
export function clientToolsOf(message: unknown): ClientTool[] {
  const tools = record(record(record(message)?.['params'])?.['capabilities'])?.['clientTools'];
  if (!Array.isArray(tools)) return [];
  const out: ClientTool[] = [];
  for (const raw of tools) {
    const tool = record(raw);
    const inputSchema = record(tool?.['inputSchema']);
    const annotations = record(tool?.['annotations']);
    const { name, description } = tool ?? {};
    if (typeof name !== 'string' || !name || typeof description !== 'string' || !inputSchema) continue;
    out.push({ name, description, inputSchema, ...(annotations ? { annotations: hints(annotations) } : {}) });
  }
  return out;
}

function hints(raw: Record<string, unknown>): ToolAnnotations {
  const out: Record<string, string | boolean> = {};
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (typeof raw[key] === 'boolean') out[key] = raw[key];
  if (typeof raw['title'] === 'string') out['title'] = raw['title'];
  return out;
}

/** The browser's answer to `item/tool/call`, checked; a malformed one reads as a failure saying so. */
export function toolCallResultOf(value: unknown): ToolCallResult {
  const result = record(value);
  const content = result?.['content'];
  if (typeof result?.['success'] !== 'boolean' || !Array.isArray(content)) {
    return { success: false, content: [{ type: 'text', text: 'The browser answered the tool call malformed.' }] };
  }
  const parts: ToolCallResult['content'] = [];
  for (const raw of content) {
    const part = record(raw);
    if (part?.['type'] === 'text' && typeof part['text'] === 'string') parts.push({ type: 'text', text: part['text'] });
    else if (part?.['type'] === 'image' && typeof part['data'] === 'string' && typeof part['mimeType'] === 'string')
      parts.push({ type: 'image', data: part['data'], mimeType: part['mimeType'] });
  }
  return { success: result['success'], content: parts };
}

/** What `callBrowserTool` needs of the connection to the browser. */
export interface BrowserToolPeer {
  /** Sends `item/tool/call`; rejects (and forgets the request) once `signal` aborts. */
  request(params: ToolCallParams, signal: AbortSignal): Promise<unknown>;
  /** Sends `item/tool/call/cancelled`. */
  notify(params: ToolCallCancelledNotification): void;
}

/** What an abandoned call resolves with: nobody reads it (the MCP SDK sends no answer to a cancelled request). */
const ABANDONED: ToolCallResult = {
  success: false,
  content: [{ type: 'text', text: 'The caller stopped waiting for this call, so its result was not delivered.' }],
};

/** The reason an MCP call's signal was aborted with, as the protocol names it (anything else reads as `cancelled`). */
export function cancelReasonOf(signal: AbortSignal): ToolCallCancelReason {
  return signal.reason === 'disconnected' ? 'disconnected' : 'cancelled';
}

/**
 * Runs `item/tool/call` for a caller that may stop waiting: when `signal` aborts first, the browser is told at once
 * (`item/tool/call/cancelled`, so it withdraws the card and acts on no later click) and the call resolves as abandoned.
 */
export async function callBrowserTool(
  peer: BrowserToolPeer,
  params: ToolCallParams,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const withdraw = (): void => {
    const { threadId, turnId, callId } = params;
    peer.notify({ threadId, turnId, callId, reason: cancelReasonOf(signal) });
  };
  if (signal.aborted) return ABANDONED;
  signal.addEventListener('abort', withdraw, { once: true });
  try {
    return toolCallResultOf(await peer.request(params, signal));
  } catch (error) {
    if (signal.aborted) return ABANDONED;
    throw error;
  } finally {
    signal.removeEventListener('abort', withdraw);
  }
}
