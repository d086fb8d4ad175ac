import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import { type BrowserSuite, restartWorker, useBrowserSuite } from '../support/browser-suite';
import {
  agentTexts,
  badgeOf,
  completedAnswers,
  openSidePanel,
  openWebPage,
  sendPrompt,
  waitConnected,
} from '../support/extension-pages';

/** Waits until the panel shows `count` completed answers and returns the last one. */
async function answer(panel: Page, count: number): Promise<string> {
  await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(count);
  return (await agentTexts(panel)).at(-1) ?? '';
}

/** What a card offers for a tool that acts on the user's machine (the embedded backend's bash). */
const MACHINE_CHOICES = {
  allow: 'Allow once',
  allow_session: 'Allow this exact command for this thread',
  deny: 'Deny',
};

/** The choices a card offers, as `data-choice` -> button text. */
async function choicesOf(card: Locator): Promise<Record<string, string>> {
  const buttons = await card
    .locator('button[data-choice]')
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-choice'), e.textContent]));
  return Object.fromEntries(buttons);
}

/** Two tabs, the demo's `/` (a) and `/other` (b), each with its side panel open. */
async function twoTabsWithPanels({ browser, demo }: BrowserSuite) {
  const a = await openWebPage(browser, demo.url('/'));
  const b = await openWebPage(browser, demo.url('/other'));
  return { a, b, panelA: await openSidePanel(browser, a.tabId), panelB: await openSidePanel(browser, b.tabId) };
}

describe('per-page approvals in Chromium', () => {
  const suite = useBrowserSuite();

  it('asks for page_read only in the tab whose thread asked; a site rule answers the next time until revoked', async () => {
    const { browser, demo } = suite;
    const { a, b, panelA, panelB } = await twoTabsWithPanels(suite);
    await waitConnected(panelA);
    await waitConnected(panelB);

    await sendPrompt(panelA, '/page');
    const card = panelA.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.origin').textContent()).toBe(demo.origin);
    expect(await choicesOf(card)).toEqual({
      allow: 'Allow once',
      allow_session: `Allow reading ${demo.origin} for this thread`,
      always_allow_site: `Always allow reading ${demo.origin}`,
      deny: 'Deny',
      always_deny_site: `Always deny reading ${demo.origin}`,
    });
    expect(await panelB.locator('.approval').count()).toBe(0);

    const popupA = await browser.openExtensionPage(`src/popup/index.html?tab=${a.tabId}`);
    const popupB = await browser.openExtensionPage(`src/popup/index.html?tab=${b.tabId}`);
    await popupA.locator('.approval[data-tool="page_read"]').waitFor();
    expect(await popupB.locator('.approval').count()).toBe(0);
    expect(await badgeOf(popupA, a.tabId)).toBe('1');
    expect(await badgeOf(popupA, b.tabId)).toBe('');
    await popupA.setViewportSize({ width: 380, height: 520 });
    await saveScreenshot(popupA, 'popup-approval');
    await saveScreenshot(panelA, 'side-panel-approval');

    await card.locator('button[data-choice="always_allow_site"]').click();
    expect(await answer(panelA, 1)).toContain('Tether demo: tides of the North Sea');
    await expect.poll(() => badgeOf(popupA, a.tabId)).toBe('');
    expect(await popupA.locator('.approval').count()).toBe(0);

    // The rule answers at once and the panel says which rule decided.
    await sendPrompt(panelA, '/page');
    expect(await answer(panelA, 2)).toContain('North Sea');
    expect(await panelA.locator('.transcript .item.rule').last().textContent()).toContain(
      `page_read was allowed on ${demo.origin}`,
    );
    expect(await panelA.locator('.approval').count()).toBe(0);

    // Revoking it in options brings the prompt back.
    const options = await browser.openExtensionPage('src/options/index.html');
    // Rules are kept per class of page tool: page_read is reading.
    const row = options.locator(`tr[data-class="read"][data-origin="${demo.origin}"]`);
    await row.waitFor();
    await saveScreenshot(options, 'options');
    await row.locator('button[data-action="revoke"]').click();
    await expect.poll(() => options.locator('tr[data-class="read"]').count()).toBe(0);

    await sendPrompt(panelA, '/page');
    const again = panelA.locator('.approval[data-tool="page_read"]');
    await again.waitFor({ timeout: 30_000 });
    await again.locator('button[data-choice="deny"]').click();
    expect(await answer(panelA, 3)).toMatch(/could not read the page/i);
    await Promise.all([popupA.close(), popupB.close(), options.close(), panelA.close(), panelB.close()]);
  });

  it("routes the backend's bash approval to the asking tab and runs the command once allowed", async () => {
    const { panelA, panelB } = await twoTabsWithPanels(suite);
    await waitConnected(panelB);
    await sendPrompt(panelB, '/bash echo tether-was-here');
    const card = panelB.locator('.approval[data-tool="bash"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.preview').textContent()).toContain('echo tether-was-here');
    // bash acts on this computer, not on the site: no site rule is offered, and the thread grant names no site.
    expect(await choicesOf(card)).toEqual(MACHINE_CHOICES);
    expect(await panelA.locator('.approval').count()).toBe(0);
    await card.locator('button[data-choice="allow"]').click();
    expect(await answer(panelB, 1)).toContain('tether-was-here');
  });

  it('offers no site rule for bash in the panel or the popup, and a rule for bash forged in storage approves nothing', async () => {
    const { browser, demo } = suite;
    const a = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, a.tabId);
    await waitConnected(panel);

    // A rule for bash on this site, written into storage by hand beside a real one for page_read; a restarted worker
    // loads both with the rest of its state.
    await panel.evaluate(async (origin) => {
      type Local = { set(items: object): Promise<void> };
      const rule = (id: string, toolName: string) => ({
        id,
        origin,
        toolName,
        decision: 'allow',
        createdAtMs: Date.now(),
      });
      const local = (globalThis as unknown as { chrome: { storage: { local: Local } } }).chrome.storage.local;
      await local.set({ 'tether.siteRules': [rule('forged', 'bash'), rule('real', 'page_read')] });
    }, demo.origin);
    // A new host process proves the worker restarted (and so read storage again).
    await restartWorker(browser);
    await waitConnected(panel);

    await sendPrompt(panel, '/bash echo forged-rule-ran');
    const card = panel.locator('.approval[data-tool="bash"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await choicesOf(card)).toEqual(MACHINE_CHOICES);
    const popup = await browser.openExtensionPage(`src/popup/index.html?tab=${a.tabId}`);
    const popupCard = popup.locator('.approval[data-tool="bash"]');
    await popupCard.waitFor();
    expect(await choicesOf(popupCard)).toEqual(MACHINE_CHOICES);

    const options = await browser.openExtensionPage('src/options/index.html');
    // The rule that can never apply is not kept, so options does not list it; the old per-tool rule for page_read
    // reads as the rule for reading the site.
    await options.locator('tr[data-class="read"]').waitFor();
    expect(await options.locator('tr[data-rule-id]').count()).toBe(1);

    await card.locator('button[data-choice="deny"]').click();
    expect(await answer(panel, 1)).toContain('You declined to run echo forged-rule-ran');
    await Promise.all([popup.close(), options.close(), panel.close()]);
  });
});
