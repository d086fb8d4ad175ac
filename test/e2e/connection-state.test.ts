import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, type LaunchedBrowser } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { openSidePanel, openWebPage } from '../support/extension-pages';

describe('connection state without a registered host', () => {
  let browser: LaunchedBrowser;
  let demo: DemoServer;

  beforeAll(async () => {
    demo = await startDemoServer();
    browser = await launchBrowser({ registerHost: false });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('shows the browser reason and the install command when the host is not registered', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    const banner = panel.locator('.banner[data-status="disconnected"]');
    await banner.waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.textContent()).toContain('Specified native messaging host not found.');
    expect(await banner.locator('code.command').textContent()).toBe('npx tether install');
    expect(await panel.locator('textarea[name="prompt"]').isDisabled()).toBe(true);
    await saveScreenshot(panel, 'side-panel-host-not-found');
  });
});
