/**
 * Chromium and Firefox ESR attached at once to one Tether daemon, end to end: both browsers' hosts relay to the daemon
 * of one runtime folder (TETHER_DAEMON=1). Each panel streams its own conversation while the other streams too, and
 * gets only its own; History, the user's threads in the one store, lists both; `tether mcp --browser` reaches a tab
 * shared in Chromium, then one shared in Firefox, and each call is asked in that browser's panel only; a thread
 * Chromium is streaming, opened in Firefox from History, streams on into both.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page as ChromiumPage } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { daemonPidIn, stopDaemonIn, tetherDaemons } from '../support/daemons';
import { type DemoServer, startDemoServer } from '../support/demo-server';
import { agentTexts, completedAnswers, openConnectedPanel, sendPrompt, shareTab } from '../support/extension-pages';
import { tetherMcpClients, toolText } from '../support/mcp-clients';
import { launchFirefox, type LaunchedFirefox, waitInPage } from './firefox-browser';
import { answer, connectedPanel, sendPrompt as sendFirefoxPrompt } from './firefox-panel';

// One runtime folder for both browsers: their hosts find (or start) the same daemon there, and nobody else's.
const runtime = mkdtempSync(join(tmpdir(), 'tether-two-browsers-'));
const shared = { TETHER_DAEMON: '1', TETHER_RUNTIME_DIR: runtime };
let demo: DemoServer | undefined;
let chromium: LaunchedBrowser | undefined;
let firefox: LaunchedFirefox | undefined;

beforeAll(async () => {
  demo = await startDemoServer();
  chromium = await launchBrowser({ env: shared });
  firefox = await launchFirefox({ env: shared });
});

afterAll(async () => {
  await chromium?.close();
  await firefox?.close();
  await demo?.close();
  const pid = daemonPidIn(runtime);
  await stopDaemonIn(runtime);
  try {
    // Nothing of this test outlives it: no daemon, no relay, no browser named by the shared runtime folder.
    if (pid !== undefined && tetherDaemons().includes(pid)) throw new Error(`the daemon (pid ${pid}) outlived stop`);
    const deadline = Date.now() + 15_000;
    while (processesWithRuntime().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const left = processesWithRuntime();
    if (left.length > 0)
      throw new Error(`processes of the shared runtime folder outlived the test: ${left.join(', ')}`);
  } finally {
    rmSync(runtime, { recursive: true, force: true });
  }
});

/** Pids of live processes whose environment names this test's runtime folder. */
function processesWithRuntime(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${name}/stat`, 'latin1'))) return false;
        return readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`TETHER_RUNTIME_DIR=${runtime}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The browsers announced for `tether mcp --browser` (host-*.json in the runtime folder): the daemon's connections
 * when `prefix` is `host-DAEMONPID-` (a host serving in-process would announce `host-HOSTPID.json`).
 */
function announcedBrowsers(prefix = 'host-'): string[] {
  return readdirSync(runtime)
    .filter((n) => n.startsWith(prefix) && n.endsWith('.json'))
    .flatMap((n) => {
      try {
        const value: unknown = JSON.parse(readFileSync(join(runtime, n), 'utf8'));
        return typeof value === 'object' && value !== null && 'browser' in value && typeof value.browser === 'string'
          ? [value.browser]
          : [];
      } catch {
        return []; // being written
      }
    })
    .sort();
}

// Registered after the afterAll above, so it runs first: no client's `tether mcp` outlives the runtime folder's check.
const connect = tetherMcpClients(runtime);
/** An MCP client on the SDK that spawns `tether mcp --browser NAME`, as an agent configured for that browser would. */
const mcpClient = (browser: string, name: string) => connect(name, { args: ['--browser', browser] });

/** The numbers `/stream N` writes, as the panel shows them. */
const numbers = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
const streamed = (text: string | undefined): number[] => (text ?? '').trim().split(/\s+/).map(Number);

/** The approval cards a Firefox panel shows now. */
const firefoxCards = (panel: FirefoxPage): Promise<number> => panel.$$eval('.approval', (els) => els.length);

describe('Chromium and Firefox ESR attached to one daemon', () => {
  let chromePanel: ChromiumPage;
  let firefoxPanel: FirefoxPage;

  it('serves both browsers from one daemon, each panel streaming its own conversation only', async () => {
    ({ panel: chromePanel } = await openConnectedPanel(chromium!, demo!.url('/')));
    firefoxPanel = await connectedPanel(firefox!, demo!.url('/other'));
    // Both hosts relayed to the one daemon of the shared folder: a connection of its own for each browser.
    const pid = daemonPidIn(runtime);
    expect(pid).toBeDefined();
    expect(tetherDaemons()).toContain(pid);
    await expect.poll(() => announcedBrowsers(), { timeout: 15_000 }).toHaveLength(2);
    expect(announcedBrowsers(`host-${pid}-`)).toEqual(announcedBrowsers());
    const [chromiumName, firefoxName] = [
      announcedBrowsers().find((b) => /chrom/i.test(b)),
      announcedBrowsers().find((b) => /firefox/i.test(b)),
    ];
    expect(chromiumName, `announced: ${announcedBrowsers().join(', ')}`).toBeDefined();
    expect(firefoxName, `announced: ${announcedBrowsers().join(', ')}`).toBeDefined();

    // Both stream at once, of different lengths: an event of one thread shown in the other panel would show.
    await sendPrompt(chromePanel, '/stream 300 10');
    await sendFirefoxPrompt(firefoxPanel, '/stream 120 10');
    await completedAnswers(chromePanel).first().waitFor({ timeout: 90_000 });
    expect(streamed(await answer(firefoxPanel, 1))).toEqual(numbers(120));
    expect(await agentTexts(chromePanel)).toHaveLength(1);
    expect(streamed((await agentTexts(chromePanel))[0])).toEqual(numbers(300));
    expect(await firefoxPanel.$$eval('.transcript .item.agentMessage', (els) => els.length)).toBe(1);
    expect(
      await firefoxPanel.$$eval('.transcript .item.userMessage .body', (els) => els.map((e) => e.textContent)),
    ).toEqual(['/stream 120 10']);
    expect(await chromePanel.locator('.transcript .item.userMessage .body').allTextContents()).toEqual([
      '/stream 300 10',
    ]);

    const chromeThread = await chromePanel.locator('.transcript').getAttribute('data-thread-id');
    const firefoxThread = await firefoxPanel.$eval('.transcript', (el) => el.getAttribute('data-thread-id'));
    expect(chromeThread).toBeTruthy();
    expect(firefoxThread).toBeTruthy();
    expect(firefoxThread).not.toBe(chromeThread);
    // History lists the user's threads from the one store the daemon keeps: both, in either browser.
    await chromePanel.locator('button[data-action="history"]').click();
    for (const id of [chromeThread, firefoxThread])
      await chromePanel.locator(`.history li[data-thread-id="${id}"]`).waitFor({ timeout: 15_000 });
    await chromePanel.locator('button[data-action="history"]').click();
    await firefoxPanel.click('button[data-action="history"]');
    for (const id of [chromeThread, firefoxThread])
      await firefoxPanel.waitForSelector(`.history li[data-thread-id="${id}"]`, { timeout: 15_000 });
    await firefoxPanel.click('button[data-action="history"]');
    expect(daemonPidIn(runtime)).toBe(pid);
  });

  it("lets an MCP client use a tab shared in Chromium, then one shared in Firefox, asking in that browser's panel", async () => {
    const [chromiumName, firefoxName] = [
      announcedBrowsers().find((b) => /chrom/i.test(b))!,
      announcedBrowsers().find((b) => /firefox/i.test(b))!,
    ];
    await shareTab(chromePanel);
    const toChromium = await mcpClient(chromiumName, 'agent-in-chromium');
    const reading = toChromium.callTool({ name: 'page_read', arguments: {} });
    const card = chromePanel.locator('.approval[data-tool="page_read"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.caller').textContent()).toBe('agent-in-chromium 1.0.0');
    // Firefox's panel is not asked for Chromium's tab.
    expect(await firefoxCards(firefoxPanel)).toBe(0);
    await card.locator('button[data-choice="allow"]').click();
    const fromChromium = await reading;
    expect(fromChromium.isError).toBeFalsy();
    expect(toolText(fromChromium)).toContain('North Sea');

    await shareTab(firefoxPanel);
    const toFirefox = await mcpClient(firefoxName, 'agent-in-firefox');
    const asking = toFirefox.callTool({ name: 'page_read', arguments: {} });
    const allow = '.approval[data-tool="page_read"] button[data-choice="allow"]';
    await firefoxPanel.waitForSelector(allow, { timeout: 30_000 });
    expect(await firefoxPanel.$eval('.approval[data-tool="page_read"] .caller', (el) => el.textContent)).toBe(
      'agent-in-firefox 1.0.0',
    );
    expect(await chromePanel.locator('.approval').count()).toBe(0);
    await firefoxPanel.click(allow);
    const fromFirefox = await asking;
    expect(fromFirefox.isError).toBeFalsy();
    expect(toolText(fromFirefox)).toContain('lighthouses');
    expect(toolText(fromFirefox)).not.toContain('North Sea');
  });

  it('follows a thread Chromium is streaming once Firefox opens it from History: the rest live, every number once', async () => {
    const chromeThread = await chromePanel.locator('.transcript').getAttribute('data-thread-id');
    await sendPrompt(chromePanel, '/stream 800 20');
    const live = chromePanel.locator('.transcript .item.agentMessage .body').nth(1);
    await expect.poll(async () => (await live.textContent())?.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(20);
    await firefoxPanel.click('button[data-action="history"]');
    const open = `.history li[data-thread-id="${chromeThread}"] button.link`;
    await firefoxPanel.waitForSelector(open, { timeout: 15_000 });
    await firefoxPanel.click(open);
    // Firefox shows the answer still being written (it subscribed mid-stream) ...
    await waitInPage(
      firefoxPanel,
      (id) =>
        document.querySelector('.transcript')?.getAttribute('data-thread-id') === id &&
        document.querySelectorAll('.transcript .item.agentMessage:not(.completed)').length === 1,
      { arg: chromeThread },
    );
    // ... and the rest reaches it live through its own connection, as it reaches Chromium.
    await waitInPage(
      firefoxPanel,
      () => document.querySelectorAll('.transcript .item.agentMessage.completed').length === 2,
      { timeout: 90_000 },
    );
    expect(streamed(await answer(firefoxPanel, 2))).toEqual(numbers(800));
    await completedAnswers(chromePanel).nth(1).waitFor({ timeout: 60_000 });
    expect(streamed((await agentTexts(chromePanel))[1])).toEqual(numbers(800));
  });
});
