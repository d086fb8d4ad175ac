import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, type LaunchedBrowser } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { agentTexts, openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';

describe('side panel in Chromium', () => {
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

  it('renders model output as safe markdown: no injected HTML, no javascript: links, no remote images', async () => {
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await waitConnected(panel);
    // The scripted model quotes what it was told, so this text comes back as model output.
    const hostile = `<img src=x onerror="window.__pwned=1"> [click](javascript:window.__pwned=2) ![t](${demo.url('/track.png')}) **bold**`;
    await sendPrompt(panel, hostile);
    const answer = panel.locator('.transcript .item.agentMessage.completed .body.markdown').last();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.locator('strong').textContent()).toBe('bold');
    expect(await answer.locator('img').count()).toBe(0);
    expect(await answer.textContent()).toContain('<img src=x onerror=');
    const hrefs = await answer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.some((h) => h !== null && /^javascript:/i.test(h))).toBe(false);
    expect(hrefs).toContain(demo.url('/track.png'));
    expect(await panel.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(demo.requests).not.toContain('/track.png');
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
