/**
 * A local stand-in for the Gemini API (`POST /v1beta/models/M:streamGenerateContent?alt=sse`) so that the real Gemini
 * CLI runs offline (`GOOGLE_GEMINI_BASE_URL` alone selects its keyless gateway auth). Scripts choose streamed text, a
 * `functionCall` part (`run_shell_command` makes Gemini ask for permission), or a slow stream to cancel. Its side
 * requests (`generateContent` for routing and checks, `countTokens`) get fixed answers and never take a scripted turn.
 */
import { type ScriptedModelServer, type SseWriter, startScriptedModelServer, type TextTurn } from './sse-server';

/** What the mock model answers to one request: text, or a function call. */
export type GeminiTurn = TextTurn | { kind: 'functionCall'; name: string; args: Record<string, unknown> };

/** One part of a Gemini content. */
export interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: { name: string; response?: unknown };
  [key: string]: unknown;
}

/** The part of a `generateContent` request the scripts look at. */
export interface GeminiRequestBody {
  contents?: Array<{ role: string; parts: GeminiPart[] }>;
  tools?: Array<{ functionDeclarations?: Array<{ name: string; [key: string]: unknown }> }>;
  [key: string]: unknown;
}

/** Decides the answer from the request; `index` counts streaming requests from 0. */
export type GeminiScript = (request: { body: GeminiRequestBody; index: number }) => GeminiTurn;

/** A running mock; point `GOOGLE_GEMINI_BASE_URL` at `origin`. */
export type MockGeminiApi = ScriptedModelServer<GeminiTurn, GeminiRequestBody>;

/** The parts of the last user content. */
export function lastUserParts(body: GeminiRequestBody): GeminiPart[] {
  return [...(body.contents ?? [])].reverse().find((c) => c.role === 'user')?.parts ?? [];
}

/** Every user text the model was sent (to see that earlier context reached it). */
export function userTexts(body: GeminiRequestBody): string[] {
  return (body.contents ?? [])
    .filter((c) => c.role === 'user')
    .flatMap((c) => c.parts)
    .flatMap((p) => (typeof p.text === 'string' ? [p.text] : []));
}

/** The names of the functions the request declares. */
export function declaredFunctions(body: GeminiRequestBody): string[] {
  return (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/** The default: after a function response, "The command finished."; otherwise an echo of the last user text. */
export const defaultGeminiScript: GeminiScript = ({ body }) => {
  const parts = lastUserParts(body);
  if (parts.some((p) => p.functionResponse)) return { kind: 'text', text: 'The command finished.' };
  const text = parts.flatMap((p) => (typeof p.text === 'string' ? [p.text] : [])).pop();
  return { kind: 'text', text: `You said: ${text?.trim() ?? '(nothing)'}` };
};

/** Starts the mock on 127.0.0.1 with a random port. */
export async function startMockGeminiApi(script: GeminiScript = defaultGeminiScript): Promise<MockGeminiApi> {
  return startScriptedModelServer<GeminiTurn, GeminiRequestBody>({
    streamPath: ':streamGenerateContent',
    models: { models: [] },
    script,
    aside: ({ path }) => {
      if (path.endsWith(':countTokens')) return { json: { totalTokens: 100 } };
      // Routing (model "auto") and its checks ask for JSON by a schema: one answer that satisfies the ones seen.
      if (path.endsWith(':generateContent')) {
        const json = {
          reasoning: 'mock',
          complexity_reasoning: 'mock',
          complexity_score: 1,
          model_choice: 'flash',
          next_speaker: 'user',
        };
        return { json: candidate([{ text: JSON.stringify(json) }], 'STOP') };
      }
      return undefined;
    },
    stream: (sse, turn) => streamTurn(sse, turn),
  });
}

function candidate(parts: GeminiPart[], finishReason?: string) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    ...(finishReason ? { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } } : {}),
    modelVersion: 'gemini-2.5-flash',
  };
}

async function streamTurn(sse: SseWriter, turn: GeminiTurn): Promise<void> {
  if (turn.kind === 'functionCall') {
    sse.send(candidate([{ functionCall: { name: turn.name, args: turn.args } }], 'STOP'));
  } else {
    if (!(await sse.streamText(turn, (text) => sse.send(candidate([{ text }]))))) return;
    sse.send(candidate([{ text: '' }], 'STOP'));
  }
  sse.end();
}
