/**
 * The `openai` model: any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio, DeepSeek),
 * streamed (`stream: true`, server-sent events), with the built-in and client tools offered as function tools.
 * Every failure becomes a ModelError that says what to fix; every wait is bounded by the configured timeout.
 */
import { ModelError, type Model, type StreamWriter, type TurnContext } from './model';
import { openAiEndpoint, shownBaseUrl, type OpenAiConfig } from './openai-config';
import { httpError, networkError } from './openai-errors';
import { chatTools, messagesFromItems, systemPrompt, type ChatMessage, type ChatToolCall } from './openai-messages';
import { readSseData } from './sse';
import { secrets } from '../../secrets';

/** Most model calls in one turn: a model that keeps calling tools is stopped there. */
const MAX_STEPS = 32;

interface StepResult {
  text: string;
  toolCalls: ChatToolCall[];
}

interface ChunkDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
}

/** A Chat Completions model. */
export class OpenAiModel implements Model {
  constructor(
    private readonly config: OpenAiConfig,
    private readonly modelId: string,
  ) {}

  async run(ctx: TurnContext): Promise<void> {
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: systemPrompt(
          ctx.cwd,
          ctx.tools.map((t) => t.name),
          ctx.clientTools.map((t) => t.name),
        ),
      },
      ...messagesFromItems(ctx.history),
      { role: 'user', content: ctx.input },
    ];
    for (let step = 0; step < MAX_STEPS; step++) {
      // Input sent with turn/steer joins the conversation at the next model call.
      if (step > 0) for (const text of ctx.takeSteer()) messages.push({ role: 'user', content: text });
      const result = await this.step(ctx, messages);
      if (ctx.signal.aborted || result.toolCalls.length === 0) return;
      messages.push({
        role: 'assistant',
        content: result.text === '' ? null : result.text,
        tool_calls: result.toolCalls,
      });
      for (const call of result.toolCalls) {
        const outcome = await ctx.callTool(call.function.name, parseArguments(call.function.arguments), call.id);
        if (ctx.signal.aborted) return;
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
      }
    }
    throw new ModelError(
      `The model kept calling tools for ${MAX_STEPS} steps; stopped. Ask again with a narrower request.`,
      'max_steps',
    );
  }

  private async step(ctx: TurnContext, messages: ChatMessage[]): Promise<StepResult> {
    const endpoint = openAiEndpoint(this.config, '/chat/completions');
    // Messages name the endpoint without its credentials.
    const url = endpoint.display;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const headerTimer = setTimeout(
      () => controller.abort(new DOMException('headers timeout', 'TimeoutError')),
      this.config.timeoutMs,
    );
    try {
      const body: Record<string, unknown> = { model: this.modelId, messages, stream: true };
      if (ctx.tools.length > 0) body.tools = chatTools(ctx.tools);
      let response: Response;
      try {
        response = await fetch(endpoint.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...endpoint.headers },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } finally {
        clearTimeout(headerTimer);
      }
      if (!response.ok) {
        const text = await readTextBounded(response, this.config.timeoutMs);
        throw httpError(response.status, url, this.modelId, text);
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) return await this.whole(ctx, response, url);
      return await this.stream(ctx, response, url, controller.signal);
    } catch (error) {
      if (ctx.signal.aborted) return { text: '', toolCalls: [] };
      throw networkError(error, shownBaseUrl(this.config), this.config.timeoutMs);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  private async stream(ctx: TurnContext, response: Response, url: string, signal: AbortSignal): Promise<StepResult> {
    if (!response.body)
      throw new ModelError(`${url} sent an empty stream: check that it speaks Chat Completions.`, 'malformed_stream');
    let message: StreamWriter | undefined;
    let reasoning: StreamWriter | undefined;
    let text = '';
    const calls: ChatToolCall[] = [];
    let ended = false;
    for await (const data of readSseData(response.body, { idleMs: this.config.timeoutMs, signal })) {
      if (data.trim() === '[DONE]') {
        ended = true;
        break;
      }
      const chunk = parseChunk(data, url);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta: ChunkDelta = choice.delta ?? {};
      const thought = delta.reasoning_content ?? delta.reasoning;
      if (thought) {
        reasoning ??= ctx.startMessage('reasoning');
        reasoning.delta(thought);
      }
      if (delta.content) {
        reasoning?.complete();
        message ??= ctx.startMessage('agentMessage');
        message.delta(delta.content);
        text += delta.content;
      }
      for (const part of delta.tool_calls ?? []) {
        const index = part.index ?? calls.length;
        calls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
        const call = calls[index];
        if (part.id) call.id = part.id;
        if (part.function?.name) call.function.name += part.function.name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
      if (choice.finish_reason) ended = true;
    }
    if (!ended) {
      throw new ModelError(
        `The stream from ${url} ended before the model finished its answer (connection cut?): retry, or check the server.`,
        'stream_cut',
      );
    }
    reasoning?.complete();
    message?.complete();
    return { text, toolCalls: finishCalls(calls) };
  }

  /** A server that ignored `stream: true` and sent one JSON completion. */
  private async whole(ctx: TurnContext, response: Response, url: string): Promise<StepResult> {
    const raw = await readTextBounded(response, this.config.timeoutMs);
    const json = parseChunk(raw, url);
    const msg = json.choices?.[0]?.message;
    if (!msg)
      throw new ModelError(`${url} sent no choices: check that it speaks Chat Completions.`, 'malformed_stream');
    const text = typeof msg.content === 'string' ? msg.content : '';
    if (text !== '') {
      const writer = ctx.startMessage('agentMessage');
      writer.delta(text);
      writer.complete();
    }
    return { text, toolCalls: finishCalls((msg.tool_calls ?? []) as ChatToolCall[]) };
  }
}

interface Chunk {
  error?: { message?: string } | string;
  choices?: {
    delta?: ChunkDelta;
    finish_reason?: string | null;
    message?: { content?: unknown; tool_calls?: unknown[] };
  }[];
}

function parseChunk(data: string, url: string): Chunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw new ModelError(
      `${url} sent a malformed stream (not JSON: ${JSON.stringify(secrets.text(data.slice(0, 80)))}): check that it speaks OpenAI Chat Completions.`,
      'malformed_stream',
      { cause: error },
    );
  }
  if (!json || typeof json !== 'object') {
    throw new ModelError(
      `${url} sent a malformed stream (not an object): check that it speaks OpenAI Chat Completions.`,
      'malformed_stream',
    );
  }
  const chunk = json as Chunk;
  if (chunk.error) {
    const m = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? JSON.stringify(chunk.error));
    throw new ModelError(`The model server reported an error: ${secrets.text(m)}`, 'server_error');
  }
  return chunk;
}

