/**
 * End to end in Chromium: the side panel drives the real Copilot CLI (ACP, through the extension, the native host and
 * the acp adapter), Copilot reads the page through Tether's MCP server (`tether-page_read`), and the user allows the
 * read on the side panel's approval card: the page's text reaches the model. No Copilot prompt is involved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COPILOT_PACKAGE, ensureAgent } from '../support/agents-cache';
import { hasChromium, type LaunchedBrowser, launchBrowser, saveScreenshot } from '../support/browser';
import { type DemoServer, startDemoServer } from '../support/demo-server';
import { agentTexts, openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';
import { contentText, type MockChatCompletions, startMockChatCompletions } from '../support/mock-chat-completions';
import { tempDir } from './agent-host';

async function answers(panel: Page, count: number): Promise<string[]> {
  await expect
    .poll(() => panel.locator('.transcript .item.agentMessage.completed').count(), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(count);
  return agentTexts(panel);
}

describe('side panel driving the real Copilot CLI, which reads the page over MCP', () => {
  let browser: LaunchedBrowser;
  let demo: DemoServer;
  let mock: MockChatCompletions;

  beforeAll(async () => {
    if (!hasChromium())
      throw new Error('Chromium is required for this test: apt-get install -y chromium (or set TETHER_CHROMIUM)');
    const copilot = await ensureAgent(COPILOT_PACKAGE);
    mock = await startMockChatCompletions();
    demo = await startDemoServer();
    browser = await launchBrowser({
      hostConfig: {
        defaultBackend: 'copilot',
        backends: {
          copilot: {
            kind: 'command',
            argv: [copilot, '--acp'],
            cwd: tempDir('copilot-work'),
            dialect: 'acp',
            env: { HOME: tempDir('copilot-home'), COPILOT_PROVIDER_BASE_URL: mock.baseUrl, COPILOT_MODEL: 'gpt-4.1' },
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

  it('asks on the approval card before tether-page_read runs, and the page text reaches the model', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel, 60_000);

    mock.enqueue({ kind: 'toolCall', name: 'tether-page_read', arguments: {} });
    await sendPrompt(panel, 'What does this page say about tides?');
    const card = panel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 60_000 });
    await saveScreenshot(panel, 'side-panel-copilot-mcp-approval');
    await card.locator('button[data-choice="allow"]').click();
    expect((await answers(panel, 1)).at(-1)).toBe('The command finished.');
    const toolResults = mock.requests.flatMap((r) =>
      ((r.body as { messages?: Array<{ role: string; content?: unknown }> }).messages ?? [])
        .filter((m) => m.role === 'tool')
        .map((m) => contentText(m.content)),
    );
    expect(toolResults.some((t) => t.includes('amphidromic points'))).toBe(true);
    await saveScreenshot(panel, 'side-panel-copilot-mcp-done');
  });
});
