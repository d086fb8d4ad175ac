/**
 * End to end in Chromium: the side panel drives the real Claude Code (claude-code-acp, through the extension, the
 * native host and the acp adapter) against a mock Anthropic Messages API; the user allows a shell command on the
 * approval card, which shows the command once, and a marker file proves it ran.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_ACP_PACKAGE, ensureAgent } from '../support/agents-cache';
import { CLAUDE_OFFLINE_ENV } from '../support/agents-offline';
import { saveScreenshot } from '../support/browser';
import { answersAtLeast, useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';
import { type MockAnthropicMessages, startMockAnthropicMessages } from '../support/mock-anthropic-messages';
import { tempDir } from './agent-host';

describe('side panel driving the real Claude Code in Chromium', () => {
  let hostConfig: unknown;
  let mock: MockAnthropicMessages;
  const workDir = tempDir('claude-work');

  beforeAll(async () => {
    const claude = await ensureAgent(CLAUDE_CODE_ACP_PACKAGE);
    mock = await startMockAnthropicMessages();
    hostConfig = {
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
            ...CLAUDE_OFFLINE_ENV,
          },
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

  it('streams an answer, then asks before running a command, showing it once, and runs it once allowed', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel, 60_000);

    mock.enqueue({ kind: 'text', text: 'Hello from Claude Code behind Tether.', chunks: 5 });
    await sendPrompt(panel, 'Say hello');
    expect((await answersAtLeast(panel, 1)).at(-1)).toBe('Hello from Claude Code behind Tether.');

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
    expect((await answersAtLeast(panel, 2)).at(-1)).toBe('The command finished.');
    await expect.poll(() => panel.locator('.approval').count()).toBe(0);
    expect(existsSync(join(workDir, 'claude-sidepanel.marker'))).toBe(true);
    await saveScreenshot(panel, 'side-panel-claude-done');
  });
});
