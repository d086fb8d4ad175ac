import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load';
import { secrets } from '../secrets';
import { useTempDirs } from '../testing/temp-dirs';
import { bridgeParams } from './bridge-methods';
import { readConfigState, testEndpoint, writeConfig, type ConfigDeps } from './bridge-config';

const tempDir = useTempDirs('tether-bridge-config-');
const KEY = 'sk-test-0123456789abcdefSECRET';

/** A private environment: Tether's config folder under a fresh XDG_CONFIG_HOME, and a PATH of our choosing. */
function setup(path = ''): { deps: ConfigDeps; lines: string[]; file: string; dir: string } {
  const home = tempDir();
  const lines: string[] = [];
  const env = { XDG_CONFIG_HOME: join(home, 'config'), HOME: home, PATH: path };
  const dir = join(home, 'config', 'tether');
  return { deps: { env, log: (line) => lines.push(line) }, lines, file: join(dir, 'config.json'), dir };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A /v1/models endpoint that wants `key` (when given) and records the Authorization headers it got. */
async function modelsServer(key?: string): Promise<{ baseUrl: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url !== '/v1/models') return void res.writeHead(404).end('{"error":{"message":"no such path"}}');
    if (key && req.headers.authorization !== `Bearer ${key}`)
      return void res.writeHead(401).end(`{"error":{"message":"bad key ${req.headers.authorization ?? ''}"}}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2' }, { id: 'qwen2.5' }] }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

describe('bridge/config/write', () => {
  it('writes the endpoint 0600 in a 0700 folder and answers without the key', async () => {
    const { deps, lines, file, dir } = setup();
    const state = await writeConfig(deps, {
      openai: { baseUrl: 'http://127.0.0.1:9/v1/', apiKey: KEY, model: 'llama3.2' },
    });
    expect(state).toMatchObject({
      file,
      defaultBackend: 'embedded',
      openai: { baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3.2', hasApiKey: true },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.stringify(state)).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.join('\n')).toContain('saved the built-in backend');
    // The host loads what was written, and new threads use the endpoint's model.
    const embedded = loadConfig(deps).backends['embedded'];
    expect(embedded).toMatchObject({
      kind: 'embedded',
      model: 'llama3.2',
      openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY, model: 'llama3.2' },
    });
  });

  it('teaches the key to the redactor, so no log line, journal or frame can show it', async () => {
    const { deps } = setup();
    const key = `sk-${Date.now()}-redaction-check`;
    await writeConfig(deps, { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: key } });
    expect(secrets.text(`the server said: bad key ${key}`)).not.toContain(key);
  });

  it('keeps the saved key when none is given, removes it for null, and keeps the rest of the file', async () => {
    const { deps, file, dir } = setup();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    writeFileSync(
      file,
      JSON.stringify({ log: { maxBytes: 8192 }, backends: { mine: { kind: 'command', argv: ['my-agent'] } } }),
      { mode: 0o644 },
    );
    chmodSync(file, 0o644);
    await writeConfig(deps, { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const kept = await writeConfig(deps, { openai: { baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen2.5' } });
    expect(kept.openai).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen2.5', hasApiKey: true });
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    expect(raw.log).toEqual({ maxBytes: 8192 });
    expect(raw.backends.mine).toEqual({ kind: 'command', argv: ['my-agent'] });
    expect(raw.backends.embedded.openai.apiKey).toBe(KEY);
    const removed = await writeConfig(deps, { openai: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: null } });
    expect(removed.openai?.hasApiKey).toBe(false);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('refuses malformed input with an error that names the field, and leaves the file alone', async () => {
    const { deps, file } = setup();
    await expect(writeConfig(deps, { openai: { baseUrl: 'ftp://example.com/v1' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /openai\.baseUrl: "ftp:\/\/example\.com\/v1" is not an http:\/\/ or https:\/\/ URL/,
      ),
    });
    await expect(writeConfig(deps, { openai: { baseUrl: 'not a url' } })).rejects.toMatchObject({ code: -32602 });
    await expect(writeConfig(deps, {})).rejects.toMatchObject({ message: expect.stringContaining('give either') });
    await expect(
      writeConfig(deps, { preset: 'codex', openai: { baseUrl: 'http://127.0.0.1:9/v1' } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(writeConfig(deps, { preset: 'nope' })).rejects.toMatchObject({
      message: 'Unknown agent preset "nope": the presets are codex, copilot, claude, gemini',
    });
    await expect(writeConfig(deps, { preset: 'codex' })).rejects.toMatchObject({
      message: expect.stringContaining('OpenAI Codex is not on the PATH the browser gives Tether'),
    });
    expect(() => statSync(file)).toThrow();
    // The params parser refuses wrong types before any handler runs.
    expect(() => bridgeParams['bridge/config/write']({ openai: { baseUrl: 'http://x/v1', apiKey: 7 } })).toThrow(
      'Invalid params for bridge/config/write at openai.apiKey: expected a string',
    );
    expect(() => bridgeParams['bridge/config/test']({ apiKey: KEY })).toThrow(
      'Invalid params for bridge/config/test at baseUrl: expected a string',
    );
  });

  it('enables an agent preset found on the PATH as the default backend', async () => {
    const bin = tempDir();
    const codex = join(bin, 'codex');
    writeFileSync(codex, '#!/bin/sh\n', { mode: 0o755 });
    const { deps } = setup(bin);
    const before = await readConfigState(deps, false);
    expect(before.presets.find((p) => p.id === 'codex')).toMatchObject({ path: codex, configured: false });
    expect(before.presets.find((p) => p.id === 'gemini')).not.toHaveProperty('path');
    const state = await writeConfig(deps, { preset: 'codex' });
    expect(state.defaultBackend).toBe('codex');
    expect(state.presets.find((p) => p.id === 'codex')?.configured).toBe(true);
    expect(loadConfig(deps).backends['codex']).toMatchObject({ kind: 'command', argv: [codex, 'app-server'] });
  });
});

describe('bridge/config/read', () => {
  it('says no endpoint is saved when there is no file, and never carries a key', async () => {
    const { deps, file } = setup();
    expect(await readConfigState(deps, false)).toMatchObject({ file, defaultBackend: 'embedded', openai: null });
    await writeConfig(deps, { openai: { baseUrl: `http://user:${KEY}@127.0.0.1:9/v1`, model: 'm' } });
    const state = await readConfigState(deps, false);
    expect(JSON.stringify(state)).not.toContain(KEY);
    expect(state).not.toHaveProperty('local');
  });
});

