import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type BrowserSuite, useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage, sendPrompt, waitConnected } from '../support/extension-pages';

/** The real side panel's width in Chromium. */
const PANEL = { width: 365, height: 760 };
/** Chromium caps a popup at 600 px high. */
const POPUP = { width: 365, height: 600 };

/** A command long enough to wrap several times at 365 px. */
const COMMAND = `echo approval-layout ${Array.from({ length: 24 }, (_, i) => `word${i}`).join(' ')} --a-very-long-flag-${'x'.repeat(80)}`;

interface ButtonBox {
  choice: string;
  text: string;
  row: 'primary' | 'remember' | 'other';
  top: number;
  height: number;
  fontSize: number;
  /** Inside the viewport, inside every ancestor that clips, and the topmost element at its centre. */
  visible: boolean;
}

/** Every choice button of a card in document order, where it sits and whether the reader can see it whole. */
async function buttonsOf(card: Locator): Promise<ButtonBox[]> {
  return card.locator('button[data-choice]').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const inside = (o: { left: number; top: number; right: number; bottom: number }) =>
        r.left >= o.left - 0.5 && r.top >= o.top - 0.5 && r.right <= o.right + 0.5 && r.bottom <= o.bottom + 0.5;
      let visible = r.width > 0 && r.height > 0 && inside({ left: 0, top: 0, right: innerWidth, bottom: innerHeight });
      for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible')
          visible &&= inside(p.getBoundingClientRect());
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      visible &&= hit !== null && el.contains(hit);
      const row = el.closest('.choices.primary') ? 'primary' : el.closest('.choices.remember') ? 'remember' : 'other';
      return {
        choice: el.getAttribute('data-choice') ?? '',
        text: el.textContent ?? '',
        row,
        top: r.top,
        height: r.height,
        fontSize: Number.parseFloat(getComputedStyle(el).fontSize),
        visible,
      };
    }),
  );
}

/** Allow once and Deny lead, in the primary row and in larger type; Deny never sits between two "Always" buttons. */
function expectPrimaryFirst(buttons: ButtonBox[]): void {
  expect(buttons.slice(0, 2).map((b) => [b.choice, b.text, b.row])).toEqual([
    ['allow', 'Allow once', 'primary'],
    ['deny', 'Deny', 'primary'],
  ]);
  const remembered = buttons.slice(2);
  for (const b of remembered) {
    expect(b.row).toBe('remember');
    expect(b.top).toBeGreaterThan(buttons[1].top);
    expect(buttons[1].fontSize).toBeGreaterThan(b.fontSize);
  }
  const deny = buttons.findIndex((b) => b.choice === 'deny');
  const always = (b: ButtonBox | undefined) => b?.text.startsWith('Always') ?? false;
  expect(always(buttons[deny - 1]) && always(buttons[deny + 1])).toBe(false);
}

async function openPopup({ browser }: BrowserSuite, tabId: number): Promise<Page> {
  const popup = await browser.openExtensionPage(`src/popup/index.html?tab=${tabId}`);
  await popup.setViewportSize(POPUP);
  return popup;
}

describe('approval cards at the side panel width', () => {
  const suite = useBrowserSuite();

  it('asks to run a command on this computer, shows it whole in monospace, and leads with Allow once and Deny', async () => {
    const { browser, demo } = suite;
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await panel.setViewportSize(PANEL);
    await waitConnected(panel);

    await sendPrompt(panel, `/bash ${COMMAND}`);
    const card = panel.locator('.approval[data-tool="bash"]');
    await card.waitFor({ timeout: 30_000 });
    const question = (await card.locator('.question').textContent()) ?? '';
    expect(question).toBe('Run a command on this computer?');
    expect(question).not.toContain(demo.origin);

    const block = card.locator('pre.command');
    expect(await block.textContent()).toBe(COMMAND);
    const shape = await block.evaluate((el) => ({
      font: getComputedStyle(el).fontFamily,
      // Wrapped, not cut or scrolled sideways.
      overflowsX: el.scrollWidth > el.clientWidth + 1,
      overflowsY: el.scrollHeight > el.clientHeight + 1,
      lines: Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
    }));
    expect(shape.font).toMatch(/monospace/);
    expect(shape).toMatchObject({ overflowsX: false, overflowsY: false });
    expect(shape.lines).toBeGreaterThan(1);

    const buttons = await buttonsOf(card);
    expectPrimaryFirst(buttons);
    expect(buttons.map((b) => b.choice)).toEqual(['allow', 'deny', 'allow_session']);
    await panel.screenshot({ path: '/tmp/approval-bash-365.png' });

    const popup = await openPopup(suite, tabId);
    const popupCard = popup.locator('.approval[data-tool="bash"]');
    await popupCard.waitFor();
    expect(await popupCard.locator('pre.command').textContent()).toBe(COMMAND);
    const popupButtons = await buttonsOf(popupCard);
    expectPrimaryFirst(popupButtons);
    expect(popupButtons.filter((b) => !b.visible).map((b) => b.choice)).toEqual([]);
    await popup.screenshot({ path: '/tmp/approval-bash-popup.png' });

    await card.locator('button[data-choice="deny"]').click();
    await expect.poll(() => panel.locator('.approval').count(), { timeout: 30_000 }).toBe(0);
    await Promise.all([popup.close(), panel.close()]);
  });

  it("names the page's origin for a page tool, keeps the site rules in the Remember row, and the popup shows every choice", async () => {
    const { browser, demo } = suite;
    const { tabId } = await openWebPage(browser, demo.url('/'));
    const panel = await openSidePanel(browser, tabId);
    await panel.setViewportSize(PANEL);
    await waitConnected(panel);

    await sendPrompt(panel, '/page');
    const card = panel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.question').textContent()).toBe(`Let the agent read ${demo.origin}?`);
    const buttons = await buttonsOf(card);
    expectPrimaryFirst(buttons);
    expect(buttons.map((b) => b.choice)).toEqual([
      'allow',
      'deny',
      'allow_session',
      'always_allow_site',
      'always_deny_site',
    ]);
    expect(await card.locator('.choices.remember .remember-label').textContent()).toBe('Remember:');
    await panel.screenshot({ path: '/tmp/approval-page-365.png' });

    const popup = await openPopup(suite, tabId);
    const popupCard = popup.locator('.approval[data-tool="page_read"]');
    await popupCard.waitFor();
    const popupButtons = await buttonsOf(popupCard);
    expectPrimaryFirst(popupButtons);
    expect(popupButtons).toHaveLength(5);
    expect(popupButtons.filter((b) => !b.visible).map((b) => b.choice)).toEqual([]);
    await popup.screenshot({ path: '/tmp/approval-page-popup.png' });

    await card.locator('button[data-choice="deny"]').click();
    await expect.poll(() => panel.locator('.approval').count(), { timeout: 30_000 }).toBe(0);
    await Promise.all([popup.close(), panel.close()]);
  });
});
