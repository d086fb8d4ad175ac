/**
 * Trusted input end to end in real Chromium with the built extension: the page tools act through chrome.debugger
 * once the user allows it, a page that checks `event.isTrusted` sees a user's click (in the page and in a
 * cross-origin frame off its top-left), files reach a file input and a drop zone from disk, an HTML5 drag lands,
 * and cancelling Chrome's debugging bar mid-turn makes the next action fall back to synthetic input and say so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserSuite, useModelBrowserSuite } from '../support/browser-suite';
import { completedAnswers, openConnectedPanel, sendPrompt } from '../support/extension-pages';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site';
import { contentText, type ChatScript } from '../support/mock-chat-completions';
import { choose, refOf, tool } from '../support/page-tool-calls';

let site: FixtureSite;
let dir: string;
beforeAll(async () => {
  site = await startFixtureSite();
  dir = await mkdtemp(join(tmpdir(), 'tether-upload-'));
  await writeFile(join(dir, 'hello.txt'), 'hello world');
});
afterAll(async () => {
  await site?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const text = (page: Page, selector: string) => () => page.locator(selector).textContent();

describe('trusted input (Chromium, /tool commands)', () => {
  const suite = useBrowserSuite();

  it('clicks synthetically until the user allows trusted input on the site from the panel, then as a user, in the page and in a frame', async () => {
    const { page, panel } = await openConnectedPanel(suite.browser, site.url('/trusted'));
    const snapshot = await tool(panel, 'page_snapshot', {}, choose('page_snapshot', 'allow_session'));
    const real = refOf(snapshot, 'button', 'Only real clicks');

    const first = await tool(panel, 'page_click', { ref: real }, choose('page_click', 'allow_session'));
    expect(first).toContain('Input: synthetic (trusted input is not allowed on this site yet');
    await expect.poll(text(page, '#real-status')).toBe('ignored untrusted click #1');

    // The panel explains Chrome's bar before anything attaches, and offers trusted input on this site only.
    const offer = panel.locator('.trusted-offer');
    await offer.waitFor({ timeout: 10_000 });
    expect(await offer.textContent()).toContain('started debugging this browser');
    expect(await offer.getAttribute('data-origin')).toBe(site.origin);
    await offer.locator('[data-action="allow-trusted-input"]').click();
    await offer.waitFor({ state: 'detached' });

    const second = await tool(panel, 'page_click', { ref: real });
    expect(second).toContain('Input: trusted');
    await expect.poll(text(page, '#real-status')).toBe('trusted click #2');

    // Keys as a user's: trusted keydown events with the legacy keyCode pages read, and the text in the field.
    const nick = refOf(snapshot, 'textbox', 'Nickname');
    const typed = await tool(panel, 'page_type', { ref: nick, text: 'Ab1' });
    expect(typed).toContain('Input: trusted');
    expect(await page.locator('#nick').inputValue()).toBe('Ab1');
    expect(await page.locator('#key-status').textContent()).toBe('T65 T66 T49');

    // A button in a cross-origin frame: the point is mapped through the iframe's border and padding.
    const framed = refOf(snapshot, 'button', 'Framed real click');
    const inFrame = await tool(panel, 'page_click', { ref: framed }, choose('page_click', 'allow'));
    expect(inFrame).toContain('Input: trusted');
    const frame = page.frames().find((f) => f.url().endsWith('/trusted-frame'));
    await expect.poll(() => frame?.locator('#framed-status').textContent()).toBe('trusted click');
  });

  it('gives a file from disk to a file input and to a drop zone, asking every time with the file name on the card', async () => {
    const { page, panel } = await openConnectedPanel(suite.browser, site.url('/trusted'));
    const snapshot = await tool(panel, 'page_snapshot', {}, choose('page_snapshot', 'allow_session'));
    // The site is allowed already (the first test): trusted input gives Chrome the path itself.
    const input = refOf(snapshot, 'button', 'Attachment');
    const path = join(dir, 'hello.txt');
    const uploaded = await tool(panel, 'page_upload', { ref: input, paths: [path] }, async (p) => {
      const card = p.locator('.approval[data-tool="page_upload"]');
      await card.waitFor({ timeout: 30_000 });
      expect(await card.textContent()).toContain('hello.txt');
      // Files leaving the computer are never covered by a remembered choice.
      expect(await card.locator('button[data-choice="allow_session"]').count()).toBe(0);
      await choose('page_upload', 'allow')(p);
    });
    expect(uploaded).toContain('Input: trusted');
    await expect.poll(text(page, '#file-status')).toContain('hello.txt (11 bytes): hello world');

    const zone = refOf(snapshot, 'button', 'Drop files here');
    const dropped = await tool(panel, 'page_upload', { ref: zone, paths: [path] }, choose('page_upload', 'allow'));
    expect(dropped).toContain('Input: trusted');
    await expect.poll(text(page, '#drop-status')).toBe('dropped hello.txt: hello world');

    const drag = await tool(
      panel,
      'page_drag',
      { from: refOf(snapshot, 'button', 'Card A'), to: refOf(snapshot, 'button', 'Done column') },
      choose('page_drag', 'allow'),
    );
    expect(drag).toContain('Input: trusted');
    await expect.poll(text(page, '#drag-status')).toBe('Card A in Done');
  });
});

describe('synthetic input where the user turned trusted input off (Chromium, /tool commands)', () => {
  const suite = useBrowserSuite();

  it('uploads a file the host read and says the input was synthetic and why', async () => {
    const options = await suite.browser.openExtensionPage('src/options/index.html');
    await options.locator('select[name="trustedInput"]').selectOption('off');
    await expect.poll(() => options.locator('select[name="trustedInput"]').inputValue()).toBe('off');
    await options.close();
    const { page, panel } = await openConnectedPanel(suite.browser, site.url('/trusted'));
    const snapshot = await tool(panel, 'page_snapshot', {}, choose('page_snapshot', 'allow_session'));
    const input = refOf(snapshot, 'button', 'Attachment');
    const uploaded = await tool(
      panel,
      'page_upload',
      { ref: input, paths: [join(dir, 'hello.txt')] },
      choose('page_upload', 'allow'),
    );
    expect(uploaded).toContain("Input: synthetic (trusted input is off in Tether's options)");
    await expect.poll(text(page, '#file-status')).toContain('hello.txt (11 bytes): hello world');
    // A path that is no regular file is refused by the host, naming it; nothing reaches the page.
    const refused = await tool(panel, 'page_upload', { ref: input, paths: [dir] }, choose('page_upload', 'allow'));
    expect(refused).toContain('is a folder, not a file');
  });
});

/** A model that snapshots the page, then clicks "Only real clicks" twice in one turn, and quotes the last result. */
function twoClicks(): ChatScript {
  let snapshot = '';
  return ({ body }) => {
    const results = (body.messages ?? []).filter((m) => m.role === 'tool').map((m) => contentText(m.content));
    if (results.length === 0) return { kind: 'toolCall', name: 'page_snapshot', arguments: {} };
    if (results.length === 1) snapshot = results[0] ?? '';
    if (results.length <= 2)
      return {
        kind: 'toolCall',
        name: 'page_click',
        arguments: { ref: refOf(snapshot, 'button', 'Only real clicks') },
      };
    return { kind: 'text', text: `Done. ${results.slice(1).join(' || ')}` };
  };
}

