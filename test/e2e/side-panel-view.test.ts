import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type BrowserSuite, useBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt, waitConnected } from '../support/extension-pages';

/** The real side panel's width in Chrome (about 365 px). */
const PANEL_WIDTH = 380;

/** Opens `path` of the demo site and its side panel, narrowed to the panel's real width. */
async function narrowPanel(suite: BrowserSuite, path: string): Promise<{ page: Page; panel: Page }> {
  const { page, panel } = await openConnectedPanel(suite.browser, suite.demo.url(path));
  await panel.setViewportSize({ width: PANEL_WIDTH, height: 700 });
  return { page, panel };
}

/** How far (px) the view is above the end of the transcript. */
function distanceFromBottom(panel: Page): Promise<number> {
  return panel.locator('.scroller').evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
}

/** Waits two frames, so whatever a completion changed has been laid out and painted. */
function settle(panel: Page): Promise<void> {
  return panel.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** Waits until the running turn ended (Stop is gone). */
async function turnEnded(panel: Page): Promise<void> {
  await panel.locator('button[data-action="stop"]').waitFor({ state: 'detached', timeout: 60_000 });
}

describe('what the side panel shows, at panel width (Chromium)', () => {
  const suite = useBrowserSuite();

  it('stays at the bottom when a long answer completes, after a reload and when the thread is opened from History', async () => {
    const { panel } = await narrowPanel(suite, '/');
    await sendPrompt(panel, '/stream 1500 2');
    await completedAnswers(panel).waitFor({ timeout: 60_000 });
    for (let i = 0; i < 5; i++) {
      await settle(panel);
      expect(await distanceFromBottom(panel)).toBeLessThanOrEqual(3);
    }
    await sendPrompt(panel, '/stream 800');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 60_000 }).toBe(2);
    await settle(panel);
    expect(await distanceFromBottom(panel)).toBeLessThanOrEqual(3);

    await panel.reload();
    await waitConnected(panel);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    await settle(panel);
    await expect.poll(() => distanceFromBottom(panel)).toBeLessThanOrEqual(3);

    const threadId = await panel.locator('.transcript').getAttribute('data-thread-id');
    await panel.locator('button[data-action="new-thread"]').click();
    await expect.poll(() => panel.locator('.transcript .item').count()).toBe(0);
    await panel.locator('button[data-action="history"]').click();
    await panel.locator(`.history li[data-thread-id="${threadId}"] button.link`).click();
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    await settle(panel);
    await expect.poll(() => distanceFromBottom(panel)).toBeLessThanOrEqual(3);
    await panel.close();
  });

  it('keeps the line the reader scrolled to when the answer below completes', async () => {
    const { panel } = await narrowPanel(suite, '/');
    await sendPrompt(panel, '/stream 1500 3');
    const answer = panel.locator('.transcript .item.agentMessage').last();
    await expect.poll(async () => (await answer.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(3000);
    const box = await panel.locator('.scroller').boundingBox();
    if (!box) throw new Error('the transcript is not on screen');
    await panel.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Not all the way up: at the very top a clamp of scrollTop sends no scroll event, and the case that once jumped
    // is a clamp that lands at the bottom while the completed answer is re-rendered whole.
    await panel.mouse.wheel(0, -250);
    await settle(panel);
    const id = await answer.getAttribute('data-item-id');
    const offset = () =>
      panel.evaluate((itemId) => {
        const item = document.querySelector(`[data-item-id="${itemId}"]`);
        const scroller = document.querySelector('.scroller');
        if (!item || !scroller) return Number.NaN;
        return Math.round(item.getBoundingClientRect().top - scroller.getBoundingClientRect().top);
      }, id);
    const before = await offset();
    await completedAnswers(panel).waitFor({ timeout: 60_000 });
    for (let i = 0; i < 3; i++) {
      await settle(panel);
      expect(Math.abs((await offset()) - before)).toBeLessThanOrEqual(2);
    }
    expect(await distanceFromBottom(panel)).toBeGreaterThan(300);
    await panel.close();
  });

  it('shows a finished tool call and its output after the panel reloads', async () => {
    const { panel } = await narrowPanel(suite, '/');
    await sendPrompt(panel, '/bash echo tether-tool-ran');
    await panel.locator('.approval[data-tool="bash"] button[data-choice="allow"]').click();
    await turnEnded(panel);
    const card = panel.locator('.transcript .item.toolCall');
    await expect.poll(async () => card.locator('.result').textContent()).toContain('tether-tool-ran');

    await panel.reload();
    await waitConnected(panel);
    await completedAnswers(panel).waitFor({ timeout: 30_000 });
    expect(await card.count()).toBe(1);
    expect(await card.locator('.args').textContent()).toContain('echo tether-tool-ran');
    expect(await card.locator('.result').textContent()).toContain('tether-tool-ran');
    await panel.close();
  });

  it('shows the error of a failed turn once', async () => {
    const { panel } = await narrowPanel(suite, '/');
    await sendPrompt(panel, '/fail');
    await turnEnded(panel);
    await settle(panel);
    const errors = panel.locator('.transcript .error');
    expect(await errors.count()).toBe(1);
    expect(await errors.textContent()).toContain('failed this turn on purpose');
    await panel.close();
  });

  it('shows a steer message where it was sent: before the rest of the answer it changed', async () => {
    const { panel } = await narrowPanel(suite, '/');
    await sendPrompt(panel, '/stream 300 20');
    const answer = panel.locator('.transcript .item.agentMessage').last();
    await expect.poll(async () => (await answer.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(40);
    await sendPrompt(panel, 'mention the tides');
    await turnEnded(panel);
    await settle(panel);
    const order = await panel.locator('.transcript').evaluate((list) =>
      Array.from(list.children, (el) => {
        const kind = ['userMessage', 'agentMessage', 'continuation'].find((k) => el.classList.contains(k)) ?? '?';
        // The body: what the message says, without its speaker label and buttons.
        const text = (el.querySelector(':scope > .body') ?? el).textContent;
        return `${kind}: ${text?.includes('(steered: mention the tides)') ? 'steered' : text?.trim().slice(0, 20)}`;
      }),
    );
    expect(order[0]).toBe('userMessage: /stream 300 20');
    expect(order[1]).toMatch(/^agentMessage: 1 2 3/);
    expect(order[2]).toBe('userMessage: mention the tides');
    expect(order[3]).toBe('continuation: steered');
    expect(order).toHaveLength(4);
    // Every number was shown once, across the two parts of the answer.
    const numbers = (
      await panel.locator('.transcript .agentMessage > .body, .transcript .continuation > .body').allTextContents()
    )
      .join(' ')
      .replace(/\(steered: mention the tides\)/, '')
      .trim()
      .split(/\s+/)
      .map(Number);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // One Copy for the answer, under its last part.
    const copies = panel.locator('.transcript [data-action="copy-answer"]');
    expect(await copies.count()).toBe(1);
    expect(await panel.locator('.transcript > *').last().locator('[data-action="copy-answer"]').count()).toBe(1);
    await panel.close();
  });

  it('names the page the tab shows in the header, and follows the tab to another page', async () => {
    const { page, panel } = await narrowPanel(suite, '/');
    const title = panel.locator('.toolbar .title');
    await expect.poll(() => title.textContent()).toBe('Tether demo: tides of the North Sea');
    await sendPrompt(panel, 'hello');
    await completedAnswers(panel).waitFor({ timeout: 30_000 });
    await page.goto(suite.demo.url('/other'));
    await expect.poll(() => title.textContent()).toBe('Another page: a short history of lighthouses');
    await panel.close();
    await page.close();
  });

  it('keeps words whole in a narrow table, which scrolls sideways and has borders', async () => {
    const { panel } = await narrowPanel(suite, '/');
    // The scripted model quotes what it was told, so the table comes back as model output.
    const table = [
      'x',
      '',
      '| a | b | c | d | e | f | g | h |',
      '|-|-|-|-|-|-|-|-|',
      '| Bergen | Norway | Stavanger | Trondheim | Tromsø | Ålesund | Kristiansand | Haugesund |',
      '',
      'y',
    ].join('\n');
    await sendPrompt(panel, table);
    const cell = panel.locator('.transcript .markdown td', { hasText: 'Bergen' });
    await cell.waitFor({ timeout: 30_000 });
    const look = await cell.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const style = getComputedStyle(td);
      return {
        lines: range.getClientRects().length,
        border: `${style.borderTopWidth} ${style.borderTopStyle}`,
        padding: style.paddingLeft,
        scrolls: (td.closest('table')?.scrollWidth ?? 0) > (td.closest('table')?.clientWidth ?? 0),
      };
    });
    expect(look).toEqual({ lines: 1, border: '1px solid', padding: '8px', scrolls: true });
    await panel.close();
  });
});
