/**
 * Changes the config file for the options page (`bridge/config/write`): the file as it is on disk is edited (fields
 * the change does not touch stay as the user wrote them), validated as `loadConfig` validates it, and replaced at
 * once (a temporary file, then a rename) so the host never reads half a file. The file is 0600 from its first byte;
 * Tether's own config folder is 0700 (a folder TETHER_CONFIG points into is the user's, only required to exist).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { configDir, configFile, type PathEnv } from '../paths';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile } from '../private-files';
import { secrets } from '../secrets';
import { ConfigError } from './config-error';
import { EMBEDDED_BACKEND_ID, type HostConfig } from './defaults';
import { configSecrets } from './known-secrets';
import { loadConfig } from './load';
import { type CommandBackendConfig, ConfigFile, type OpenAiEndpointConfig } from './schema';

/** A JSON object as the file holds it. */
type JsonObject = Record<string, unknown>;

/** What to change: the built-in backend's endpoint, or a command backend (an agent preset); either becomes the default. */
export type ConfigChange =
  | {
      readonly kind: 'openai';
      readonly baseUrl: string;
      /** A new key; null removes the saved one; undefined keeps it. */
      readonly apiKey: string | null | undefined;
      readonly model: string | undefined;
    }
  | { readonly kind: 'command'; readonly id: string; readonly backend: CommandBackendConfig };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's JSON object, `{}` when there is no file; a ConfigError when it cannot be read or is not an object. */
function readRaw(file: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(
      file,
      [{ field: '', message: `cannot read it (${String(error)})`, fix: 'make it readable' }],
      {
        cause: error,
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    // The text is not quoted: the file holds keys.
    throw new ConfigError(
      file,
      [
        {
          field: '',
          message: 'not valid JSON',
          fix: 'correct it by hand (tether doctor shows where), then save again',
        },
      ],
      { cause: error },
    );
  }
  if (!isObject(parsed))
    throw new ConfigError(file, [{ field: '', message: 'not a JSON object', fix: 'make it an object, e.g. {}' }]);
  return parsed;
}

/** The file's object with `change` applied (a new object: `raw` is not modified). */
export function applyChange(raw: JsonObject, change: ConfigChange): JsonObject {
  const backends = isObject(raw['backends']) ? { ...raw['backends'] } : {};
  if (change.kind === 'command') {
    backends[change.id] = change.backend;
    return { ...raw, backends, defaultBackend: change.id };
  }
  const current = isObject(backends[EMBEDDED_BACKEND_ID]) ? backends[EMBEDDED_BACKEND_ID] : {};
  const before = isObject(current['openai']) ? current['openai'] : {};
  const apiKey = change.apiKey === undefined ? before['apiKey'] : (change.apiKey ?? undefined);
  const openai: Partial<OpenAiEndpointConfig> = {
    baseUrl: change.baseUrl.replace(/\/+$/, ''),
    ...(typeof apiKey === 'string' ? { apiKey } : {}),
    ...(change.model ? { model: change.model } : {}),
  };
  const embedded: JsonObject = { ...current, kind: 'embedded', openai };
  // New threads use the endpoint's model; without one they keep what the file said (the scripted model by default).
  if (change.model) embedded['model'] = change.model;
  backends[EMBEDDED_BACKEND_ID] = embedded;
  return { ...raw, backends, defaultBackend: EMBEDDED_BACKEND_ID };
}

/**
 * Applies `change` to the config file the host reads (TETHER_CONFIG or the default location); resolves with the config
 * as it loads now. Throws a ConfigError, naming the field and its fix, when the result would not load; the file is then
 * untouched.
 */
export function writeConfigChange(change: ConfigChange, options: PathEnv = {}): HostConfig {
  const env = options.env ?? process.env;
  const file = configFile(options);
  const next = applyChange(readRaw(file), change);
  const checked = ConfigFile.safeParse(next);
  if (!checked.success) {
    throw new ConfigError(
      file,
      checked.error.issues.map((i) => ({
        field: i.path.map(String).join('.'),
        message: secrets.text(i.message),
        fix: 'correct the value in the options page',
      })),
    );
  }
  // Masked from now on, before any line about this write can be logged.
  if (change.kind === 'openai' && change.apiKey) secrets.learn([change.apiKey]);
  if (env['TETHER_CONFIG']) ensurePrivateDir(dirname(file));
  else ensurePrivateDir(configDir(options));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  // An existing temp file of the same name kept its looser mode through open(): tightened before it is renamed.
  tightenFile(tmp);
  renameSync(tmp, file);
  // What loadConfig reads must load, and its secrets are known to the redactor at once.
  const written = loadConfig(options);
  secrets.learn(configSecrets(written.backends));
  return written;
}
