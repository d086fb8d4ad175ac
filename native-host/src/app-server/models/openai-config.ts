/** Where the `openai` model connects: an OpenAI-compatible Chat Completions endpoint, from options or environment. */

/** Settings of the OpenAI-compatible endpoint. */
export interface OpenAiConfig {
  /** Base URL up to and including the API version, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Bearer token; absent for local servers that need none. Never logged. */
  apiKey?: string;
  /** Model id used when a thread asks for `openai` (e.g. `gpt-4o-mini`, `llama3.2`). */
  model?: string;
  /** Longest wait for response headers and between two streamed chunks, in ms (default 60,000). */
  timeoutMs: number;
}

/** OpenAI's own endpoint, used when only an API key is given. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * Merges explicit settings with the environment (TETHER_OPENAI_BASE_URL / _API_KEY / _MODEL / _TIMEOUT_MS, then
 * OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL). Undefined when nothing configures an endpoint: models other
 * than `scripted` are then unavailable, and nothing reaches the network.
 */
export function resolveOpenAiConfig(
  explicit: Partial<OpenAiConfig> | undefined,
  env: Record<string, string | undefined>,
): OpenAiConfig | undefined {
  const pick = (key: keyof OpenAiConfig, tether: string, openai?: string): string | undefined => {
    const value = explicit?.[key] ?? env[tether] ?? (openai ? env[openai] : undefined);
    return value === undefined || value === '' ? undefined : String(value);
  };
  const baseUrl = pick('baseUrl', 'TETHER_OPENAI_BASE_URL', 'OPENAI_BASE_URL');
  const apiKey = pick('apiKey', 'TETHER_OPENAI_API_KEY', 'OPENAI_API_KEY');
  const model = pick('model', 'TETHER_OPENAI_MODEL', 'OPENAI_MODEL');
  if (baseUrl === undefined && apiKey === undefined && model === undefined) return undefined;
  const timeout = Number(pick('timeoutMs', 'TETHER_OPENAI_TIMEOUT_MS'));
  return {
    baseUrl: (baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, ''),
    apiKey,
    model,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 60_000,
  };
}
