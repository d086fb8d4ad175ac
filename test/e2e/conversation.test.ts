import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import {
  agentTexts,
  completedAnswers,
  openConnectedPanel,
  openSidePanel,
  sendPrompt,
} from '../support/extension-pages';

describe('conversation controls in Chromium', () => {
  const suite = useBrowserSuite();

  it('steers a running turn from the composer', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, '/stream 200 20');
    await panel.locator('button[data-action="stop"]').waitFor();
    expect(await panel.locator('button[data-action="send"]').textContent()).toBe('Steer');
    await sendPrompt(panel, 'mention the tides');
    await completedAnswers(panel).waitFor({ timeout: 60_000 });
    // The answer goes on below the steer message, in a continuation of the same item.
    await expect
      .poll(() => panel.locator('.transcript .item.continuation').last().textContent())
      .toContain('(steered: mention the tides)');
    await panel.close();
  });

  it('gives a panel opened in the middle of a streaming answer every delta exactly once', async () => {
    const { tabId, panel: first } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(first, '/stream 400 8');
    const stream = first.locator('.transcript .item.agentMessage .body').last();
    await expect.poll(async () => (await stream.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(100);
    const second = await openSidePanel(suite.browser, tabId);
    await completedAnswers(second).waitFor({ timeout: 60_000 });
    const expected = Array.from({ length: 400 }, (_, i) => i + 1);
    for (const panel of [first, second]) {
      const text = (await agentTexts(panel)).at(-1) ?? '';
      expect(text.trim().split(/\s+/).map(Number)).toEqual(expected);
    }
    await Promise.all([first.close(), second.close()]);
  });

  it('opens a past thread from history in another tab, starts a new one, and archives', async () => {
    const { panel: panelA } = await openConnectedPanel(suite.browser, suite.demo.url('/other'));
    await sendPrompt(panelA, 'remember the lighthouse');
    await completedAnswers(panelA).waitFor({ timeout: 30_000 });
    const threadId = await panelA.locator('.transcript').getAttribute('data-thread-id');
    expect(threadId).toBeTruthy();

    const { panel: panelB } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await panelB.locator('button[data-action="history"]').click();
    await panelB.locator(`.history li[data-thread-id="${threadId}"] button.link`).click();
    await expect.poll(() => panelB.locator('.transcript').getAttribute('data-thread-id')).toBe(threadId);
    expect(await panelB.locator('.transcript .item.userMessage .body').first().textContent()).toBe(
      'remember the lighthouse',
    );

    await panelB.locator('button[data-action="new-thread"]').click();
    await expect.poll(() => panelB.locator('.transcript .item').count()).toBe(0);

    await panelB.locator('button[data-action="history"]').click();
    const row = panelB.locator(`.history li[data-thread-id="${threadId}"]`);
    await row.locator('button', { hasText: 'Archive' }).click();
    await expect.poll(() => row.count()).toBe(0);
    // Archiving detaches the thread from the tab that showed it.
    await expect.poll(() => panelA.locator('.transcript').getAttribute('data-thread-id')).toBe('');
  });
});
