/**
 * Handing the page to the user (`page_ask_user`) in Firefox ESR, with the add-on and the real host: the turn waits on
 * the request in the panel, the tab comes to the front, the model gets the button the user chose and what they typed
 * (the scripted model echoes its tool result), and Stop during the wait ends the turn with the request gone.
 */
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../support/fixture-site';
import { type LaunchedFirefox, waitInPage } from './firefox-browser';
import { answer, CONNECTED, sendPrompt, useFirefox } from './firefox-panel';

/** Whether tab `tabId` is the one in front of its window, asked through the panel's add-on APIs. */
function tabActive(panel: Page, tabId: number): Promise<boolean> {
  return panel.evaluate(async (id) => {
    type Tabs = { get(id: number): Promise<{ active: boolean }> };
    return (await (globalThis as unknown as { browser: { tabs: Tabs } }).browser.tabs.get(id)).active;
  }, tabId);
}

/** The texts of the panel's elements that match `selector`. */
function textsOf(panel: Page, selector: string): Promise<string[]> {
  return panel.$$eval(selector, (els) => els.map((e) => e.textContent ?? ''));
}

describe('handing the page to the user in Firefox ESR', () => {
  const launched = useFirefox();
  let firefox: LaunchedFirefox;

  beforeAll(() => {
    firefox = launched();
  });

  /** A page's tab and its panel page (a tab of its own, opened last, so the page's tab is behind it). */
  async function openPanel(path: string): Promise<{ tabId: number; panel: Page; close: () => Promise<void> }> {
    const site = await startFixtureSite();
    const { tabId } = await firefox.openWebPage(site.url(path));
    const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
    await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
    return {
      tabId,
      panel,
      close: async () => {
        await panel.close();
        await site.close();
      },
    };
  }

  it('waits for Done, brings the tab to the front, and gives the model the answer the user typed', async () => {
    const { tabId, panel, close } = await openPanel('/brief');
    try {
      expect(await tabActive(panel, tabId)).toBe(false);
      const args = { message: 'Please sign in to the site.', answer: 'the 6-digit code' };
      await sendPrompt(panel, `/tool page_ask_user ${JSON.stringify(args)}`);
      await panel.waitForSelector('.handover', { timeout: 30_000 });
      expect(await textsOf(panel, '.handover .handover-message')).toEqual(['Please sign in to the site.']);
      // The agent's words, not an approval: no card, no allow or deny.
      expect(await textsOf(panel, '.approval')).toEqual([]);
      expect(await textsOf(panel, 'button[data-choice]')).toEqual([]);
      expect(await textsOf(panel, '.handover button')).toEqual(['Done', "I can't"]);
      await expect.poll(() => tabActive(panel, tabId), { timeout: 10_000 }).toBe(true);

      // The turn waits: nothing answered yet, and Stop is offered.
      expect(await textsOf(panel, '.transcript .item.agentMessage.completed')).toEqual([]);
      expect(await textsOf(panel, 'button[data-action="stop"]')).toHaveLength(1);

      await panel.type('.handover input[name="handover-answer"]', '481516');
      await panel.click('.handover button[data-reply="done"]');
      const reply = await answer(panel, 1);
      expect(reply).toContain('page_ask_user completed');
      expect(reply).toContain('The user clicked "Done": they say they did what you asked. Their answer: "481516"');
      await waitInPage(panel, () => document.querySelectorAll('.handover').length === 0, { timeout: 10_000 });
    } finally {
      await close();
    }
  });

  it('ends the turn on Stop during the wait: the request goes away and the call gets no answer', async () => {
    const { panel, close } = await openPanel('/article');
    try {
      await sendPrompt(panel, `/tool page_ask_user ${JSON.stringify({ message: 'Enter the two-factor code.' })}`);
      await panel.waitForSelector('.handover', { timeout: 30_000 });
      await panel.click('button[data-action="stop"]');
      await waitInPage(
        panel,
        () =>
          document.querySelectorAll('.handover').length === 0 &&
          document.querySelectorAll('button[data-action="stop"]').length === 0 &&
          Array.from(document.querySelectorAll('.transcript .note')).some((n) =>
            n.textContent?.includes('stopped waiting for your answer'),
          ),
        { timeout: 30_000 },
      );
      for (const text of await textsOf(panel, '.transcript .item.agentMessage .body'))
        expect(text).not.toContain('page_ask_user completed');
      // The conversation goes on: the next message gets its answer.
      await sendPrompt(panel, 'hello again');
      await waitInPage(
        panel,
        () =>
          Array.from(document.querySelectorAll('.transcript .item.agentMessage.completed .body')).some((b) =>
            b.textContent?.includes('hello again'),
          ),
        { timeout: 30_000 },
      );
    } finally {
      await close();
    }
  });
});
