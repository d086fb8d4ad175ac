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

describe('connection state with a host older than the extension', () => {
  // Only the browser's environment (inherited by the host it starts) can make the host claim an older protocol.
  const suite = useBrowserSuite({ env: { TETHER_TEST_PROTOCOL_VERSION: '2020-01-01' } });

  it('says the host is older and prints the command that updates it, before any other request', async () => {
    const { tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const panel = await openSidePanel(suite.browser, tabId);
    const banner = panel.locator('.banner[data-status="disconnected"]');
    await banner.waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.textContent()).toContain('is older than this extension');
    expect(await banner.locator('[data-skew]').getAttribute('data-skew')).toBe('host');
    expect(await banner.locator('.reason').textContent()).toMatch(
      /it speaks protocol 2020-01-01; this extension needs 2026-/,
    );
    // The development build's fix is its checkout's install; a store build's is `npx tether-bridge@VERSION install`
    // (extension/src/shared/connection-advice.test.ts).
    expect(await banner.locator('code.command').textContent()).toBe('npx tether install --dev');
    expect(await panel.locator('textarea[name="prompt"]').isDisabled()).toBe(true);
    await saveScreenshot(panel, 'side-panel-host-older');

    const options = await suite.browser.openExtensionPage('src/options/index.html');
    const optionsBanner = options.locator('.banner[data-status="disconnected"]');
    await expect.poll(() => optionsBanner.textContent(), { timeout: 30_000 }).toContain('is older than this extension');
    expect(await optionsBanner.locator('code.command').textContent()).toBe('npx tether install --dev');
  });
});
