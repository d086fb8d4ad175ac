import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';

/** Answers the pending approval card for `tool` with "Allow once". */
async function allowOnce(panel: Page, tool: string): Promise<void> {
  await panel.locator(`.approval[data-tool="${tool}"] button[data-choice="allow"]`).click({ timeout: 30_000 });
}

describe('tool cards in the side panel (Chromium)', () => {
  const suite = useBrowserSuite();

  it('sums a call up in one line, collapses it once finished, and shows output as text, never {}', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await panel.setViewportSize({ width: 380, height: 700 });

    await sendPrompt(panel, '/bash echo hello');
    const bash = panel.locator('.transcript details.toolCall[data-tool="bash"]');
    // While it waits for approval and runs, the card is open.
    await bash.locator('summary').waitFor({ timeout: 30_000 });
    expect(await bash.getAttribute('open')).not.toBeNull();
    await allowOnce(panel, 'bash');
    await completedAnswers(panel).waitFor({ timeout: 30_000 });

    const done = panel.locator('.transcript details.toolCall.completed[data-tool="bash"]');
    await done.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await done.locator('summary').textContent()).toBe('bash: echo hello');
    expect(await done.getAttribute('open')).toBeNull();
    const output = done.locator('pre.result');
    expect(await output.isVisible()).toBe(false);

    await done.locator('summary').click();
    await output.waitFor({ state: 'visible' });
    expect(await output.evaluate((el) => el.tagName)).toBe('PRE');
    // Terminal text, not a JSON string of the result.
    expect(await output.textContent()).toBe('hello');
    expect(await output.evaluate((el) => el.childElementCount)).toBe(0);

    await sendPrompt(panel, '/page');
    await allowOnce(panel, 'page_read');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    const page = panel.locator('.transcript details.toolCall.completed[data-tool="page_read"]');
    await page.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await page.locator('summary').textContent()).toBe(`page_read: ${new URL(suite.demo.origin).host}`);
    expect(await page.locator('pre.result').textContent()).toContain('North Sea');

    for (const text of await panel.locator('.transcript .toolCall').allTextContents()) expect(text).not.toContain('{}');
    await panel.close();
  });
});
