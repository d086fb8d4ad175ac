/**
 * End to end in Chromium: a Codex older than the adapter supports (a stand-in answering the recorded handshake with an
 * older userAgent) keeps the side panel from connecting, and its banner says which side is older and the command that
 * updates it, as for any backend that fails to start.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage } from '../support/extension-pages';
import { tempDir } from './agent-host';

const CODEX_AGENT = fileURLToPath(new URL('../fixtures/codex-agent.mjs', import.meta.url));
const CODEX_TRANSCRIPT = fileURLToPath(new URL('../fixtures/codex/text.jsonl', import.meta.url));

// Chromium is a CI prerequisite (apt-get install chromium): fail loudly rather than skip when it is missing.
describe('side panel in front of a Codex older than the adapter supports', () => {
  const suite = useBrowserSuite({
    hostConfig: {
      defaultBackend: 'codex',
      backends: {
        codex: {
          kind: 'command',
          argv: [process.execPath, CODEX_AGENT, CODEX_TRANSCRIPT, 'tether/0.150.0 (Debian 12.0.0; x86_64) xterm'],
          cwd: tempDir('old-codex-work'),
          dialect: 'codex',
        },
      },
    },
  });

  it('says Codex is older and prints the command that updates it', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    const banner = panel.locator('.banner');
    await expect
      .poll(() => banner.textContent(), { timeout: 30_000 })
      .toContain(
        'Codex 0.150.0 is older than 0.171.0, the oldest this Tether supports. Update it: npm install -g @openai/codex@latest',
      );
    // The banner's headline names the side to update and its command box holds the update, not a doctor hint.
    expect(await banner.textContent()).toContain('The agent behind Tether is older than this Tether supports.');
    expect(await banner.textContent()).not.toContain('did not complete the handshake');
    expect(await banner.locator('code.command').textContent()).toBe('npm install -g @openai/codex@latest');
    expect(await panel.locator('textarea[name="prompt"]').isDisabled()).toBe(true);
    await saveScreenshot(panel, 'side-panel-codex-older');
  });
});
