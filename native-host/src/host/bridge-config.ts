/**
 * The host's side of `bridge/config/*`: the model settings the options page shows and saves. Loaded on first use (it
 * loads Zod and the app-server's endpoint code, which a host that is never asked does not need). Keys go one way:
 * written to the private config file and taught to the redactor, never put in an answer or a log line.
 */
import type {
  BridgeAgentPreset,
  BridgeConfigState,
  BridgeConfigTestParams,
  BridgeConfigTestResult,
  BridgeConfigWriteParams,
  BridgeLocalModelServer,
} from '@tether/protocol';
import { ErrorCode, RpcError, errorMessage } from '@tether/protocol/errors';
import { redactUrl } from '@tether/protocol/redact';
import { ModelError } from '../app-server/models/model';
import { listOpenAiModels } from '../app-server/models/openai';
import type { OpenAiConfig } from '../app-server/models/openai-config';
import { BACKEND_PRESETS, type BackendPreset, findPreset, presetBackendConfig } from '../backends/presets';
import { findCommand } from '../command-lookup';
import { ConfigError } from '../config/config-error';
import { EMBEDDED_BACKEND_ID, findBackend, type HostConfig } from '../config/defaults';
import { loadConfig } from '../config/load';
import { writeConfigChange } from '../config/write';
import type { PathEnv } from '../paths';
import { secrets } from '../secrets';

/** The local model servers the host looks for, at their default addresses. */
const LOCAL_SERVERS = [
  { id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { id: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
] as const;

/** How long a local server may take to list its models: one on this computer answers in milliseconds. */
const LOCAL_TIMEOUT_MS = 1500;
/** How long "Test connection" waits for a remote endpoint. */
const TEST_TIMEOUT_MS = 10_000;

/** What the handlers need: where the config lives (the host's environment) and the host's log. */
export interface ConfigDeps extends PathEnv {
  readonly log: (line: string) => void;
}

function asRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof ConfigError)
    return new RpcError(ErrorCode.InvalidParams, secrets.text(error.message), { configFile: error.file });
  return RpcError.internal(secrets.text(errorMessage(error)), error);
}

function load(deps: ConfigDeps): HostConfig {
  try {
    return loadConfig(deps);
  } catch (error) {
    throw asRpcError(error);
  }
}

/** Where the host finds a preset's command: its own PATH (and PATHEXT), the one the browser gave it. */
function commandPath(preset: BackendPreset, deps: ConfigDeps): string | undefined {
  return findCommand(preset.argv[0]!, { env: deps.env ?? process.env });
}

/** The agents of `BACKEND_PRESETS`, whether the host's PATH has their command, and whether the file configures them. */
function presetsOf(config: HostConfig, deps: ConfigDeps): BridgeAgentPreset[] {
  return BACKEND_PRESETS.map((p) => {
    const path = commandPath(p, deps);
    return {
      id: p.id,
      label: p.label,
      dialect: p.dialect,
      install: p.install,
      configured: findBackend(config, p.id) !== undefined,
      ...(path ? { path } : {}),
    };
  });
}

function stateOf(config: HostConfig, deps: ConfigDeps): BridgeConfigState {
  const embedded = findBackend(config, EMBEDDED_BACKEND_ID);
  const openai = embedded?.kind === 'embedded' ? embedded.openai : undefined;
  return {
    file: config.file,
    defaultBackend: config.defaultBackend,
    openai: openai
      ? {
          baseUrl: redactUrl(openai.baseUrl),
          hasApiKey: openai.apiKey !== undefined,
          ...(openai.model ? { model: openai.model } : {}),
        }
      : null,
    presets: presetsOf(config, deps),
  };
}

/** `bridge/config/read`: the settings, and the local model servers when asked. */
export async function readConfigState(deps: ConfigDeps, detectLocal: boolean): Promise<BridgeConfigState> {
  const state = stateOf(load(deps), deps);
  if (!detectLocal) return state;
  return { ...state, local: await Promise.all(LOCAL_SERVERS.map((s) => detect(s))) };
}

async function detect(server: (typeof LOCAL_SERVERS)[number]): Promise<BridgeLocalModelServer> {
  try {
    const models = await listOpenAiModels({ baseUrl: server.baseUrl, timeoutMs: LOCAL_TIMEOUT_MS }, LOCAL_TIMEOUT_MS);
    return { ...server, running: true, models };
  } catch {
    return { ...server, running: false, models: [] };
  }
}