describe('bridge/config/test', () => {
  it('lists the models with the given key, and says when the key is refused or missing', async () => {
    const { deps, lines } = setup();
    const { baseUrl, seen } = await modelsServer(KEY);
    expect(await testEndpoint(deps, { baseUrl, apiKey: KEY })).toEqual({ models: ['llama3.2', 'qwen2.5'] });
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    await expect(testEndpoint(deps, { baseUrl, apiKey: 'sk-wrong-key-000000' })).rejects.toMatchObject({
      message: `${baseUrl} refused the key (HTTP 401): check the key and that it may list models.`,
    });
    await expect(testEndpoint(deps, { baseUrl })).rejects.toMatchObject({
      message: `${baseUrl} needs a key (HTTP 401): enter the API key and test again.`,
    });
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('uses the saved key for the saved endpoint only, never for another server', async () => {
    const { deps } = setup();
    const { baseUrl, seen } = await modelsServer(KEY);
    await writeConfig(deps, { openai: { baseUrl, apiKey: KEY } });
    expect((await testEndpoint(deps, { baseUrl: `${baseUrl}/` })).models).toHaveLength(2);
    const other = baseUrl.replace('127.0.0.1', 'localhost');
    await expect(testEndpoint(deps, { baseUrl: other })).rejects.toMatchObject({
      message: expect.stringContaining('needs a key'),
    });
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it('says what is wrong with an address that is no model API', async () => {
    const { deps } = setup();
    const { baseUrl } = await modelsServer();
    await expect(testEndpoint(deps, { baseUrl: baseUrl.replace('/v1', '/v2') })).rejects.toMatchObject({
      message: expect.stringContaining('has no /models (HTTP 404): check the base URL'),
    });
    server?.close();
    await expect(testEndpoint(deps, { baseUrl })).rejects.toMatchObject({
      message: expect.stringContaining('connection refused'),
    });
  });
});
