/** Helpers to drive the extension's pages in end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import type { LaunchedBrowser } from './browser';

/** What `newestTabId` asks a page for: the newest tab showing `url`, through the `api` namespace. */
interface TabQuery {
  readonly url: string;
  /** `chrome`, or Firefox's `browser`. */
  readonly api: 'chrome' | 'browser';
}

/** An extension page that runs a function with one argument: Playwright's and puppeteer's pages both are. */
export interface EvaluatingPage {
  evaluate(fn: (query: TabQuery) => Promise<number | undefined>, query: TabQuery): Promise<number | undefined>;
  close(): Promise<void>;
}

/** The id of the newest tab showing `url` (tab ids only grow), asked through `helper`, which is closed after. */
export async function newestTabId(helper: EvaluatingPage, query: TabQuery): Promise<number> {
  try {
    const id = await helper.evaluate(async ({ url, api }) => {
      type Tabs = { query(q: object): Promise<Array<{ id?: number; url?: string }>> };
      const tabs = await (globalThis as unknown as Record<string, { tabs: Tabs }>)[api]!.tabs.query({});
      const ids = tabs.filter((t) => t.url === url && t.id !== undefined).map((t) => t.id as number);
      return ids.length ? Math.max(...ids) : undefined;
    }, query);
    if (id === undefined) throw new Error(`no tab shows ${query.url}`);
    return id;
  } finally {
    await helper.close();
  }
}

/** The tab id of the newest tab showing `url`, asked through an extension page. */
export async function tabIdOf(browser: LaunchedBrowser, url: string): Promise<number> {
  return newestTabId(await browser.openExtensionPage('src/options/index.html'), { url, api: 'chrome' });
}

/** Opens a web page in a new tab and returns the page and its tab id. */
export async function openWebPage(browser: LaunchedBrowser, url: string): Promise<{ page: Page; tabId: number }> {
  const page = await browser.context.newPage();
  await page.goto(url);
  return { page, tabId: await tabIdOf(browser, url) };
}

/** Opens the side panel document of a tab (as a normal tab, which is how tests can reach it). */
export async function openSidePanel(browser: LaunchedBrowser, tabId: number): Promise<Page> {
  const panel = await browser.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
  await panel.setViewportSize({ width: 420, height: 760 });
  return panel;
}

/** Opens `url` in a new tab and that tab's side panel, and waits until the panel is connected. */
export async function openConnectedPanel(
  browser: LaunchedBrowser,
  url: string,
): Promise<{ page: Page; tabId: number; panel: Page }> {
  const { page, tabId } = await openWebPage(browser, url);
  const panel = await openSidePanel(browser, tabId);
  await waitConnected(panel);
  return { page, tabId, panel };
}

/** Waits until a page's banner says connected. */
export async function waitConnected(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.locator('.banner[data-status="connected"]').waitFor({ timeout: timeoutMs });
}

/** Types a prompt into the side panel and presses Enter. */
export async function sendPrompt(panel: Page, text: string): Promise<void> {
  const box = panel.locator('textarea[name="prompt"]');
  await box.fill(text);
  await box.press('Enter');
}

/** A panel that clicks and waits by selector: Playwright's (Chromium) and puppeteer's (Firefox) pages both are. */
export interface ClickingPage {
  click(selector: string): Promise<void>;
  waitForSelector(selector: string, options: { timeout: number }): Promise<unknown>;
}

/** Shares the panel's tab with external agents, by the user's clicks (Share, then the tab's toggle), in either browser. */
export async function shareTab(panel: ClickingPage): Promise<void> {
  await panel.click('button[data-action="share"]');
  await panel.click('input[name="share-tab"]');
  await panel.waitForSelector('.share[data-shared="true"]', { timeout: 10_000 });
}

/** The toolbar badge of a tab, read through an extension page. */
export async function badgeOf(page: Page, tabId: number): Promise<string> {
  return page.evaluate(
    (id) =>
      (
        globalThis as unknown as { chrome: { action: { getBadgeText(d: object): Promise<string> } } }
      ).chrome.action.getBadgeText({ tabId: id }),
    tabId,
  );
}

/** The completed agent answers in a panel's transcript. */
export function completedAnswers(panel: Page): Locator {
  return panel.locator('.transcript .item.agentMessage.completed');
}

/** Text of the agent messages in the transcript. */
export async function agentTexts(panel: Page): Promise<string[]> {
  return panel.locator('.transcript .item.agentMessage .body').allTextContents();
}

/** Shows `threadId`, picked from History, in a connected panel (waits up to a minute for the connection). */
export async function reopenFromHistory(panel: Page, threadId: string): Promise<void> {
  await waitConnected(panel, 60_000);
  await panel.locator('button[data-action="history"]').click();
  await panel.locator(`.history li[data-thread-id="${threadId}"] button.link`).click({ timeout: 30_000 });
  await panel.locator(`.transcript[data-thread-id="${threadId}"]`).waitFor({ timeout: 30_000 });
}
