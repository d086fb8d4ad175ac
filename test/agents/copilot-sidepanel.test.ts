/**
 * End to end in Chromium: the side panel drives the real Copilot CLI (ACP, through the extension, the native host and
 * the acp adapter), Copilot reads the page through Tether's MCP server (`tether-page_read`), and the user allows the
 * read on the side panel's approval card: the page's text reaches the model. No Copilot prompt is involved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COPILOT_PACKAGE, ensureAgent } from '../support/agents-cache';
import { saveScreenshot } from '../support/browser';
import { answersAtLeast, useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';
import { contentText, type MockChatCompletions, startMockChatCompletions } from '../support/mock-chat-completions';
import { tempDir } from './agent-host';

describe('side panel driving the real Copilot CLI, which reads the page over MCP', () => {
  let hostConfig: unknown;
  let mock: MockChatCompletions;

  beforeAll(async () => {
    const copilot = await ensureAgent(COPILOT_PACKAGE);
    mock = await startMockChatCompletions();
    hostConfig = {
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

  it('asks on the approval card before tether-page_read runs, and the page text reaches the model', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel, 60_000);

    mock.enqueue({ kind: 'toolCall', name: 'tether-page_read', arguments: {} });
    await sendPrompt(panel, 'What does this page say about tides?');
    const card = panel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 60_000 });
    await saveScreenshot(panel, 'side-panel-copilot-mcp-approval');
    await card.locator('button[data-choice="allow"]').click();
    expect((await answersAtLeast(panel, 1)).at(-1)).toBe('The command finished.');
    const toolResults = mock.requests.flatMap((r) =>
      ((r.body as { messages?: Array<{ role: string; content?: unknown }> }).messages ?? [])
        .filter((m) => m.role === 'tool')
        .map((m) => contentText(m.content)),
    );
    expect(toolResults.some((t) => t.includes('amphidromic points'))).toBe(true);
    await saveScreenshot(panel, 'side-panel-copilot-mcp-done');
  });
});
