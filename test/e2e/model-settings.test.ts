/**
 * A real model without environment variables, in real Chromium (issue 13, item 5): the options page sets an
 * OpenAI-compatible endpoint and its key through the host (Test connection lists the models, Save writes the host's
 * config file), the panel's first-run welcome names the backend and model, and a prompt is answered by that model.
 * The key is in the host's private config file (0600 in a 0700 folder) and nowhere else: not in the extension's
 * storage, not in the host's log, not in a journal.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import {
  agentTexts,
  completedAnswers,
  openSidePanel,
  openWebPage,
  sendPrompt,
  waitConnected,
} from '../support/extension-pages';
import { type MockChatCompletions, startMockChatCompletions } from '../support/mock-chat-completions';

const KEY = 'sk-e2e-model-settings-7f3a9c1d2b';

/** Every file under `dir`, with its text. */
async function filesUnder(dir: string): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, text: await readFile(path, 'utf8').catch(() => '') });
  }
  return out;
}

/** A stand-in Ollama on its default port, when that port is free here. */
async function fakeOllama(): Promise<Server | undefined> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2:latest' }] }));
  });
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(11434, '127.0.0.1', () => resolve(server));
  });
}

describe('model settings through the host, in Chromium', () => {
  const suite = useBrowserSuite();
  let mock: MockChatCompletions;
  let ollama: Server | undefined;
  beforeAll(async () => {
    mock = await startMockChatCompletions();
    ollama = await fakeOllama();
  });
  afterAll(async () => {
    await mock?.close();
    ollama?.close();
  });

  it('sets an endpoint and key in the options page, and the panel’s prompt is answered by that model', async () => {
    const options = await suite.browser.openExtensionPage('src/options/index.html');
    await waitConnected(options);
    const section = options.locator('.model-settings');
    if (ollama) {
      await section.locator('[data-local="ollama"]').waitFor();
      expect(await section.locator('[data-local="ollama"]').textContent()).toContain(
        'Found Ollama on this computer (1 model)',
      );
      await section.locator('button[data-action="use-ollama"]').click();
      expect(await section.locator('input[name="openai-base-url"]').inputValue()).toBe('http://127.0.0.1:11434/v1');
      expect(await section.locator('input[name="openai-model"]').inputValue()).toBe('llama3.2:latest');
    }

    await section.locator('input[name="openai-base-url"]').fill(mock.baseUrl);
    await section.locator('input[name="openai-api-key"]').fill(KEY);
    await section.locator('input[name="openai-model"]').fill('');
    await section.locator('button[data-action="test-connection"]').click();
    await expect
      .poll(() => section.locator('.model-status').textContent())
      .toBe('Connected: 2 models (gpt-4.1, gpt-5-mini).');
    expect(await section.locator('input[name="openai-model"]').inputValue()).toBe('gpt-4.1');
    expect(mock.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    await section.locator('button[data-action="save-model"]').click();
    await expect.poll(() => section.locator('.model-status').textContent()).toMatch(/^Saved in .*config\.json\. /);
    // The key field is emptied and never filled again; the page only knows that a key is saved.
    expect(await section.locator('input[name="openai-api-key"]').inputValue()).toBe('');
    await options.reload();
    await waitConnected(options);
    await expect
      .poll(() => options.locator('input[name="openai-api-key"]').getAttribute('placeholder'))
      .toBe('Saved (leave empty to keep it)');
    expect(await options.locator('input[name="openai-api-key"]').inputValue()).toBe('');
    expect(await options.content()).not.toContain(KEY);

    // The host's file: private, in a private folder.
    const configDir = join(suite.browser.homeDir, 'config', 'tether');
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(configDir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(configDir, 'config.json'), 'utf8')).toContain(KEY);

    // First run of the panel: the welcome names what answers, its prompts fill the composer, the composer has focus.
    const { page, tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel);
    const welcome = panel.locator('.welcome');
    await expect
      .poll(() => welcome.locator('.welcome-backend').textContent())
      .toBe('Answering: embedded, model gpt-4.1.');
    const box = panel.locator('textarea[name="prompt"]');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await welcome.locator('button[data-action="suggest"]').first().click();
    expect(await box.inputValue()).toBe('Summarise this page in five bullet points.');
    expect(await panel.locator('.transcript .item').count()).toBe(0);

    const lighthouses = await openWebPage(suite.browser, suite.demo.url('/other'));
    const early = await openSidePanel(suite.browser, lighthouses.tabId);
    await early.locator('.welcome').waitFor();

    await sendPrompt(panel, 'Hello, real model');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    expect((await agentTexts(panel)).at(-1)).toContain('You said: Hello, real model');
    const chat = mock.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chat.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await welcome.count()).toBe(0);

    // Shown until the first message is sent, in every panel: the one open in another tab closes its welcome, and a
    // panel opened later has none.
    await expect.poll(() => early.locator('.welcome').count()).toBe(0);
    const other = await openWebPage(suite.browser, suite.demo.url('/other'));
    const second = await openSidePanel(suite.browser, other.tabId);
    await waitConnected(second);
    await second.locator('textarea[name="prompt"]').waitFor();
    expect(await second.locator('.welcome').count()).toBe(0);

    // The key is nowhere but the host's config file.
    const worker = await suite.browser.serviceWorker();
    const stored = await worker.evaluate(async () => {
      const storage = (
        globalThis as unknown as { chrome: { storage: Record<string, { get(k: null): Promise<object> }> } }
      ).chrome.storage;
      return JSON.stringify([await storage.local!.get(null), await storage.session!.get(null)]);
    });
    expect(stored).toContain('"tether.welcomeDone":true');
    expect(stored).not.toContain(KEY);
    const written = [
      ...(await filesUnder(join(suite.browser.homeDir, 'state'))),
      ...(await filesUnder(join(suite.browser.homeDir, 'data'))),
    ];
    // In host.log when the host serves in-process, in daemon.log when the daemon does.
    expect(
      written.some((f) => /(host|daemon)\.log$/.test(f.path) && f.text.includes('saved the built-in backend')),
    ).toBe(true);
    expect(written.filter((f) => f.text.includes(KEY)).map((f) => f.path)).toEqual([]);
    await Promise.all([options, panel, page, second, other.page, early, lighthouses.page].map((p) => p.close()));
  });
});

