/**
 * A tab a page opens while the agent acts on it, in Firefox ESR: the agent clicks the brief's target=_blank link,
 * webNavigation.onCreatedNavigationTarget names the brief's tab as the source, and the opened tab joins the task, so
 * the agent reads and acts on it by tabId without the user switching to it; each card names that tab.
 */
import type { ElementHandle } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../support/fixture-site';
import { refOf } from '../support/page-tool-calls';
import { BRIEF_FACTS } from '../support/task-pages';
import { type LaunchedFirefox, waitInPage } from './firefox-browser';
import { CONNECTED, toolRunner, useFirefox } from './firefox-panel';

describe('tabs a page opens for the agent, in Firefox ESR', () => {
  // TETHER_FIREFOX_DIST names another build (one built into a folder of one's own), as TETHER_EXTENSION_DIST does
  // for Chromium.
  const dist = process.env.TETHER_FIREFOX_DIST;
  const launched = useFirefox(dist ? { dist } : {});
  let firefox: LaunchedFirefox;

  beforeAll(() => {
    firefox = launched();
  });

  it('takes the tab the agent opens by clicking a target=_blank link into the task, and names it on its cards', async () => {
    const site = await startFixtureSite();
    try {
      const { tabId: briefTab } = await firefox.openWebPage(site.url('/brief'));
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${briefTab}`);
      await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
      // The add-on has webNavigation, so the tab joins by its source tab, not by the window guess it falls back on.
      const granted = await panel.evaluate(() => {
        type Nav = { webNavigation?: { onCreatedNavigationTarget?: unknown } };
        return (
          (globalThis as unknown as { browser: Nav }).browser.webNavigation?.onCreatedNavigationTarget !== undefined
        );
      });
      expect(granted).toBe(true);
      const tool = toolRunner(panel);
      const brief = await tool('page_snapshot', {}, 'allow_session');
      const clicked = await tool('page_click', { ref: refOf(brief, 'link', 'application form') }, 'allow');
      // The panel lists the tab the click opened as the agent's (the browser may report it just after the click's
      // answer, which then cannot name it), and the agent stays on the brief: nothing switched tabs for it.
      const formTab = Number(
        await waitInPage(
          panel,
          (home) =>
            Array.from(document.querySelectorAll('.task-tab'))
              .map((el) => el.getAttribute('data-tab-id'))
              .find((id) => id !== null && id !== String(home)),
          { arg: briefTab, timeout: 10_000 },
        ),
      );
      expect(formTab).toBeGreaterThan(0);
      const named = /This action opened tab (\d+), which joined this task/.exec(clicked)?.[1];
      if (named !== undefined) expect(Number(named)).toBe(formTab);
      const row = `.task-tab[data-tab-id="${formTab}"]`;
      expect(await panel.$eval(`${row} .task-tab-role`, (el) => el.textContent)).toBe('opened by the agent');
      expect(
        await panel.$eval(`.task-tab[data-tab-id="${briefTab}"]`, (el) => el.getAttribute('data-agent-here')),
      ).toBe('true');

      // Reading it by tabId is asked on its own site, on a card naming the tab, since it is not the conversation's.
      const cardNames = async (card: ElementHandle): Promise<void> => {
        expect(await card.$eval('.asker .origin', (el) => el.textContent)).toBe(site.otherOrigin);
        expect(await card.$eval('.asker .tab', (el) => el.textContent)).toBe('“Application form”');
      };
      const form = await tool('page_snapshot', { tabId: formTab }, 'allow_session', cardNames);
      expect(form).toContain('Full name');
      const read = await tool('page_read', { tabId: formTab });
      expect(read).toContain('Application form');

      // An action on it: its card names the tab too, and the value lands in the form's page.
      const fields = [{ ref: refOf(form, 'textbox', 'Full name'), value: BRIEF_FACTS.name }];
      const filled = await tool('page_fill_form', { fields, tabId: formTab }, 'allow', cardNames);
      expect(filled).toContain('Filled 1 field');
      const after = await tool('page_snapshot', { tabId: formTab });
      expect(after).toContain(BRIEF_FACTS.name);

      expect(await tool('tabs_close', { tabId: formTab }, 'allow')).toContain(`Closed tab ${formTab}.`);
      await panel.close();
    } finally {
      await site.close();
    }
  });
});
