/**
 * A local stand-in for an OpenAI-compatible Chat Completions endpoint (`GET /v1/models`, `POST /v1/chat/completions`
 * streaming) so that the real Copilot CLI runs offline in ACP mode. Scripts choose streamed text, a tool call (which
 * makes Copilot ask for permission), or a slow stream to cancel.
 */
import { type ScriptedModelServer, type SseWriter, startScriptedModelServer, type TextTurn } from './sse-server';

/** What the mock model answers to one request: text, or a tool call (which makes Copilot ask for permission). */
export type ChatTurn =
  | TextTurn
  | {
      kind: 'toolCall';
      name: string;
      arguments: Record<string, unknown>;
      callId?: string;
      /** The call is sent once this settles: a test holds the model mid-turn (e.g. while the browser goes away). */
      release?: Promise<unknown>;
    };

/** The part of a Chat Completions request the scripts look at. */
export interface ChatRequestBody {
  model?: string;
  messages?: Array<{ role: string; content?: unknown; tool_call_id?: string; [key: string]: unknown }>;
  tools?: Array<{ type: string; function?: { name: string; [key: string]: unknown } }>;
  stream?: boolean;
  [key: string]: unknown;
}

/** Decides the answer from the request; `index` counts completion requests from 0. */
export type ChatScript = (request: { body: ChatRequestBody; index: number }) => ChatTurn;

/** A running mock; `baseUrl` ends in `/v1`. */
export interface MockChatCompletions extends ScriptedModelServer<ChatTurn, ChatRequestBody> {
  readonly baseUrl: string;
}

/** The text of a message's content, whether a string or an array of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) =>
      typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string'
        ? (p as { text: string }).text
        : '',
    )
    .join('');
}

/** The default: after a tool result, "The command finished."; otherwise an echo of the last user message. */
export const defaultChatScript: ChatScript = ({ body }) => {
  const messages = body.messages ?? [];
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') return { kind: 'text', text: 'The command finished.' };
  const user = [...messages].reverse().find((m) => m.role === 'user');
  return { kind: 'text', text: `You said: ${user ? contentText(user.content).trim() : '(nothing)'}` };
};

/** Starts the mock on 127.0.0.1 with a random port. */
export async function startMockChatCompletions(script: ChatScript = defaultChatScript): Promise<MockChatCompletions> {
  const server = await startScriptedModelServer<ChatTurn, ChatRequestBody>({
    streamPath: '/chat/completions',
    models: { object: 'list', data: MODELS },
    script,
    stream: (sse, turn, index, body) => streamTurn(sse, turn, `chatcmpl-${index + 1}`, body.model ?? 'gpt-4.1'),
  });
  return { ...server, baseUrl: `${server.origin}/v1` };
}

const MODELS = ['gpt-4.1', 'gpt-5-mini'].map((id) => ({
  id,
  object: 'model',
  created: 1_700_000_000,
  owned_by: 'mock',
  name: id,
  capabilities: {
    type: 'chat',
    family: id,
    supports: { streaming: true, tool_calls: true },
    limits: { max_prompt_tokens: 128000, max_output_tokens: 16384 },
  },
}));

async function streamTurn(sse: SseWriter, turn: ChatTurn, id: string, model: string): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  sse.send(chunk({ role: 'assistant', content: '' }));
  if (turn.kind === 'toolCall') {
    await turn.release;
    const call = {
      index: 0,
      id: turn.callId ?? `call_${id}`,
      type: 'function',
      function: { name: turn.name, arguments: JSON.stringify(turn.arguments) },
    };
    sse.send(chunk({ tool_calls: [call] }));
    sse.send(chunk({}, 'tool_calls'));
  } else {
    if (!(await sse.streamText(turn, (content) => sse.send(chunk({ content }))))) return;
    sse.send(chunk({}, 'stop'));
  }
  sse.send({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  sse.send('[DONE]');
  sse.end();
}
