/**
 * The History list in real Chromium (issue 13, item 10): threads are named after their first message (not the page's
 * title), show the first line of their last message, the tab's own thread is marked, the search box asks the backend
 * for matching threads, and Archive offers Undo for a few seconds (putting the tab's own thread back in the tab).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';

const rowOf = (panel: Page, threadId: string) => panel.locator(`.history li[data-thread-id="${threadId}"]`);

async function ask(panel: Page, text: string, answers: number): Promise<string> {
  await sendPrompt(panel, text);
  await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(answers);
  return (await panel.locator('.transcript').getAttribute('data-thread-id')) ?? '';
}

describe('History in Chromium', () => {
  const suite = useBrowserSuite();

  it('names threads after their first message, shows a preview, marks this tab’s thread, searches and undoes an archive', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    const bergen = await ask(panel, 'What is Bergen?', 1);
    await panel.locator('button[data-action="new-thread"]').click();
    await expect.poll(() => panel.locator('.transcript').getAttribute('data-thread-id')).toBe('');
    const trains = await ask(panel, 'Trains to Oslo\nand back', 1);
    expect(trains).not.toBe(bergen);

    await panel.locator('button[data-action="history"]').click();
    await rowOf(panel, bergen).waitFor();
    expect(await rowOf(panel, bergen).locator('button.link').textContent()).toBe('What is Bergen?');
    expect(await rowOf(panel, trains).locator('button.link').textContent()).toBe('Trains to Oslo');
    // The preview is the first line of the last message: the scripted model's answer.
    expect(await rowOf(panel, bergen).locator('.preview').textContent()).toContain('You said: "What is Bergen?"');
    // Only the tab's own thread is marked.
    expect(await rowOf(panel, trains).getAttribute('class')).toBe('current');
    expect(await rowOf(panel, trains).locator('button.link').getAttribute('aria-current')).toBe('true');
    expect(await rowOf(panel, bergen).getAttribute('class')).toBeNull();

    const search = panel.locator('input[name="history-search"]');
    await search.fill('BERGEN');
    await expect.poll(() => panel.locator('.history li').count()).toBe(1);
    expect(await rowOf(panel, bergen).count()).toBe(1);
    await search.fill('no such words');
    await expect.poll(() => panel.locator('.history').textContent()).toContain('No conversation matches.');
    await search.fill('');
    await rowOf(panel, trains).waitFor();

    // Archive another thread, then undo: it comes back.
    await rowOf(panel, bergen).locator('button[data-action="archive"]').click();
    await expect.poll(() => rowOf(panel, bergen).count()).toBe(0);
    const undoBar = panel.locator('.history-undo');
    expect(await undoBar.textContent()).toContain('Archived “What is Bergen?”');
    await undoBar.locator('button[data-action="undo-archive"]').click();
    await rowOf(panel, bergen).waitFor();
    expect(await undoBar.count()).toBe(0);

    // Archive this tab's thread: the tab lets go of it; Undo puts it back in the tab.
    await rowOf(panel, trains).locator('button[data-action="archive"]').click();
    await expect.poll(() => panel.locator('.transcript').getAttribute('data-thread-id')).toBe('');
    await undoBar.locator('button[data-action="undo-archive"]').click();
    await expect.poll(() => panel.locator('.transcript').getAttribute('data-thread-id')).toBe(trains);
    await expect.poll(() => completedAnswers(panel).count()).toBe(1);

    // Unanswered, the offer goes away by itself after about 8 s, and the thread stays archived.
    await rowOf(panel, bergen).locator('button[data-action="archive"]').click();
    await undoBar.waitFor();
    await expect.poll(() => undoBar.count(), { timeout: 12_000, interval: 500 }).toBe(0);
    expect(await rowOf(panel, bergen).count()).toBe(0);
    await panel.close();
  });
});
