/**
 * Driving Tether's side panel in Firefox ESR from tests: the add-on launched once per describe block, a tab's panel
 * page opened and connected, prompts sent, answers read, page tools run through the scripted model's `/tool`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ARTIFACTS_DIR } from '../support/browser';
import { type FirefoxOptions, launchFirefox, type LaunchedFirefox, waitInPage } from './firefox-browser';

/** The side panel's banner once the host is connected. */
export const CONNECTED = '.banner[data-status="connected"]';
/** A finished answer in the transcript. */
export const COMPLETED_ANSWER = '.transcript .item.agentMessage.completed';

/** Types a prompt into the side panel and presses Enter. */
export async function sendPrompt(panel: Page, text: string): Promise<void> {
  await panel.type('textarea[name="prompt"]', text);
  await panel.keyboard.press('Enter');
}

/** Waits until the panel shows `count` completed answers and returns the text of the last one. */
export async function answer(panel: Page, count: number): Promise<string> {
  await waitInPage(panel, ({ sel, n }) => document.querySelectorAll(sel).length >= n, {
    arg: { sel: COMPLETED_ANSWER, n: count },
  });
  return panel.$$eval('.transcript .item.agentMessage .body', (els) => els.at(-1)?.textContent ?? '');
}

/**
 * Runs page tools through the scripted model's `/tool` command in `panel`, answering each card with `choice` when
 * given (after `inspect` looked at the card); each call resolves with the answer it produced.
 */
export function toolRunner(
  panel: Page,
): (name: string, args: unknown, choice?: string, inspect?: (card: ElementHandle) => Promise<void>) => Promise<string> {
  let answers = 0;
  return async (name, args, choice, inspect) => {
    await sendPrompt(panel, `/tool ${name} ${JSON.stringify(args)}`);
    if (inspect) {
      const card = await panel.waitForSelector(`.approval[data-tool="${name}"]`, { timeout: 30_000 });
      await inspect(card!);
    }
    if (choice) {
      const button = `.approval[data-tool="${name}"] button[data-choice="${choice}"]`;
      await panel.waitForSelector(button, { timeout: 30_000 });
      await panel.click(button);
    }
    return answer(panel, ++answers);
  };
}

/** Saves a screenshot of `page` into test/artifacts/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`) });
}

/** The transcript as text lines, one per item. */
export async function transcriptLines(panel: Page): Promise<string[]> {
  return panel.$$eval('.transcript > [data-item-id]', (els) => els.map((e) => `${e.className}: ${e.textContent}`));
}

/** Opens `url` in a tab and that tab's side panel page, and waits until the panel is connected. */
export async function connectedPanel(firefox: LaunchedFirefox, url: string): Promise<Page> {
  const { tabId } = await firefox.openWebPage(url);
  const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
  await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
  return panel;
}

/** Text of the Firefox sidebar's document (the real sidebar, read from another page of the same add-on). */
export async function sidebarText(from: Page): Promise<string | undefined> {
  return from.evaluate(() => {
    type Ext = { getViews(q: { type: string }): Window[] };
    const [view] = (globalThis as unknown as { browser: { extension: Ext } }).browser.extension.getViews({
      type: 'sidebar',
    });
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the user reads.
    return view?.document.body.innerText;
  });
}

/**
 * Launches Firefox before a describe block's tests and closes it after. A Firefox that cannot start or load the add-on
 * fails every test with its reason (a failing beforeAll would only mark them skipped).
 */
export function useFirefox(options: FirefoxOptions = {}): () => LaunchedFirefox {
  let firefox: LaunchedFirefox | undefined;
  let launchError: unknown;
  beforeAll(async () => {
    try {
      firefox = await launchFirefox(options);
    } catch (error) {
      launchError = error;
    }
  });
  beforeEach(() => {
    if (launchError) throw launchError;
  });
  afterAll(async () => {
    await firefox?.close();
  });
  return () => firefox!;
}
