/**
 * The config file's shape (`config.json`). Objects are strict so a misspelt field ("argV") is reported instead of
 * being silently ignored; dialect-specific settings go in a backend's free-form `options`.
 */
import { z } from 'zod';
import { isDevExtensionId } from './allowed-ids';

/** The wire a backend speaks: `tether` passes through untouched, the others go through a dialect adapter. */
export const Dialect = z.enum(['tether', 'codex', 'acp', 'vv']);
export type Dialect = z.infer<typeof Dialect>;

/** An OpenAI-compatible endpoint for the built-in app-server (what the options page's "Model" section saves). */
export const OpenAiEndpointConfig = z.strictObject({
  /** Base URL up to the API version, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  /** Bearer key; masked in every log, journal and frame. */
  apiKey: z.string().min(1).optional(),
  /** Model id of the endpoint that the `openai` model name means. */
  model: z.string().min(1).optional(),
});
export type OpenAiEndpointConfig = z.infer<typeof OpenAiEndpointConfig>;

/** The reference app-server inside the host process. */
export const EmbeddedBackendConfig = z.strictObject({
  kind: z.literal('embedded'),
  dialect: z.literal('tether').default('tether'),
  description: z.string().optional(),
  /** Model name the app-server uses by default. */
  model: z.string().min(1).optional(),
  /** Its OpenAI-compatible endpoint; TETHER_OPENAI_* fill what this leaves out. */
  openai: OpenAiEndpointConfig.optional(),
  /** Where threads are stored; `null` keeps them in memory only. Default: the Tether data directory. */
  dataDir: z.string().min(1).nullable().optional(),
});
export type EmbeddedBackendConfig = z.infer<typeof EmbeddedBackendConfig>;

/** A JSONL app-server started as a child process. */
export const CommandBackendConfig = z.strictObject({
  kind: z.literal('command'),
  argv: z.array(z.string().min(1)).min(1),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string().min(1), z.string()).optional(),
  dialect: Dialect.default('tether'),
  description: z.string().optional(),
  /** Settings for the dialect adapter (passed through untouched). */
  options: z.record(z.string(), z.unknown()).optional(),
});
export type CommandBackendConfig = z.infer<typeof CommandBackendConfig>;

/** One configured backend. */
export const BackendConfig = z.discriminatedUnion('kind', [EmbeddedBackendConfig, CommandBackendConfig]);
export type BackendConfig = z.infer<typeof BackendConfig>;

const BACKEND_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const CHROME_ID = /^[a-p]{32}$/;
const FIREFOX_ID = /^(\{[0-9A-Fa-f-]{36}\}|[^@\s]*@[^@\s]+)$/;

/** A Chrome extension id (32 letters a-p) or a Firefox add-on id (`name@domain` or `{uuid}`). */
export const ExtensionId = z.string().refine((s) => CHROME_ID.test(s) || FIREFOX_ID.test(s), {
  message: 'not a Chrome extension id (32 letters a-p) or a Firefox add-on id (name@domain or {uuid})',
});

/** The whole file. Every field is optional: an empty object means "the defaults". */
export const ConfigFile = z.strictObject({
  $schema: z.string().optional(),
  defaultBackend: z.string().min(1).optional(),
  backends: z
    .record(z.string().regex(BACKEND_ID, 'backend ids use letters, digits, ".", "_" and "-"'), BackendConfig)
    .optional(),
  /** Extension ids allowed to start the host. The development ids are not: only `tether install --dev` allows them. */
  allowedExtensionIds: z
    .array(
      ExtensionId.refine((id) => !isDevExtensionId(id), {
        message:
          "this is the development build's id, whose key is public (manifests/dev-key.json); remove it here: " +
          '`tether install --dev` allows the development build, on a machine where you develop Tether',
      }),
    )
    .optional(),
  log: z
    .strictObject({
      /** Size at which host.log is rotated to host.log.1. */
      maxBytes: z.number().int().min(4096).optional(),
    })
    .optional(),
  daemon: z
    .strictObject({
      /** Whether `tether host` relays to the per-user daemon (false: the agent lives in the host the browser starts). */
      enabled: z.boolean().optional(),
      /** How long a page-tool call waits for a browser to come back before it fails (the daemon only). */
      pageToolWaitSeconds: z.number().min(0).max(86_400).optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

/** What each field expects, said the way a user can act on it; looked up by the field's last named segment. */
export const FIELD_FIXES: Readonly<Record<string, string>> = {
  argv: 'give the command and its arguments as a JSON array of strings, e.g. ["vv-agent", "app-server", "--listen", "stdio"]',
  kind: 'set "kind" to "embedded" (the app-server built into the host) or "command" (a JSONL app-server started as a child process)',
  dialect: 'set "dialect" to one of "tether", "codex", "acp", "vv" (or leave it out for "tether")',
  env: 'map variable names to string values, e.g. {"OPENAI_API_KEY": "sk-..."}',
  cwd: 'give the working directory as a path (relative paths are relative to the config file)',
  dataDir: 'give a directory path for stored threads, or null to keep them in memory',
  model: 'give a model name as a non-empty string',
  description: 'give a short text',
  options: 'give an object of dialect-specific settings',
  allowedExtensionIds:
    'list the ids of your own builds as strings, e.g. ["abcdefghijklmnopabcdefghijklmnop", "tether@example.org"]',
  defaultBackend: 'name one of the ids under "backends" (or "embedded")',
  backends: 'give an object mapping backend ids to {"kind": ..., ...}',
  maxBytes: 'give a whole number of bytes, at least 4096',
  daemon: 'give an object such as {"enabled": true, "pageToolWaitSeconds": 180}',
  enabled:
    'give true (turns run in the Tether daemon and outlive the browser) or false (they run in the host the browser starts)',
  pageToolWaitSeconds: 'give a number of seconds from 0 (fail at once) to 86400',
  openai: 'give {"baseUrl": "http://127.0.0.1:11434/v1", "apiKey": "...", "model": "..."} (set it in the options page)',
  baseUrl: 'give an http:// or https:// URL up to the API version, e.g. "http://127.0.0.1:11434/v1"',
  apiKey: 'give the key as a non-empty string, or remove the field for a server that needs none',
};