/** `bridge/config/write`: saves the endpoint or enables the preset, and says what the file holds now. */
export async function writeConfig(deps: ConfigDeps, params: BridgeConfigWriteParams): Promise<BridgeConfigState> {
  const { openai, preset } = params;
  if ((openai === undefined) === (preset === undefined)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params for bridge/config/write: give either "openai" (an endpoint to save) or "preset" (an agent to enable), not both or neither',
    );
  }
  // The config as the write left it (loaded by the write itself, to check it and learn its secrets).
  let written: HostConfig | undefined;
  try {
    if (openai) {
      checkBaseUrl('bridge/config/write', openai.baseUrl, 'openai.baseUrl');
      written = writeConfigChange(
        { kind: 'openai', baseUrl: openai.baseUrl, apiKey: openai.apiKey, model: openai.model },
        deps,
      );
      deps.log(
        `bridge/config/write: saved the built-in backend's endpoint ${redactUrl(openai.baseUrl)}` +
          `${openai.model ? `, model ${openai.model}` : ''}${openai.apiKey ? ', a new key' : openai.apiKey === null ? ', no key' : ''} in ${written.file}`,
      );
    } else if (preset !== undefined) {
      const found = findPreset(preset);
      const known = BACKEND_PRESETS.map((p) => p.id).join(', ');
      if (!found)
        throw new RpcError(ErrorCode.InvalidParams, `Unknown agent preset "${preset}": the presets are ${known}`);
      const path = commandPath(found, deps);
      if (!path) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `${found.label} is not on the PATH the browser gives Tether (${found.argv[0]} not found): install it (${found.install}), then restart the browser`,
        );
      }
      written = writeConfigChange({ kind: 'command', id: found.id, backend: presetBackendConfig(found, path) }, deps);
      deps.log(
        `bridge/config/write: enabled the ${found.id} preset (${path}) as the default backend in ${written.file}`,
      );
    }
  } catch (error) {
    throw asRpcError(error);
  }
  return stateOf(written ?? load(deps), deps);
}

/** The -32602 error for a base URL that is not an http(s) URL. */
function checkBaseUrl(method: string, baseUrl: string, field: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for ${method} at ${field}: ${JSON.stringify(redactUrl(baseUrl))} is not an http:// or https:// URL (e.g. http://127.0.0.1:11434/v1)`,
    );
  }
}

/** `bridge/config/test`: the models the endpoint lists, or an error that says what to fix. */
export async function testEndpoint(deps: ConfigDeps, params: BridgeConfigTestParams): Promise<BridgeConfigTestResult> {
  checkBaseUrl('bridge/config/test', params.baseUrl, 'baseUrl');
  const baseUrl = params.baseUrl.replace(/\/+$/, '');
  let apiKey = params.apiKey;
  if (apiKey) secrets.learn([apiKey]);
  else {
    // The saved key is used only for the endpoint it was saved for: it never goes to another server.
    const embedded = findBackend(load(deps), EMBEDDED_BACKEND_ID);
    const saved = embedded?.kind === 'embedded' ? embedded.openai : undefined;
    if (saved?.apiKey && saved.baseUrl.replace(/\/+$/, '') === baseUrl) apiKey = saved.apiKey;
  }
  const config: OpenAiConfig = { baseUrl, timeoutMs: TEST_TIMEOUT_MS, ...(apiKey ? { apiKey } : {}) };
  try {
    const models = await listOpenAiModels(config, TEST_TIMEOUT_MS);
    deps.log(`bridge/config/test: ${redactUrl(baseUrl)} lists ${models.length} model(s)`);
    return { models };
  } catch (error) {
    const message = testFailure(error, redactUrl(baseUrl), apiKey !== undefined);
    deps.log(`bridge/config/test: ${message}`);
    throw new RpcError(ErrorCode.InvalidParams, message);
  }
}

/** What a failed test says, in the options page's words (the endpoint code's mention environment variables). */
function testFailure(error: unknown, shown: string, withKey: boolean): string {
  const code = error instanceof ModelError ? error.code : undefined;
  if (code === 401 || code === 403) {
    return withKey
      ? `${shown} refused the key (HTTP ${code}): check the key and that it may list models.`
      : `${shown} needs a key (HTTP ${code}): enter the API key and test again.`;
  }
  if (code === 404) return `${shown} has no /models (HTTP 404): check the base URL, which usually ends in /v1.`;
  if (error instanceof SyntaxError)
    return `${shown} did not answer /models with JSON: check that the base URL is an OpenAI-compatible API (usually ending in /v1).`;
  return secrets.text(errorMessage(error)).replace(/TETHER_OPENAI_TIMEOUT_MS/g, 'the timeout');
}
