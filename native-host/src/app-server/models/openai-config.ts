/**
 * Where the `openai` model connects: an OpenAI-compatible Chat Completions endpoint, from options or environment.
 * Base URL rules: `/chat/completions` and `/models` are appended to the URL's path, and its query string is kept after
 * them (`.../v1?api-key=X` becomes `.../v1/chat/completions?api-key=X`). User-info (`https://user:pass@host/v1`) is
 * taken off the URL and sent as `Authorization: Basic`; with an API key as well, the request is refused (one
 * Authorization header cannot carry both). The URL is shown only with its user-info and secret query values masked.
 */
import { redactUrl, secretsInUrl } from '@tether/protocol/redact';
import { secrets } from '../../secrets';
import { ModelError } from './model';

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
  // The key and the URL's credentials are masked everywhere from now on, whatever echoes them.
  secrets.learn([apiKey, ...(baseUrl ? secretsInUrl(baseUrl) : [])]);
  const timeout = Number(pick('timeoutMs', 'TETHER_OPENAI_TIMEOUT_MS'));
  return {
    baseUrl: (baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, ''),
    apiKey,
    model,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 60_000,
  };
}

/** A request target of the endpoint: the URL to fetch, the same URL fit to show, and the headers that authenticate it. */
export interface OpenAiEndpoint {
  readonly url: URL;
  readonly display: string;
  readonly headers: Record<string, string>;
}

/**
 * The endpoint for `path` (`/chat/completions`, `/models`) under the configured base URL, following the base URL
 * rules above; rejects with a ModelError (code `bad_base_url`) that says what to fix.
 */
export function openAiEndpoint(config: OpenAiConfig, path: string): OpenAiEndpoint {
  const shown = redactUrl(config.baseUrl);
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch (error) {
    throw new ModelError(
      `The OpenAI base URL ${JSON.stringify(shown)} is not a URL: set TETHER_OPENAI_BASE_URL to e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1.`,
      'bad_base_url',
      { cause: error },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelError(
      `The OpenAI base URL ${shown} is not http(s): set TETHER_OPENAI_BASE_URL to an http:// or https:// URL.`,
      'bad_base_url',
    );
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const headers: Record<string, string> = {};
  if (user || password) {
    if (config.apiKey) {
      throw new ModelError(
        `The OpenAI base URL ${shown} carries a user name and password and an API key is set too: one Authorization header cannot ` +
          'carry both. Remove the user-info from TETHER_OPENAI_BASE_URL, or unset TETHER_OPENAI_API_KEY / OPENAI_API_KEY.',
        'bad_base_url',
      );
    }
    const basic = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
    secrets.learn([basic]);
    headers.authorization = `Basic ${basic}`;
  } else if (config.apiKey) {
    headers.authorization = `Bearer ${config.apiKey}`;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return { url, display: redactUrl(url.href), headers };
}

/** The configured base URL fit to show (user-info and secret query values masked). */
export function shownBaseUrl(config: OpenAiConfig): string {
  return redactUrl(config.baseUrl);
}
