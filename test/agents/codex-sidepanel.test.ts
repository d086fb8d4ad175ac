/**
 * End to end in Chromium: the side panel drives the real Codex app-server (through the extension, the native host and
 * the codex dialect adapter) and the user allows a command on the approval card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_PACKAGE, ensureAgent } from '../support/agents-cache';
import { saveScreenshot } from '../support/browser';
import { answersAtLeast, useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';
import { type MockResponsesApi, startMockResponsesApi, writeCodexHome } from '../support/mock-responses-api';
import { tempDir } from './agent-host';

// Chromium is a CI prerequisite (apt-get install chromium): fail loudly rather than skip when it is missing.
describe('side panel driving the real Codex backend in Chromium', () => {
  let hostConfig: unknown;
  let mock: MockResponsesApi;

  beforeAll(async () => {
    const codex = await ensureAgent(CODEX_PACKAGE);
    mock = await startMockResponsesApi();
    const codexHome = await writeCodexHome(tempDir('codex-home'), mock.origin);
    hostConfig = {
      defaultBackend: 'codex',
      backends: {
        codex: {
          kind: 'command',
          argv: [codex, 'app-server'],
          cwd: tempDir('codex-work'),
          dialect: 'codex',
          env: { CODEX_HOME: codexHome, RUST_LOG: 'error' },
        },
      },
    };
  });
  afterAll(async () => {
    await mock?.close();
  });

  const suite = useBrowserSuite({
    get hostConfig() {
      return hostConfig;
    },
  });

  it('streams an answer, then asks before running a command and runs it once allowed', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel, 60_000);

    mock.enqueue({ kind: 'text', text: 'Hello from Codex behind Tether.', chunks: 5 });
    await sendPrompt(panel, 'Say hello');
    expect((await answersAtLeast(panel, 1)).at(-1)).toBe('Hello from Codex behind Tether.');

    mock.enqueue({ kind: 'functionCall', name: 'exec_command', arguments: { cmd: 'echo tether-from-the-side-panel' } });
    await sendPrompt(panel, 'Run echo');
    const card = panel.locator('.approval[data-tool="shell"]');
    await card.waitFor({ timeout: 60_000 });
    // The command is shown once, in the command box (Codex's preview only repeats it).
    expect(await card.locator('pre.command').textContent()).toContain('echo tether-from-the-side-panel');
    expect(((await card.textContent()) ?? '').split('echo tether-from-the-side-panel')).toHaveLength(2);
    await saveScreenshot(panel, 'side-panel-codex-approval');
    await card.locator('button[data-choice="allow"]').click();
    expect((await answersAtLeast(panel, 2)).at(-1)).toBe('The command finished.');
    await expect.poll(() => panel.locator('.approval').count()).toBe(0);
    const output = mock.requests
      .map((r) => JSON.stringify(r.body))
      .find((b) => b.includes('function_call_output') && b.includes('tether-from-the-side-panel'));
    expect(output, 'Codex sent the command output back to the model').toBeDefined();
    await saveScreenshot(panel, 'side-panel-codex-done');
  });
});