describe('trusted input when the user cancels Chrome’s debugging bar (Chromium, a model)', () => {
  const suite = useModelBrowserSuite(twoClicks());

  it('falls back to synthetic input for the rest of the turn and says why', async () => {
    const options = await suite.browser.openExtensionPage('src/options/index.html');
    await options.locator('select[name="trustedInput"]').selectOption('always');
    await expect.poll(() => options.locator('select[name="trustedInput"]').inputValue()).toBe('always');
    await options.close();

    const { page, panel, tabId } = await openConnectedPanel(suite.browser, site.url('/trusted'));
    await sendPrompt(panel, 'Press the button twice.');
    await choose('page_snapshot', 'allow')(panel);
    await choose('page_click', 'allow')(panel);
    await expect.poll(text(page, '#real-status'), { timeout: 30_000 }).toBe('trusted click #1');

    // The second click waits on its card while the debugger is still attached: the user cancels the bar now.
    await panel.locator('.approval[data-tool="page_click"]').waitFor({ timeout: 30_000 });
    const worker = await suite.browser.serviceWorker();
    await worker.evaluate(
      (id) =>
        (globalThis as unknown as { __tetherCancelDebugging(tabId: number): Promise<void> }).__tetherCancelDebugging(
          id,
        ),
      tabId,
    );
    await choose('page_click', 'allow')(panel);
    await expect.poll(text(page, '#real-status'), { timeout: 30_000 }).toBe('ignored untrusted click #2');
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    const answer = (await completedAnswers(panel).last().textContent()) ?? '';
    const [firstResult, secondResult] = answer.split(' || ');
    expect(firstResult).toContain('Input: trusted');
    expect(secondResult).toContain('Input: synthetic (you cancelled Chrome\'s "started debugging this browser" bar');
  });
});
