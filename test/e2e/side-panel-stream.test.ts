import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { agentTexts, completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';

describe('side panel in Chromium', () => {
  const suite = useBrowserSuite();

  it('streams an answer into the side panel', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, '/stream 300');
    const last = completedAnswers(panel).last();
    await last.waitFor({ timeout: 30_000 });
    const text = (await agentTexts(panel)).at(-1) ?? '';
    const numbers = text.trim().split(/\s+/).map(Number);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await saveScreenshot(panel, 'side-panel-streamed');
  });

  it('renders model output as safe markdown: no injected HTML, no javascript: links, no remote images', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    // The scripted model quotes what it was told, so this text comes back as model output.
    const hostile = `<img src=x onerror="window.__pwned=1"> [click](javascript:window.__pwned=2) ![t](${suite.demo.url('/track.png')}) **bold**`;
    await sendPrompt(panel, hostile);
    const answer = panel.locator('.transcript .item.agentMessage.completed .body.markdown').last();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.locator('strong').textContent()).toBe('bold');
    expect(await answer.locator('img').count()).toBe(0);
    expect(await answer.textContent()).toContain('<img src=x onerror=');
    const hrefs = await answer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.some((h) => h !== null && /^javascript:/i.test(h))).toBe(false);
    expect(hrefs).toContain(suite.demo.url('/track.png'));
    expect(await panel.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(suite.demo.requests).not.toContain('/track.png');
  });

  it('receives a 3,000,000-byte answer whole', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/other'));
    await sendPrompt(panel, '/big 3000000');
    await completedAnswers(panel).last().waitFor({ timeout: 60_000 });
    const length = await panel
      .locator('.transcript .item.agentMessage .body')
      .last()
      .evaluate((el) => el.textContent?.length ?? 0);
    expect(length).toBe(3_000_000);
  });
});
