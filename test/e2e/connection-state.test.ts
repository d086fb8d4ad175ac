import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage } from '../support/extension-pages';

describe('connection state without a registered host', () => {
  const suite = useBrowserSuite({ registerHost: false });

  it('shows the browser reason and the install command when the host is not registered', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    const banner = panel.locator('.banner[data-status="disconnected"]');
    await banner.waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.textContent()).toContain('Specified native messaging host not found.');
    expect(await banner.locator('code.command').textContent()).toBe('npx tether install --dev');
    expect(await panel.locator('textarea[name="prompt"]').isDisabled()).toBe(true);
    await saveScreenshot(panel, 'side-panel-host-not-found');
  });
});
