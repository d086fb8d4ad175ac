/**
 * page_console and page_network end to end in real Chromium with the built extension: a fixture page logs at every
 * level, throws, leaves a promise rejected and makes a 404 request (with an Authorization header), one to a port
 * nothing listens on, and one whose JSON answer carries a session token (its response body, masked, through the page's
 * main-world hook). Driven by the scripted model's `/tool` commands through the host, and by an external MCP client
 * (the SDK's, spawning `tether mcp`) on a shared tab.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartWorker, useBrowserSuite } from '../support/browser-suite';
import { FIXTURE_TOKEN, SESSION_TOKEN } from '../support/devtools-pages';
import { openConnectedPanel, shareTab, waitConnected } from '../support/extension-pages';
import { tetherMcpClients, untilListed } from '../support/mcp-clients';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site';
import { choose, tool } from '../support/page-tool-calls';

/** The part of the extension API the registration check uses (the function runs in the service worker). */
declare const chrome: {
  scripting: { getRegisteredContentScripts(): Promise<{ id: string; world?: string; runAt?: string }[]> };
};

// The folder where the browser's host announces itself and `tether mcp` finds it: private to this file.
const runtime = mkdtempSync(join(tmpdir(), 'tether-runtime-'));
let site: FixtureSite;
let deadPort: number;

/** A port of 127.0.0.1 that was free a moment ago and has no listener now: a request to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  site = await startFixtureSite();
  deadPort = await closedPort();
});
afterAll(async () => {
  await site?.close();
});
// Registered after the afterAll above, so its clients close first, as they did before the site.
const connect = tetherMcpClients(runtime);

/**
 * Waits until the worker has registered the document-start hook (it does so as it starts; a page that loaded before
 * is recorded only from Tether's first use, and says so).
 */
async function hooksRegistered(suite: ReturnType<typeof useBrowserSuite>): Promise<void> {
  const worker = await suite.browser.serviceWorker();
  await expect
    .poll(
      () =>
        worker.evaluate(async () =>
          (await chrome.scripting.getRegisteredContentScripts()).map((s) => `${s.id} ${s.world} ${s.runAt}`),
        ),
      { timeout: 15_000 },
    )
    .toEqual(['tether-page-hooks MAIN document_start']);
}

/** Opens the fixture page and waits until both of its requests are over. */
async function openConsolePage(suite: ReturnType<typeof useBrowserSuite>) {
  await hooksRegistered(suite);
  const opened = await openConnectedPanel(suite.browser, site.url(`/console?dead=${deadPort}`));
  await waitRequestsOver(opened.page);
  return opened;
}

async function waitRequestsOver(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('#status').textContent(), { timeout: 15_000 })
    .toBe('requests over: dead refused, missing 404, session ada');
}

/** The lines of a console result that are messages (`[seq] level ...`). */
function messageLines(text: string): string[] {
  return text.split('\n').filter((l) => /^\[\d+\] (debug|log|info|warn|error) /.test(l));
}

