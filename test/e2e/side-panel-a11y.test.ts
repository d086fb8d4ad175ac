import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveScreenshot } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';

/** Roles a person operates: each must have a name a screen reader can say. */
const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'DisclosureTriangle',
  'link',
  'listbox',
  'menuitem',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
]);

/** The controls of `page` without an accessible name, from Chromium's own accessibility tree. */
async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const unnamed: string[] = [];
    for (const node of nodes) {
      const role = String(node.role?.value ?? '');
      if (node.ignored || !CONTROL_ROLES.has(role) || String(node.name?.value ?? '').trim()) continue;
      const { node: dom } = await cdp.send('DOM.describeNode', { backendNodeId: node.backendDOMNodeId });
      unnamed.push(`${role}: <${dom.localName} ${(dom.attributes ?? []).join(' ')}>`);
    }
    return unnamed;
  } finally {
    await cdp.detach();
  }
}

/** A text or control colour under 4.5:1 against what is behind it. */
interface LowContrast {
  readonly element: string;
  readonly text: string;
  readonly color: string;
  readonly background: string;
  readonly ratio: number;
}

/**
 * Every visible piece of text and every enabled control of the page whose colour is under 4.5:1 against its
 * background (the backgrounds of its ancestors composed, as computed styles give them). Disabled controls are exempt,
 * as WCAG 1.4.3 has it.
 */
function lowContrast(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | undefined => {
      const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
      const srgb = /^color\(srgb ([^)]+)\)$/.exec(value);
      const parts = (rgb?.[1] ?? srgb?.[1])
        ?.split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      if (!parts || parts.length < 3) return undefined;
      const scale = srgb ? 255 : 1;
      return [(parts[0] ?? 0) * scale, (parts[1] ?? 0) * scale, (parts[2] ?? 0) * scale, parts[3] ?? 1];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
    };
    const background = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg[3] > 0) layers.push(bg);
      }
      const dark = matchMedia('(prefers-color-scheme: dark)').matches;
      let color: Rgba = dark ? [0, 0, 0, 1] : [255, 255, 255, 1];
      for (const layer of layers.reverse()) color = over(layer, color);
      return color;
    };
    const luminance = (c: Rgba): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: Rgba, b: Rgba): number => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const visible = (el: Element): boolean => {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) return false;
      for (let e: Element | null = el; e; e = e.parentElement) {
        const style = getComputedStyle(e);
        if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) < 1) return false;
      }
      return true;
    };
    const describe = (el: Element): string =>
      `${el.localName}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const found: LowContrast[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const hasText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      const control = el.matches('button, select, textarea, input');
      if (!hasText && !control) continue;
      if (el.closest(':disabled, details:not([open]) > :not(summary)') || !visible(el)) continue;
      const color = parse(getComputedStyle(el).color);
      if (!color) continue;
      const bg = background(el);
      const value = ratio(over(color, bg), bg);
      if (value < 4.5)
        found.push({
          element: describe(el),
          text: (el.textContent ?? '').trim().slice(0, 40),
          color: getComputedStyle(el).color,
          background: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`,
          ratio: Math.round(value * 100) / 100,
        });
    }
    return found;
  });
}

