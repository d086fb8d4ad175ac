import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, saveScreenshot, type LaunchedBrowser } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { agentTexts, openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';

describe.skipIf(!hasChromium())('side panel in Chromium', () => {
  let browser: LaunchedBrowser;
  let demo: DemoServer;

  beforeAll(async () => {
    demo = await startDemoServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('streams an answer into the side panel', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel);
    await sendPrompt(panel, '/stream 300');
    const last = panel.locator('.transcript .item.agentMessage.completed').last();
    await last.waitFor({ timeout: 30_000 });
    const text = (await agentTexts(panel)).at(-1) ?? '';
    const numbers = text.trim().split(/\s+/).map(Number);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await saveScreenshot(panel, 'side-panel-streamed');
  });

  it('receives a 3,000,000-byte answer whole', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/other'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel);
    await sendPrompt(panel, '/big 3000000');
    await panel.locator('.transcript .item.agentMessage.completed').last().waitFor({ timeout: 60_000 });
    const length = await panel.locator('.transcript .item.agentMessage .body').last().evaluate((el) => el.textContent?.length ?? 0);
    expect(length).toBe(3_000_000);
  });
});