describe('page_console and page_network (Chromium)', () => {
  const suite = useBrowserSuite({ env: { TETHER_RUNTIME_DIR: runtime } });

  it('reports each console message and uncaught error once with its level and source, and reads on from a cursor', async () => {
    const { page, panel } = await openConsolePage(suite);
    const out = await tool(panel, 'page_console', {}, choose('page_console', 'allow_session'));
    expect(out).toContain("hook in the page's main world");
    expect(out).toContain('Recorded since the page loaded.');
    const lines = messageLines(out);
    const only = (needle: string): string => {
      const found = lines.filter((l) => l.includes(needle));
      expect(found, `${needle} in:\n${out}`).toHaveLength(1);
      return found[0] ?? '';
    };
    expect(only('fixture log 42 {a: 1}')).toMatch(/^\[\d+\] log /);
    expect(only('fixture info')).toMatch(/^\[\d+\] info /);
    expect(only('fixture warning: low disk')).toMatch(/^\[\d+\] warn /);
    expect(only('fixture error Error: bad state')).toMatch(/^\[\d+\] error /);
    expect(only('fixture debug')).toMatch(/^\[\d+\] debug /);
    expect(only('Uncaught (in promise) Error: fixture rejection')).toMatch(/^\[\d+\] error /);
    expect(only('Uncaught Error: fixture uncaught')).toMatch(/^\[\d+\] error /);
    // Each message says where the page raised it: the fixture's inline script.
    expect(only('fixture info')).toContain(`${site.url('/console')}?dead=${deadPort}:`);
    expect(lines).toHaveLength(7);

    const next = Number(/Next: since=(\d+)\./.exec(out)?.[1]);
    expect(next).toBeGreaterThanOrEqual(7);
    await page.locator('#later').click();
    const later = await tool(panel, 'page_console', { since: next, level: 'error' });
    expect(messageLines(later)).toHaveLength(1);
    expect(messageLines(later)[0]).toContain('later failure 7');

    const errors = await tool(panel, 'page_console', { level: 'error' });
    expect(messageLines(errors)).toHaveLength(4);
    await panel.close();
  });

  it('lists the 404 and the refused request once each, and shows the Authorization header masked', async () => {
    const { panel } = await openConsolePage(suite);
    const all = await tool(panel, 'page_network', {}, choose('page_network', 'allow_session'));
    expect(all).toContain("from the extension's webRequest observer; no debugging port");
    expect(all).toContain('Recorded since its page started loading');
    expect(all).toMatch(/r\d+ GET 200 main_frame /);

    const failed = await tool(panel, 'page_network', { failedOnly: true });
    const lines = failed.split('\n').filter((l) => /^r\d+ /.test(l));
    expect(lines, failed).toHaveLength(2);
    const missing = lines.find((l) => l.includes('/api/missing')) ?? '';
    expect(missing).toMatch(/^r\d+ GET 404 (xmlhttprequest|fetch|other) /);
    const refused = lines.find((l) => l.includes(`127.0.0.1:${deadPort}/unreachable`)) ?? '';
    expect(refused).toContain('failed (net::ERR_CONNECTION_REFUSED)');

    const id = /^(r\d+) /.exec(missing)?.[1] ?? '';
    const detail = await tool(panel, 'page_network', { bodyOf: id });
    expect(detail).toMatch(/Authorization: Bearer \*\*\*/i);
    expect(detail).not.toContain(FIXTURE_TOKEN);
    // Its 404 page, as the page's fetch received it.
    expect(detail).toContain('no fixture page /api/missing');
    expect(await panel.locator('.transcript').textContent()).not.toContain(FIXTURE_TOKEN);

    const filtered = await tool(panel, 'page_network', { filter: 'unreachable' });
    expect(filtered.split('\n').filter((l) => /^r\d+ /.test(l))).toHaveLength(1);
    await panel.close();
  });

  it("shows the JSON body of the page's fetch with its token masked, and says why the document has none", async () => {
    const { panel } = await openConsolePage(suite);
    const all = await tool(panel, 'page_network', {}, choose('page_network', 'allow_session'));
    expect(all).toContain("Response bodies: only of the page's own fetch and XMLHttpRequest calls");
    const requests = all.split('\n').filter((l) => /^r\d+ /.test(l));
    const session = requests.find((l) => l.includes('/api/session')) ?? '';
    expect(session, all).toMatch(/^r\d+ GET 200 /);
    const body = await tool(panel, 'page_network', { bodyOf: /^(r\d+) /.exec(session)?.[1] ?? '' });
    expect(body).toContain(
      "Response body (application/json) (as the page's scripts received it, from the page's main-world hook",
    );
    expect(body).toContain('"user":"ada"');
    expect(body).toContain('"session_token":"***"');
    expect(body).toContain('"roles":["reader","editor"]');
    expect(body).not.toContain(SESSION_TOKEN);

    const documentLine = requests.find((l) => / main_frame /.test(l)) ?? '';
    const documentBody = await tool(panel, 'page_network', { bodyOf: /^(r\d+) /.exec(documentLine)?.[1] ?? '' });
    expect(documentBody).toContain("not a fetch or XMLHttpRequest of the page's scripts but a main_frame request");
    expect(await panel.locator('.transcript').textContent()).not.toContain(SESSION_TOKEN);
    await panel.close();
  });

  it("keeps the console through the worker's restart (it lives in the page) and says the request list starts at the restart", async () => {
    const { panel } = await openConsolePage(suite);
    const before = await tool(panel, 'page_console', { level: 'error' }, choose('page_console', 'allow_session'));
    expect(messageLines(before)).toHaveLength(3);
    // The worker restarted and lost what it held in memory.
    await restartWorker(suite.browser);
    await waitConnected(panel);
    // The thread's grant for reading this site was kept through the restart: no card this time.
    const after = await tool(panel, 'page_console', { level: 'error' });
    expect(messageLines(after)).toEqual(messageLines(before));
    const network = await tool(panel, 'page_network', {});
    expect(network).toContain('Recorded only since');
    expect(network).toContain("when the extension's worker last started");
    expect(network).toContain('page_reload records from the start');
    await panel.close();
  });

  it('answers an external MCP client calling page_console on a shared tab', async () => {
    const { panel } = await openConsolePage(suite);
    const client = await connect('devtools-client');
    await untilListed(client, 'page_console');
    await shareTab(panel);
    await expect
      .poll(() => panel.locator('.share .share-status').textContent(), { timeout: 10_000 })
      .toContain('devtools-client');

    const reading = client.callTool({ name: 'page_console', arguments: { level: 'error' } });
    const card = panel.locator('.approval[data-tool="page_console"]');
    await card.waitFor({ timeout: 30_000 });
    await card.locator('button[data-choice="allow"]').click();
    const result = await reading;
    expect(result.isError).toBeFalsy();
    const content = Array.isArray(result.content) ? result.content : [];
    const text = content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(messageLines(text)).toHaveLength(3);
    expect(text).toContain('Uncaught Error: fixture uncaught');
    await panel.close();
  });
});