describe('accessibility of the side panel (Chromium)', () => {
  const suite = useBrowserSuite();

  it('is a polite log labelled by speaker, which does not read out an answer delta by delta', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    const log = panel.locator('.transcript');
    expect(await log.getAttribute('role')).toBe('log');
    expect(await log.getAttribute('aria-live')).toBe('polite');
    expect(await log.getAttribute('aria-relevant')).toBe('additions');
    await sendPrompt(panel, '/stream 400 5');
    const writing = panel.locator('.transcript .item.agentMessage.inProgress');
    await writing.waitFor({ timeout: 10_000 });
    expect(await writing.getAttribute('aria-busy')).toBe('true');
    const answer = completedAnswers(panel).last();
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.getAttribute('aria-busy')).toBeNull();
    expect(await panel.locator('.transcript .item.userMessage .speaker').last().textContent()).toBe('You said:');
    expect(await answer.locator('.speaker').textContent()).toBe('Tether said:');
    // A snapshot (here: the panel reloaded) is not read out again once shown.
    await panel.reload();
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    await expect.poll(() => log.getAttribute('aria-busy')).toBeNull();
    await panel.close();
  });

  it('announces an approval assertively, naming its question, and says the turn waits for it or runs the tool', async () => {
    const { panel, tabId } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    const announcer = panel.locator('[data-role="approval-announcer"]');
    expect(await announcer.getAttribute('aria-live')).toBe('assertive');
    expect(await announcer.textContent()).toBe('');
    await sendPrompt(panel, '/bash echo announced');
    const card = panel.locator('.approval').first();
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => announcer.textContent()).toContain('Approval needed: Run a command on this computer?');
    expect(await card.getAttribute('aria-label')).toBe('Run a command on this computer?');
    // The popup, opened for the same tab, announces it too.
    const popup = await suite.browser.openExtensionPage(`src/popup/index.html?tab=${tabId}`);
    await expect
      .poll(() => popup.locator('[data-role="approval-announcer"]').textContent())
      .toContain('Approval needed: Run a command on this computer?');
    await popup.close();
    // The working line says what the turn waits for.
    const working = panel.locator('.live-status .working');
    await expect.poll(() => working.textContent()).toBe('Waiting for your approval to run bash…');
    await card.locator('button[data-choice="deny"]').click();
    await expect.poll(() => announcer.textContent()).toBe('');
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    await working.waitFor({ state: 'detached' });
    // While an allowed command runs, the line names it; it is gone once the turn ends.
    await sendPrompt(panel, '/bash sleep 2');
    await panel.locator('.approval button[data-choice="allow"]').click({ timeout: 30_000 });
    await expect.poll(() => working.textContent()).toBe('Running bash…');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(2);
    await working.waitFor({ state: 'detached' });
    await panel.close();
  });

  it('gives every control a name: composer, pickers, tool cards, approvals, copy and edit buttons, history', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, 'Some **markdown** with `code` and a [link](https://example.com/)\n\n```\nprint(1)\n```');
    await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
    await sendPrompt(panel, '/bash echo named');
    await panel.locator('.approval').first().waitFor({ timeout: 30_000 });
    expect(await unnamedControls(panel)).toEqual([]);
    await panel.locator('.approval button[data-choice="allow"]').click();
    await completedAnswers(panel).nth(1).waitFor({ timeout: 30_000 });
    await panel.locator('button[data-action="history"]').click();
    await panel.locator('.history').waitFor();
    expect(await unnamedControls(panel)).toEqual([]);
    await panel.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has text and controls at 4.5:1 or more in ${scheme} mode`, async () => {
      const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
      await panel.emulateMedia({ colorScheme: scheme });
      await sendPrompt(panel, 'Read the [docs](https://example.com/docs) and run `npm test`.');
      await completedAnswers(panel).last().waitFor({ timeout: 30_000 });
      await sendPrompt(panel, '/bash echo contrast');
      await panel.locator('.approval button[data-choice="allow"]').click({ timeout: 30_000 });
      await completedAnswers(panel).nth(1).waitFor({ timeout: 30_000 });
      await sendPrompt(panel, '/fail');
      await panel.locator('.transcript .item.error').first().waitFor({ timeout: 30_000 });
      await panel.locator('button[data-action="history"]').click();
      await panel.locator('.history li').first().waitFor();
      await panel.locator('textarea[name="prompt"]').fill('a draft, so that Send is enabled');
      const low = await lowContrast(panel);
      await panel.setViewportSize({ width: 365, height: 760 });
      await saveScreenshot(panel, `side-panel-contrast-${scheme}`);
      expect(low).toEqual([]);
      await panel.close();
    });
  }
});
