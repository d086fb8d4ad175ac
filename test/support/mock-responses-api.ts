/**
 * A local stand-in for the OpenAI Responses API (`POST /v1/responses`, streaming) so that the real `codex app-server`
 * runs offline. Each test scripts what the "model" answers: streamed text, a function call (which makes Codex ask for
 * a command approval), or a slow stream to interrupt.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedModelServer, type SseWriter, startScriptedModelServer, type TextTurn } from './sse-server';

/** What the mock model answers to one request: text, or a function call (which makes Codex ask for an approval). */
export type MockModelTurn =
  | TextTurn
  | {
      kind: 'functionCall';
      name: string;
      arguments: Record<string, unknown>;
      callId?: string;
      text?: string;
      /** The tool's namespace: Codex lists an MCP server's tools as functions of `mcp__<server>`. */
      namespace?: string;
      /** The call is sent once this settles (the test chooses when the model asks). */
      release?: Promise<unknown>;
    };

/** Decides the answer from the request: `index` counts requests from 0. */
export type MockModelScript = (request: { body: ResponsesRequestBody; index: number }) => MockModelTurn;

/** The part of a Responses API request body that the scripts look at. */
export interface ResponsesRequestBody {
  model?: string;
  input?: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** A running mock; `baseUrl` ends in `/v1`. */
export interface MockResponsesApi extends ScriptedModelServer<MockModelTurn, ResponsesRequestBody> {
  readonly baseUrl: string;
}

/** The default: a message answering a tool result, else an echo of the last user text. */
export const defaultResponsesScript: MockModelScript = ({ body }) => {
  const last = body.input?.[body.input.length - 1];
  if (last?.type === 'function_call_output') return { kind: 'text', text: 'The command finished.' };
  return { kind: 'text', text: `You said: ${lastUserText(body) ?? '(nothing)'}` };
};

/** The text of the last user message in a Responses API request, if any. */
export function lastUserText(body: ResponsesRequestBody): string | undefined {
  for (let i = (body.input?.length ?? 0) - 1; i >= 0; i--) {
    const item = body.input?.[i];
    if (item?.role !== 'user' || !Array.isArray(item.content)) continue;
    const parts = (item.content as Array<Record<string, unknown>>)
      .filter((c) => c.type === 'input_text' && typeof c.text === 'string')
      .map((c) => c.text as string);
    if (parts.length > 0) return parts[parts.length - 1];
  }
  return undefined;
}

/** Starts the mock on 127.0.0.1 with a random port. */
export async function startMockResponsesApi(
  script: MockModelScript = defaultResponsesScript,
): Promise<MockResponsesApi> {
  const server = await startScriptedModelServer<MockModelTurn, ResponsesRequestBody>({
    streamPath: '/responses',
    models: { models: [] },
    script,
    stream: (sse, turn, index) => streamTurn(sse, turn, `resp_${index + 1}`),
  });
  return { ...server, baseUrl: `${server.origin}/v1` };
}

async function streamTurn(sse: SseWriter, turn: MockModelTurn, responseId: string): Promise<void> {
  const response = {
    id: responseId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: 'mock-model',
  };
  sse.send(
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    'response.created',
  );
  let outputIndex = 0;
  if (turn.kind === 'text' || turn.kind === 'slow' || (turn.kind === 'functionCall' && turn.text)) {
    // A function call's preamble is one piece, at once.
    const text: TextTurn = turn.kind === 'functionCall' ? { kind: 'text', text: turn.text ?? '', chunks: 1 } : turn;
    await streamMessage(sse, `msg_${responseId}`, outputIndex++, text);
    if (sse.closed) return;
  }
  if (turn.kind === 'functionCall') {
    await turn.release;
    if (sse.closed) return;
    const item = {
      type: 'function_call',
      id: `fc_${responseId}`,
      call_id: turn.callId ?? `call_${responseId}`,
      name: turn.name,
      ...(turn.namespace ? { namespace: turn.namespace } : {}),
      arguments: JSON.stringify(turn.arguments),
      status: 'completed',
    };
    sse.send(
      { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, arguments: '' } },
      'response.output_item.added',
    );
    sse.send({ type: 'response.output_item.done', output_index: outputIndex, item }, 'response.output_item.done');
  }
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  sse.send({ type: 'response.completed', response: { ...response, status: 'completed', usage } }, 'response.completed');
  sse.end();
}

async function streamMessage(sse: SseWriter, id: string, outputIndex: number, turn: TextTurn): Promise<void> {
  const text = turn.text;
  sse.send(
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] },
    },
    'response.output_item.added',
  );
  const streamed = await sse.streamText(turn, (delta) =>
    sse.send(
      { type: 'response.output_text.delta', item_id: id, output_index: outputIndex, content_index: 0, delta },
      'response.output_text.delta',
    ),
  );
  if (!streamed) return;
  const item = {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  sse.send({ type: 'response.output_item.done', output_index: outputIndex, item }, 'response.output_item.done');
}

/** Writes a temporary CODEX_HOME whose config points Codex at the mock (and nowhere else). */
export async function writeCodexHome(dir: string, mockOrigin: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const toml = [
    'model = "mock-model"',
    'model_provider = "mock"',
    'sandbox_mode = "workspace-write"',
    `chatgpt_base_url = "${mockOrigin}/backend-api/"`,
    '[features]',
    'plugins = false',
    'apps = false',
    'remote_plugin = false',
    '[model_providers.mock]',
    'name = "Local mock"',
    `base_url = "${mockOrigin}/v1"`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '',
  ].join('\n');
  await writeFile(join(dir, 'config.toml'), toml);
  return dir;
}
