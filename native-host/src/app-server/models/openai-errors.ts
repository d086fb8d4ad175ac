/**
 * Turns what went wrong talking to an OpenAI-compatible endpoint into a ModelError that says what to fix. Servers
 * echo keys in error bodies and Node's errors may quote the URL: every message is redacted before it leaves here.
 */
import { secrets } from '../../secrets';
import { ModelError } from './model';

/** A ModelError whose message has its secrets masked (it reaches the journal, the log and the browser). */
function modelError(message: string, code?: string | number, options?: { cause?: unknown }): ModelError {
  return new ModelError(secrets.text(message), code, options);
}
import { StreamIdleError } from './sse';

/**
 * A failed HTTP answer: its status and the server's own message (from `{error:{message}}` when present). `url` is the
 * endpoint as shown (see `openAiEndpoint`).
 */
export function httpError(status: number, url: string, model: string | undefined, body: string): ModelError {
  const detail = serverMessage(body);
  const said = detail ? ` The server said: ${detail}` : '';
  if (status === 401 || status === 403) {
    return modelError(
      `${url} refused the request (HTTP ${status}): check the API key (TETHER_OPENAI_API_KEY or OPENAI_API_KEY) and its access to model "${model ?? '?'}".${said}`,
      status,
    );
  }
  if (status === 404) {
    return modelError(
      `${url} answered HTTP 404: check the base URL (TETHER_OPENAI_BASE_URL, usually ending in /v1) and the model id "${model ?? '?'}".${said}`,
      status,
    );
  }
  if (status === 429) {
    return modelError(
      `${url} is rate limiting requests (HTTP 429): wait a little and retry later, or check your quota.${said}`,
      status,
    );
  }
  if (status >= 500) {
    return modelError(
      `The model server failed (HTTP ${status} from ${url}): retry later, or check the server's logs.${said}`,
      status,
    );
  }
  return modelError(
    `${url} rejected the request (HTTP ${status}).${said || ' Check the model id and the server settings.'}`,
    status,
  );
}

/** A request that never got an answer: refused, unresolvable, timed out, or cut. */
export function networkError(error: unknown, baseUrl: string, timeoutMs: number): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof StreamIdleError || (error as Error)?.name === 'TimeoutError') {
    return modelError(
      `No answer from ${baseUrl} within ${timeoutMs} ms: the server is slow or stuck. Check it, or raise TETHER_OPENAI_TIMEOUT_MS.`,
      'timeout',
      { cause: error },
    );
  }
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') {
    return modelError(
      `Cannot connect to ${baseUrl}: connection refused. Is the model server running at ${baseUrl}?`,
      code,
      { cause: error },
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return modelError(`Cannot resolve the host of ${baseUrl}: check TETHER_OPENAI_BASE_URL and your network.`, code, {
      cause: error,
    });
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || (error as Error)?.message === 'terminated') {
    return modelError(
      `The connection to ${baseUrl} was cut before the model finished its answer: retry, or check the server.`,
      'stream_cut',
      { cause: error },
    );
  }
  const message = (error as Error)?.message ?? String(error);
  return modelError(`Cannot reach ${baseUrl}: ${message}${code ? ` (${code})` : ''}.`, code ?? 'network', {
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function serverMessage(body: string): string {
  let text = body.trim();
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof m === 'string') text = m;
  } catch {
    // Not JSON: show the start of the text.
  }
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
