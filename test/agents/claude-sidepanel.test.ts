/**
 * End to end in Chromium: the side panel drives the real Claude Code (claude-code-acp, through the extension, the
 * native host and the acp adapter) against a mock Anthropic Messages API; the user allows a shell command on the
 * approval card, which shows the command once, and a marker file proves it ran.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_ACP_PACKAGE, ensureAgent } from '../support/agents-cache';
import { hasChromium, type LaunchedBrowser, launchBrowser, saveScreenshot } from '../support/browser';
import { type DemoServer, startDemoServer } from '../support/demo-server';
import { agentTexts, openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';
import { type MockAnthropicMessages, startMockAnthropicMessages } from '../support/mock-anthropic-messages';
import { tempDir } from './agent-host';

async function answers(panel: Page, count: number): Promise<string[]> {
  await expect
    .poll(() => panel.locator('.transcript .item.agentMessage.completed').count(), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(count);
  return agentTexts(panel);
}

describe('side panel driving the real Claude Code in Chromium', () => {
  let browser: LaunchedBrowser;
  let demo: DemoServer;
  let mock: MockAnthropicMessages;
  const workDir = tempDir('claude-work');

  beforeAll(async () => {
    if (!hasChromium())
      throw new Error('Chromium is required for this test: apt-get install -y chromium (or set TETHER_CHROMIUM)');
    const claude = await ensureAgent(CLAUDE_CODE_ACP_PACKAGE);
    mock = await startMockAnthropicMessages();
    demo = await startDemoServer();
    browser = await launchBrowser({
      hostConfig: {
        defaultBackend: 'claude',
        backends: {
          claude: {
            kind: 'command',
            argv: [claude],
            cwd: workDir,
            dialect: 'acp',
            env: {
              HOME: tempDir('claude-home'),
              ANTHROPIC_BASE_URL: mock.origin,
              ANTHROPIC_API_KEY: 'mock-key',
              // claude-code-acp asks Claude Code to bypass permissions when this is set, which it refuses as root.
              IS_SANDBOX: '',
              CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
              DISABLE_TELEMETRY: '1',
              DISABLE_ERROR_REPORTING: '1',
              DISABLE_AUTOUPDATER: '1',
              CLAUDE_CODE_DISABLE_FAST_MODE: '1',
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await mock?.close();
  });

  it('streams an answer, then asks before running a command, showing it once, and runs it once allowed', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel, 60_000);

    mock.enqueue({ kind: 'text', text: 'Hello from Claude Code behind Tether.', chunks: 5 });
    await sendPrompt(panel, 'Say hello');
    expect((await answers(panel, 1)).at(-1)).toBe('Hello from Claude Code behind Tether.');

    const command = 'touch claude-sidepanel.marker && echo tether-from-the-side-panel';
    mock.enqueue({ kind: 'toolUse', name: 'Bash', input: { command, description: 'mark' } });
    await sendPrompt(panel, 'Run the command');
    const card = panel.locator('.approval[data-tool="shell"]');
    await card.waitFor({ timeout: 60_000 });
    // The command is shown once, whole, in the command box (Claude's preview only repeats it).
    expect(await card.locator('pre.command').textContent()).toBe(command);
    expect(((await card.textContent()) ?? '').split(command)).toHaveLength(2);
    await saveScreenshot(panel, 'side-panel-claude-approval');
    await card.locator('button[data-choice="allow"]').click();
    expect((await answers(panel, 2)).at(-1)).toBe('The command finished.');
    await expect.poll(() => panel.locator('.approval').count()).toBe(0);
    expect(existsSync(join(workDir, 'claude-sidepanel.marker'))).toBe(true);
    await saveScreenshot(panel, 'side-panel-claude-done');
  });
});
