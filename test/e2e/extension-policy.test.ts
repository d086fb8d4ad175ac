/**
 * The built extension's own limits, in real Chromium: the content security policy of its pages is in effect (a
 * remote image or connection is refused by the browser, not only by the markdown renderer), and the permission set
 * without `tabs` and `activeTab` still gives the worker what its page tools use.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_DIST } from '../support/browser';
import { useBrowserSuite } from '../support/browser-suite';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { agentTexts, completedAnswers, openConnectedPanel, openWebPage, sendPrompt } from '../support/extension-pages';

/** What the side panel saw when it tried to reach another server itself. */
interface ReachAttempt {
  readonly image: 'load' | 'error';
  readonly fetch: string;
  readonly violations: string[];
}

describe('the built extension in Chromium', () => {
  const suite = useBrowserSuite();
  // Another server than the demo pages, so every request it receives came from an attempt to leak.
  let beacon: DemoServer;
  beforeAll(async () => {
    beacon = await startDemoServer();
  });
  afterAll(async () => {
    await beacon?.close();
  });

  it('ships the permission set without tabs or activeTab and a policy for its pages', async () => {
    const manifest = JSON.parse(await readFile(join(EXTENSION_DIST, 'manifest.json'), 'utf8')) as {
      permissions: string[];
      content_security_policy: { extension_pages: string };
    };
    // `debugger` is trusted input (CDP through chrome.debugger), attached only while a turn acts on a site the user
    // allowed; the Chrome build alone asks for it (Firefox has no such API).
    expect([...manifest.permissions].sort()).toEqual([
      'contextMenus',
      'debugger',
      'nativeMessaging',
      'scripting',
      'sidePanel',
      'storage',
      'tabGroups',
      'webNavigation',
      'webRequest',
    ]);
    expect(manifest.content_security_policy.extension_pages).toContain("img-src 'self' data:");
  });

  it('fetches no remote image from model output, and the browser refuses one added past the markdown renderer', async () => {
    const { panel } = await openConnectedPanel(suite.browser, suite.demo.url('/'));
    await sendPrompt(panel, `Look: ![leak](${beacon.url('/markdown.png')})`);
    await expect.poll(() => completedAnswers(panel).count(), { timeout: 30_000 }).toBe(1);
    expect((await agentTexts(panel)).at(-1)).toContain('[image: leak]');

    const attempt: ReachAttempt = await panel.evaluate(async (base) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      const img = document.createElement('img');
      const image = new Promise<'load' | 'error'>((resolve) => {
        img.onload = () => resolve('load');
        img.onerror = () => resolve('error');
      });
      img.src = `${base}/direct.png`;
      document.body.append(img);
      const fetched = await fetch(`${base}/fetch`).then(
        (r) => `answered ${r.status}`,
        (e: unknown) => `refused: ${String(e)}`,
      );
      return { image: await image, fetch: fetched, violations };
    }, beacon.origin);

    expect(attempt.image).toBe('error');
    expect(attempt.fetch).toMatch(/^refused/);
    expect(attempt.violations.sort()).toEqual(['connect-src', 'img-src']);
    expect(beacon.requests).toEqual([]);
    await panel.close();
  });

  it("reads a tab's address and title and captures the visible tab with <all_urls> alone", async () => {
    const { page, tabId } = await openWebPage(suite.browser, suite.demo.url('/other'));
    await page.bringToFront();
    const worker = await suite.browser.serviceWorker();
    const seen = await worker.evaluate(async (id) => {
      type Tab = { url?: string; title?: string; windowId: number };
      type Tabs = {
        get(id: number): Promise<Tab>;
        query(q: object): Promise<Tab[]>;
        captureVisibleTab(w: number, o: object): Promise<string>;
      };
      const tabs = (globalThis as unknown as { chrome: { tabs: Tabs } }).chrome.tabs;
      const tab = await tabs.get(id);
      const listed = (await tabs.query({ windowId: tab.windowId })).map((t) => t.url);
      const shot = await tabs.captureVisibleTab(tab.windowId, { format: 'png' });
      return { url: tab.url, title: tab.title, listed, shot: shot.slice(0, 'data:image/png;base64,'.length) };
    }, tabId);
    expect(seen).toEqual({
      url: suite.demo.url('/other'),
      title: 'Another page: a short history of lighthouses',
      listed: expect.arrayContaining([suite.demo.url('/other')]),
      shot: 'data:image/png;base64,',
    });
    await page.close();
  });
});
