/**
 * Reads and validates the config file. No file at the default location means the built-in defaults (the embedded
 * backend only); a file named by TETHER_CONFIG must exist. Every failure is a ConfigError naming file, field and fix.
 */
import { readFileSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { z } from 'zod';
import { configDir, configFile, dataDir, type PathEnv } from '../paths';
import { ensurePrivateDir, tightenFile } from '../private-files';
import { secrets } from '../secrets';
import { ConfigError, type ConfigIssue } from './config-error';
import {
  builtinBackends,
  DEFAULT_LOG_MAX_BYTES,
  DEFAULT_PAGE_TOOL_WAIT_MS,
  EMBEDDED_BACKEND_ID,
  findBackend,
  type HostConfig,
  RESERVED_BACKEND_IDS,
} from './defaults';
import { configSecrets } from './known-secrets';
import { type BackendConfig, ConfigFile, FIELD_FIXES } from './schema';
import { errorMessage } from '@tether/protocol/errors';

export { EMBEDDED_BACKEND_ID, type HostConfig } from './defaults';

/** Options of loadConfig: the path environment plus an injectable file reader. */
export interface LoadConfigOptions extends PathEnv {
  readonly readFile?: (file: string) => string;
}

/** Loads the config file (or the defaults); throws ConfigError. */
export function loadConfig(options: LoadConfigOptions = {}): HostConfig {
  const env = options.env ?? process.env;
  const file = configFile(options);
  const path = (options.platform ?? process.platform) === 'win32' ? win32 : posix;
  const read = options.readFile ?? ((f: string) => readFileSync(f, 'utf8'));
  let text: string | undefined;
  try {
    text = read(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' || env['TETHER_CONFIG']) {
      const fix =
        code === 'ENOENT'
          ? 'create the file, or unset TETHER_CONFIG to use the default location'
          : 'make the file readable by your user (or delete it to use the defaults)';
      throw new ConfigError(file, [{ field: '', message: `cannot read it (${code ?? String(error)})`, fix }], {
        cause: error,
      });
    }
  }
  const parsed = text === undefined ? {} : parseJson(file, text);
  const reserved = reservedBackendIds(parsed);
  if (reserved.length > 0) throw new ConfigError(file, reserved);
  const result = ConfigFile.safeParse(parsed);
  if (!result.success) throw new ConfigError(file, result.error.issues.map(toIssue), { cause: result.error });
  const data = result.data;

  const base = path.dirname(file);
  const home = options.homedir;
  const absolute = (p: string): string => {
    const expanded = p === '~' || p.startsWith('~/') ? path.join(home ?? env['HOME'] ?? '~', p.slice(1)) : p;
    return path.resolve(base, expanded);
  };
  const backends: Record<string, BackendConfig> = builtinBackends();
  for (const [id, backend] of Object.entries(data.backends ?? {})) {
    if (backend.kind === 'command') backends[id] = backend.cwd ? { ...backend, cwd: absolute(backend.cwd) } : backend;
    else backends[id] = backend.dataDir ? { ...backend, dataDir: absolute(backend.dataDir) } : backend;
  }
  // Keys in a backend's env are masked in the log, the journals and the frames, even when another backend echoes them.
  secrets.learn(configSecrets(backends));
  const notes: string[] = [];
  if (text !== undefined && !options.readFile) {
    // The file holds keys: private, and so is Tether's own config folder (not a folder TETHER_CONFIG points into).
    tightenFile(file, (line) => notes.push(line));
    if (!env['TETHER_CONFIG']) ensurePrivateDir(configDir(options), (line) => notes.push(line));
  }
  const defaultBackend = data.defaultBackend ?? EMBEDDED_BACKEND_ID;
  if (!findBackend({ backends }, defaultBackend)) {
    throw new ConfigError(file, [
      {
        field: 'defaultBackend',
        message: `"${defaultBackend}" is not a configured backend (configured: ${Object.keys(backends).join(', ')})`,
        fix: `set "defaultBackend" to one of them, or add "${defaultBackend}" under "backends"`,
      },
    ]);
  }
  return {
    file,
    source: text === undefined ? 'default' : 'file',
    defaultBackend,
    backends,
    allowedExtensionIds: data.allowedExtensionIds ?? [],
    dataDir: dataDir(options),
    logMaxBytes: data.log?.maxBytes ?? DEFAULT_LOG_MAX_BYTES,
    pageToolWaitMs:
      data.daemon?.pageToolWaitSeconds === undefined
        ? DEFAULT_PAGE_TOOL_WAIT_MS
        : Math.round(data.daemon.pageToolWaitSeconds * 1000),
    ...(data.daemon?.enabled === undefined ? {} : { daemonEnabled: data.daemon.enabled }),
    notes,
  };
}

/**
 * Backend ids named like members every object inherits. Checked on the parsed JSON, before Zod: Zod drops a
 * `"__proto__"` key without a word, and a lookup by `constructor` on a plain object finds Object's constructor.
 */
function reservedBackendIds(parsed: unknown): ConfigIssue[] {
  if (typeof parsed !== 'object' || parsed === null || !Object.hasOwn(parsed, 'backends')) return [];
  const backends: unknown = (parsed as { backends: unknown }).backends;
  if (typeof backends !== 'object' || backends === null || Array.isArray(backends)) return [];
  return Object.keys(backends)
    .filter((id) => RESERVED_BACKEND_IDS.has(id))
    .map((id) => ({
      field: `backends.${id}`,
      message: `"${id}" is a reserved name (every JavaScript object has a member called that), so it cannot be a backend id`,
      fix: `rename the backend, e.g. "my-${id.replace(/^_+|_+$/g, '')}", and use the new name in "defaultBackend" and in the extension's options`,
    }));
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const position = /position (\d+)/.exec(errorMessage(error));
    let where = '';
    if (position) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split('\n').length;
      where = ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
    }
    throw new ConfigError(
      file,
      [
        {
          field: '',
          message: `not valid JSON${where} (${describeJsonError(errorMessage(error))})`,
          fix: 'correct the JSON syntax (no comments or trailing commas), or delete the file to use the defaults',
        },
      ],
      { cause: error },
    );
  }
}

/**
 * Node's JSON error without the excerpt of the file that some of its messages quote: a config file holds API keys,
 * and this text reaches the log and the extension.
 */
function describeJsonError(message: string): string {
  const excerpt = message.search(/, (\.\.\.)?".*is not valid JSON$/s);
  return excerpt >= 0 ? message.slice(0, excerpt) : message.replace(/ in JSON at position \d+.*$/s, '');
}

function toIssue(issue: z.core.$ZodIssue): ConfigIssue {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return {
      field,
      message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`,
      fix: 'remove it or correct its spelling',
    };
  }
  if (issue.code === 'invalid_key') {
    // Zod's own text ("Invalid key in record") hides the rule the key broke.
    return { field, message: issue.issues.map((i) => i.message).join('; ') || issue.message, fix: 'rename it' };
  }
  const named = [...issue.path]
    .reverse()
    .find((p): p is string => typeof p === 'string' && Object.hasOwn(FIELD_FIXES, p));
  const fix = named ? FIELD_FIXES[named]! : 'correct the value, or remove the field to use its default';
  return { field, message: issue.message, fix };
}