/** A folder with a `gemini` command that runs the scripted ACP agent (what the Gemini CLI speaks with --acp). */
function fakeGeminiOnPath(): string {
  const bin = mkdtempSync(join(tmpdir(), 'tether-fake-gemini-'));
  const agent = join(REPO_ROOT, 'test/fixtures/acp-agent.mjs');
  writeFileSync(join(bin, 'gemini'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(agent)}\n`, {
    mode: 0o755,
  });
  return bin;
}

describe('an agent found on the PATH, enabled in one click, in Chromium', () => {
  const bin = fakeGeminiOnPath();
  const suite = useBrowserSuite({ env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('offers the agents the host finds, makes the chosen one the default backend, and the panel talks to it', async () => {
    const options = await suite.browser.openExtensionPage('src/options/index.html');
    await waitConnected(options);
    const gemini = options.locator('.presets li[data-preset="gemini"]');
    await gemini.locator('button[data-action="enable-gemini"]').waitFor();
    // An agent that is not installed says how to install it instead.
    expect(await options.locator('.presets li[data-preset="codex"]').textContent()).toContain('not found on the PATH');
    await gemini.locator('button[data-action="enable-gemini"]').click();
    await expect
      .poll(() => options.locator('.model-status').textContent())
      .toBe('Gemini CLI is now the default backend. Tether reconnects to use it.');
    await expect.poll(() => gemini.textContent(), { timeout: 15_000 }).toContain('in use (the default backend)');
    const config = JSON.parse(await readFile(join(suite.browser.homeDir, 'config', 'tether', 'config.json'), 'utf8'));
    expect(config).toMatchObject({
      defaultBackend: 'gemini',
      backends: { gemini: { kind: 'command', argv: [join(bin, 'gemini'), '--acp'], dialect: 'acp' } },
    });

    const { page, tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel);
    await expect.poll(() => panel.locator('.welcome-backend').textContent()).toMatch(/^Answering: gemini/);
    await sendPrompt(panel, 'hello agent');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    expect((await agentTexts(panel)).at(-1)).toContain('You said: hello agent');
    await Promise.all([options.close(), panel.close(), page.close()]);
  });
});
