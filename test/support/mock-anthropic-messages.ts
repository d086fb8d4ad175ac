/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`, streaming, and `/v1/messages/count_tokens`) so
 * that the real Claude Code runs offline behind claude-code-acp. Scripts choose streamed text, a `tool_use` block (a
 * `Bash` call makes Claude Code ask for permission), or a slow stream to cancel. Requests without tools (Claude Code's
 * side requests: titles, summaries) get a short text and never take a scripted turn.
 */
import { type ScriptedModelServer, type SseWriter, startScriptedModelServer, type TextTurn } from './sse-server';

/** What the mock model answers to one request: text, or a `tool_use` block. */
export type AnthropicTurn =
  | TextTurn
  | { kind: 'toolUse'; name: string; input: Record<string, unknown>; id?: string; text?: string };

/** One content block of a Messages API message. */
export interface AnthropicBlock {
  type: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
  is_error?: boolean;
  [key: string]: unknown;
}

/** The part of a Messages API request the scripts look at. */
export interface AnthropicRequestBody {
  model?: string;
  messages?: Array<{ role: string; content: string | AnthropicBlock[] }>;
  tools?: Array<{ name: string; [key: string]: unknown }>;
  stream?: boolean;
  [key: string]: unknown;
}

/** Decides the answer from the request; `index` counts the agent's streaming requests from 0. */
export type AnthropicScript = (request: { body: AnthropicRequestBody; index: number }) => AnthropicTurn;

/** A running mock; point `ANTHROPIC_BASE_URL` at `origin`. */
export type MockAnthropicMessages = ScriptedModelServer<AnthropicTurn, AnthropicRequestBody>;

/** The blocks of the last user message (a string content as one text block). */
export function lastUserBlocks(body: AnthropicRequestBody): AnthropicBlock[] {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!user) return [];
  return typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
}

/** The newest user text that is not a `<system-reminder>` Claude Code adds (after a tool result, the new prompt). */
export function lastUserText(body: AnthropicRequestBody): string | undefined {
  const texts = lastUserBlocks(body)
    .filter((b) => b.type === 'text' && typeof b.text === 'string' && !b.text.startsWith('<system-reminder>'))
    .map((b) => b.text as string);
  return texts[texts.length - 1];
}

/** Every text the model was sent in user messages (to see that earlier context reached it). */
export function userTexts(body: AnthropicRequestBody): string[] {
  return (body.messages ?? [])
    .filter((m) => m.role === 'user')
    .flatMap((m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content))
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
}

/** The default: after a tool result, "The command finished."; otherwise an echo of the newest user text. */
export const defaultAnthropicScript: AnthropicScript = ({ body }) => {
  const blocks = lastUserBlocks(body);
  if (blocks.some((b) => b.type === 'tool_result') && lastUserText(body) === undefined)
    return { kind: 'text', text: 'The command finished.' };
  return { kind: 'text', text: `You said: ${lastUserText(body)?.trim() ?? '(nothing)'}` };
};

/** Starts the mock on 127.0.0.1 with a random port. */
export async function startMockAnthropicMessages(
  script: AnthropicScript = defaultAnthropicScript,
): Promise<MockAnthropicMessages> {
  return startScriptedModelServer<AnthropicTurn, AnthropicRequestBody>({
    streamPath: '/messages',
    models: { data: [], has_more: false },
    script,
    aside: ({ path, body }) => {
      if (path.endsWith('/count_tokens')) return { json: { input_tokens: 100 } };
      if (path.endsWith('/messages') && (body.tools?.length ?? 0) === 0) {
        if (body.stream !== true) return { json: message(body.model, [{ type: 'text', text: 'OK' }], 'end_turn') };
        return { turn: { kind: 'text', text: 'OK' } };
      }
      return undefined;
    },
    stream: (sse, turn, index, body) => streamTurn(sse, turn, `msg_${index + 2}`, body.model ?? 'claude-sonnet-4-5'),
  });
}

function message(model: string | undefined, content: unknown[], stopReason: string | null) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: model ?? 'claude-sonnet-4-5',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

async function streamTurn(sse: SseWriter, turn: AnthropicTurn, id: string, model: string): Promise<void> {
  const send = (type: string, data: Record<string, unknown>) => sse.send({ type, ...data }, type);
  send('message_start', { message: { ...message(model, [], null), id } });
  let index = 0;
  const text = turn.text;
  if (text !== undefined) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    const pieces = turn.kind === 'toolUse' ? { kind: 'text' as const, text } : turn;
    const finished = await sse.streamText(pieces, (piece) =>
      send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }),
    );
    if (!finished) return;
    send('content_block_stop', { index });
    index++;
  }
  if (turn.kind === 'toolUse') {
    const block = { type: 'tool_use', id: turn.id ?? `toolu_${id}`, name: turn.name, input: {} };
    send('content_block_start', { index, content_block: block });
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) },
    });
    send('content_block_stop', { index });
  }
  send('message_delta', {
    delta: { stop_reason: turn.kind === 'toolUse' ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send('message_stop', {});
  sse.end();
}
