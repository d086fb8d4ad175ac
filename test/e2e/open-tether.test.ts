/**
 * The ways into Tether in real Chromium (issue 13, item 6): the toolbar button opens the side panel (its popup is no
 * longer the default, and its approvals stay reachable from the button's menu), the shortcut is assigned, and "Ask
 * Tether about the selection" puts the quoted selection in the panel's composer without sending it. A native
 * context menu cannot be clicked in a headless browser, so the test calls the worker's click handler directly.
 */
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../support/browser-suite';
import { openSidePanel, openWebPage, waitConnected } from '../support/extension-pages';

interface ChromeForTest {
  sidePanel: { getPanelBehavior(): Promise<{ openPanelOnActionClick?: boolean }> };
  commands: { getAll(): Promise<Array<{ name?: string; shortcut?: string }>> };
  contextMenus: { update(id: string, props: object): Promise<void> };
  runtime: { getManifest(): { action?: Record<string, unknown> } };
}

describe('opening Tether in Chromium', () => {
  const suite = useBrowserSuite();

  it('opens the side panel from the toolbar button and the Alt+Shift+K command, with the popup off the button', async () => {
    const worker = await suite.browser.serviceWorker();
    const seen = await worker.evaluate(async () => {
      const c = (globalThis as unknown as { chrome: ChromeForTest }).chrome;
      // Menus are made at install; the worker may still be making them.
      let menus = 'missing';
      for (let i = 0; i < 50 && menus === 'missing'; i++) {
        menus = await Promise.all([
          c.contextMenus.update('tether-ask-selection', {}),
          c.contextMenus.update('tether-approvals', {}),
        ]).then(
          () => 'present',
          () => new Promise<string>((r) => setTimeout(() => r('missing'), 100)),
        );
      }
      return {
        behavior: await c.sidePanel.getPanelBehavior(),
        commands: (await c.commands.getAll()).map((x) => ({ name: x.name, shortcut: x.shortcut })),
        popup: c.runtime.getManifest().action?.default_popup ?? null,
        menus,
      };
    });
    expect(seen.behavior.openPanelOnActionClick).toBe(true);
    expect(seen.commands).toContainEqual({ name: '_execute_action', shortcut: 'Alt+Shift+K' });
    expect(seen.popup).toBeNull();
    expect(seen.menus).toBe('present');
  });

  it('puts the quoted selection in the composer of the tab’s panel, unsent, whether the panel is open or not', async () => {
    const { page, tabId } = await openWebPage(suite.browser, suite.demo.url('/'));
    const selection = await page.evaluate(() => {
      const p = document.querySelector('p');
      if (!p) throw new Error('the demo page has no paragraph');
      window.getSelection()?.selectAllChildren(p);
      return window.getSelection()?.toString() ?? '';
    });
    expect(selection.length).toBeGreaterThan(10);
    const worker = await suite.browser.serviceWorker();
    const click = (text: string): Promise<void> =>
      worker.evaluate(
        ({ id, text }) => {
          const handler = Reflect.get(globalThis, '__tetherMenuClick') as (info: object, tab: object) => void;
          handler({ menuItemId: 'tether-ask-selection', selectionText: text }, { id });
        },
        { id: tabId, text },
      );

    // The panel is not open: the worker keeps the draft for it.
    await click(selection);
    const panel = await openSidePanel(suite.browser, tabId);
    await waitConnected(panel);
    const box = panel.locator('textarea[name="prompt"]');
    const quoted = `> ${selection.trim().split('\n').join('\n> ')}\n\n`.replace(/^> $/gm, '>');
    await expect.poll(() => box.inputValue()).toBe(quoted);
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    // Nothing was sent, and the Send button takes the text as typed.
    expect(await panel.locator('.transcript .item').count()).toBe(0);
    expect(await panel.locator('button[data-action="send"]').isEnabled()).toBe(true);

    // The panel is open: a second selection is added below what the composer holds.
    await click('Second part');
    await expect.poll(() => box.inputValue()).toBe(`${quoted.trimEnd()}\n\n> Second part\n\n`);
    expect(await panel.locator('.transcript .item').count()).toBe(0);
    await Promise.all([panel.close(), page.close()]);
  });

  it("opens the approvals popup of the tab in a small window from the button's own menu", async () => {
    const { page, tabId } = await openWebPage(suite.browser, suite.demo.url('/other'));
    const worker = await suite.browser.serviceWorker();
    const opened = suite.browser.context.waitForEvent('page', {
      predicate: (p) => p.url().includes('/src/popup/index.html'),
      timeout: 10_000,
    });
    await worker.evaluate((id) => {
      const handler = Reflect.get(globalThis, '__tetherMenuClick') as (info: object, tab: object) => void;
      handler({ menuItemId: 'tether-approvals' }, { id });
    }, tabId);
    const popup = await opened;
    expect(new URL(popup.url()).search).toBe(`?tab=${tabId}`);
    await waitConnected(popup);
    expect(await popup.locator('.popup-body').textContent()).toContain('No approvals waiting on this tab.');
    await Promise.all([popup.close(), page.close()]);
  });
});