function finishCalls(calls: ChatToolCall[]): ChatToolCall[] {
  return calls
    .filter((c) => c && c.function.name !== '')
    .map((c, i) => ({
      ...c,
      id: c.id || `call_${i + 1}`,
      function: { ...c.function, arguments: c.function.arguments || '{}' },
    }));
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Models sometimes send broken JSON; the tool then reports what it got.
    return text;
  }
}

async function readTextBounded(response: Response, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(''), timeoutMs);
  });
  try {
    return await Promise.race([response.text().catch(() => ''), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asks `{baseUrl}/models` for the endpoint's model ids (bounded by `timeoutMs`); rejects with a ModelError. */
export async function listOpenAiModels(
  config: OpenAiConfig,
  timeoutMs = Math.min(config.timeoutMs, 5000),
): Promise<string[]> {
  const endpoint = openAiEndpoint(config, '/models');
  let response: Response;
  try {
    response = await fetch(endpoint.url, {
      headers: { accept: 'application/json', ...endpoint.headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw networkError(error, shownBaseUrl(config), timeoutMs);
  }
  const text = await readTextBounded(response, timeoutMs);
  if (!response.ok) throw httpError(response.status, endpoint.display, config.model, text);
  const data = (JSON.parse(text) as { data?: { id?: unknown }[]; models?: { id?: unknown; name?: unknown }[] }) ?? {};
  const list = data.data ?? data.models ?? [];
  return list
    .map((m) => (m as { id?: unknown }).id ?? (m as { name?: unknown }).name)
    .filter((id): id is string => typeof id === 'string');
}
