/**
 * The host's model settings, read and written through the host (`bridge/config/*`) so the options page can set up a
 * model without environment variables. A key goes to the host and is written to its private config file; no answer
 * ever carries it back, only whether one is set.
 */
import { z } from 'zod';

/** The OpenAI-compatible endpoint of the built-in backend, as the host shows it: never its key. */
export const BridgeModelSettings = z
  .looseObject({
    baseUrl: z.string().describe('The base URL, e.g. `http://127.0.0.1:11434/v1`, with any credentials in it masked.'),
    model: z.string().optional().describe('The model id new threads use; absent when none is set.'),
    hasApiKey: z.boolean().describe('Whether a key is saved (the key itself is never sent).'),
  })
  .describe('The OpenAI-compatible endpoint of the built-in backend, as the host shows it: never its key.');
export type BridgeModelSettings = z.infer<typeof BridgeModelSettings>;

/** An agent Tether can sit in front of (`tether doctor` lists the same), and whether the host found it. */
export const BridgeAgentPreset = z
  .looseObject({
    id: z.string().describe('The backend id it gets in the config file (`codex`, `copilot`, `claude`, `gemini`).'),
    label: z.string(),
    dialect: z.string(),
    path: z.string().optional().describe('Where the host found its command on the PATH; absent when it did not.'),
    install: z.string().describe('How to install it when it is missing.'),
    configured: z.boolean().describe('Whether the config file has a backend of this id.'),
  })
  .describe('An agent Tether can sit in front of (`tether doctor` lists the same), and whether the host found it.');
export type BridgeAgentPreset = z.infer<typeof BridgeAgentPreset>;

/** A model server on this computer the host looked for (Ollama, LM Studio), and the models it lists. */
export const BridgeLocalModelServer = z
  .looseObject({
    id: z.enum(['ollama', 'lmstudio']),
    label: z.string(),
    baseUrl: z.string(),
    running: z.boolean().describe('Whether it answered.'),
    models: z.array(z.string()).describe('The ids it lists; empty when it is not running.'),
  })
  .describe('A model server on this computer the host looked for (Ollama, LM Studio), and the models it lists.');
export type BridgeLocalModelServer = z.infer<typeof BridgeLocalModelServer>;

/** The host's model settings: the endpoint of its built-in backend, the agents it found, the default backend. */
export const BridgeConfigState = z
  .looseObject({
    file: z.string().describe('The config file the host reads and writes.'),
    defaultBackend: z.string(),
    openai: BridgeModelSettings.nullable().describe('Null when no endpoint is saved in the config file.'),
    presets: z.array(BridgeAgentPreset),
    local: z
      .array(BridgeLocalModelServer)
      .optional()
      .describe('Local model servers, when the request asked to look for them.'),
  })
  .describe(
    "The host's model settings: the endpoint of its built-in backend, the agents it found, the default backend.",
  );
export type BridgeConfigState = z.infer<typeof BridgeConfigState>;

/** `bridge/config/read` (to the host): its model settings, without any key; optionally look for local servers. */
export const BridgeConfigReadParams = z
  .looseObject({
    detectLocal: z
      .boolean()
      .optional()
      .describe('Also look for Ollama and LM Studio on this computer (default false).'),
  })
  .optional()
  .describe(
    '`bridge/config/read` (to the host): its model settings, without any key; optionally look for local servers.',
  );
export type BridgeConfigReadParams = z.infer<typeof BridgeConfigReadParams>;
/** The settings. */
export const BridgeConfigReadResult = BridgeConfigState.describe('The settings.');
export type BridgeConfigReadResult = z.infer<typeof BridgeConfigReadResult>;

/** The base URL and the key of an endpoint as the browser sends them, within the sizes the host accepts. */
const EndpointBaseUrl = z.string().min(1).max(2048);
const EndpointApiKey = z.string().min(1).max(4096);

/** The endpoint to save: `apiKey` absent keeps the saved key, null removes it. */
export const BridgeModelSettingsInput = z
  .looseObject({
    baseUrl: EndpointBaseUrl,
    apiKey: EndpointApiKey.nullable().optional(),
    model: z.string().min(1).max(256).optional(),
  })
  .describe('The endpoint to save: `apiKey` absent keeps the saved key, null removes it.');
export type BridgeModelSettingsInput = z.infer<typeof BridgeModelSettingsInput>;

/**
 * `bridge/config/write` (to the host): save an endpoint for the built-in backend, or enable an agent preset; either
 * becomes the default backend. The file is written private (0600); the browser reconnects to use it.
 */
export const BridgeConfigWriteParams = z
  .looseObject({
    openai: BridgeModelSettingsInput.optional(),
    preset: z.string().optional().describe('The id of a preset whose command the host found.'),
  })
  .describe(
    '`bridge/config/write` (to the host): save an endpoint for the built-in backend, or enable an agent preset; either becomes the default backend. The file is written private (0600); the browser reconnects to use it.',
  );
export type BridgeConfigWriteParams = z.infer<typeof BridgeConfigWriteParams>;
/** The settings as saved. */
export const BridgeConfigWriteResult = BridgeConfigState.describe('The settings as saved.');
export type BridgeConfigWriteResult = z.infer<typeof BridgeConfigWriteResult>;

/**
 * `bridge/config/test` (to the host): ask an endpoint for its models with these settings; without `apiKey`, the saved
 * key is used when the base URL is the saved one. Fails with what went wrong.
 */
export const BridgeConfigTestParams = z
  .looseObject({
    baseUrl: EndpointBaseUrl,
    apiKey: EndpointApiKey.optional(),
  })
  .describe(
    '`bridge/config/test` (to the host): ask an endpoint for its models with these settings; without `apiKey`, the saved key is used when the base URL is the saved one. Fails with what went wrong.',
  );
export type BridgeConfigTestParams = z.infer<typeof BridgeConfigTestParams>;
/** The model ids the endpoint lists. */
export const BridgeConfigTestResult = z
  .looseObject({ models: z.array(z.string()) })
  .describe('The model ids the endpoint lists.');
export type BridgeConfigTestResult = z.infer<typeof BridgeConfigTestResult>;
