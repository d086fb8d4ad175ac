/**
 * The Firefox build, for real: Debian's Firefox ESR under puppeteer-core (WebDriver BiDi), the host registered with
 * `tether install --browser firefox` in a private HOME, the add-on installed as a temporary add-on. Evidence comes
 * from what a user would see (pages, the sidebar) and from outside the browser (the host's log, the process table).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { startFixtureSite } from '../support/fixture-site';
import { ADDON_ID, FIREFOX_DIST, type LaunchedFirefox, waitInPage } from './firefox-browser';
import {
  CONNECTED,
  sendPrompt,
  answer,
  toolRunner,
  saveScreenshot,
  transcriptLines,
  connectedPanel,
  sidebarText,
  useFirefox,
} from './firefox-panel';

/** The manifest keys this file checks. */
interface FirefoxManifest {
  manifest_version: number;
  permissions?: string[];
  background?: { scripts?: string[]; service_worker?: string };
  sidebar_action?: { default_panel?: string };
  browser_specific_settings?: { gecko?: { id?: string } };
  side_panel?: unknown;
  key?: unknown;
  action?: { default_popup?: string };
  commands?: Record<string, { suggested_key?: { default?: string } }>;
}

describe('the Firefox build', () => {
  it('builds a Firefox manifest with sidebar_action, background scripts and the gecko id', async () => {
    const manifest = JSON.parse(await readFile(join(FIREFOX_DIST, 'manifest.json'), 'utf8')) as FirefoxManifest;
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.sidebar_action?.default_panel).toBe('src/sidepanel/index.html');
    const scripts = manifest.background?.scripts ?? [];
    expect(scripts).toHaveLength(1);
    expect(existsSync(join(FIREFOX_DIST, scripts[0]!))).toBe(true);
    expect(manifest.background?.service_worker).toBeUndefined();
    expect(manifest.browser_specific_settings?.gecko?.id).toBe(ADDON_ID);
    // Chrome-only keys Firefox would warn about.
    expect(manifest.side_panel).toBeUndefined();
    expect(manifest.key).toBeUndefined();
    expect(manifest.permissions).toContain('nativeMessaging');
    expect(manifest.permissions).not.toContain('sidePanel');
    // The button toggles the sidebar (the worker's action.onClicked), and Alt+Shift+K opens or closes it.
    expect(manifest.action?.default_popup).toBeUndefined();
    expect(manifest.commands?._execute_sidebar_action?.suggested_key?.default).toBe('Alt+Shift+K');
  });
});

describe('the extension in Firefox ESR', () => {
  const launched = useFirefox();
  let firefox: LaunchedFirefox;
  let demo: DemoServer;

  beforeAll(async () => {
    firefox = launched();
    demo = await startDemoServer();
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('installs the add-on with no manifest warnings; its background script starts the host and completes bridge/hello and initialize', async () => {
    expect(firefox.installedId).toBe(ADDON_ID);
    expect(firefox.installOutput).toContain(firefox.hostManifest);
    const hostManifest = JSON.parse(await readFile(firefox.hostManifest, 'utf8')) as {
      name: string;
      type: string;
      allowed_extensions: string[];
    };
    expect(hostManifest).toMatchObject({ name: 'dev.tether.bridge', type: 'stdio' });
    expect(hostManifest.allowed_extensions).toContain(ADDON_ID);

    // The host logs who started it (Firefox passes the manifest path and the add-on id), the extension's hello and
    // the embedded app-server's initialize with the page tools the extension declared.
    await expect.poll(() => firefox.hostLog(), { timeout: 30_000 }).toMatch(/initialized with \d+ client tool/);
    const log = await firefox.hostLog();
    expect(log).toContain(`started by ${ADDON_ID} (${firefox.hostManifest})`);
    expect(log).toMatch(/bridge\/hello from tether-extension \d+\.\d+\.\d+/);
    expect(log).toMatch(/client \d+: tether-extension \S+ initialized with \d+ client tool\(s\)/);

    // The host is running with exactly Firefox's arguments (the manifest path and the add-on id) after the flag of
    // the development launcher that `tether install --dev` wrote.
    const hosts = await firefox.hostProcesses();
    expect(hosts).toHaveLength(1);
    expect(hosts[0]!.argv.slice(-4)).toEqual(['host', '--allow-dev-extension', firefox.hostManifest, ADDON_ID]);

    expect(await firefox.manifestWarnings()).toEqual([]);
  });

  it('streams an answer into the side panel page of a tab', async () => {
    const { tabId } = await firefox.openWebPage(demo.url('/'));
    const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
    await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
    await sendPrompt(panel, '/stream 300');
    const numbers = (await answer(panel, 1)).trim().split(/\s+/).map(Number);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await saveScreenshot(panel, 'firefox-side-panel-streamed');
  });

  it('asks before page_read, then reads the page through Firefox scripting', async () => {
    const panel = await connectedPanel(firefox, demo.url('/other'));
    await sendPrompt(panel, '/page');
    const card = await panel.waitForSelector('.approval[data-tool="page_read"]', { timeout: 30_000 });
    expect(await card!.$eval('.origin', (el) => el.textContent)).toBe(demo.origin);
    await panel.click('.approval[data-tool="page_read"] button[data-choice="allow"]');
    expect(await answer(panel, 1)).toContain('a short history of lighthouses');
  });

  it('fills and sends a form with the browser tools through Firefox scripting; the server receives the values', async () => {
    const site = await startFixtureSite();
    try {
      const panel = await connectedPanel(firefox, site.url('/form'));
      const tool = toolRunner(panel);
      const snapshot = await tool('page_snapshot', {}, 'allow');
      const ref = (role: string, name: string): string => {
        const line = snapshot.split('\n').find((l) => l.includes(`${role} ${JSON.stringify(name)}`));
        const found = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined;
        if (!found) throw new Error(`No ref for ${role} "${name}" in:\n${snapshot}`);
        return found;
      };
      const fields = [
        { ref: ref('textbox', 'Full name'), value: 'Mary Somerville' },
        { ref: ref('textbox', 'Email'), value: 'mary@example.org' },
      ];
      expect(await tool('page_fill_form', { fields }, 'allow_session')).toContain('Filled 2 fields');
      await tool('page_select', { ref: ref('combobox', 'Country'), values: ['France'] });
      await tool('page_check', { ref: ref('checkbox', 'I accept the terms'), checked: true });
      expect(await tool('page_click', { ref: ref('button', 'Submit application') })).toContain('Application received');
      const posted = await site.waitForSubmission('/submit');
      expect(posted.fields).toMatchObject({
        name: 'Mary Somerville',
        email: 'mary@example.org',
        country: 'fr',
        terms: 'yes',
      });
      await panel.close();
    } finally {
      await site.close();
    }
  });

  it("offers no site rule for the backend's bash approval, only allow once, allow for this thread and deny", async () => {
    const panel = await connectedPanel(firefox, demo.url('/'));
    await sendPrompt(panel, '/bash echo firefox-bash');
    const card = await panel.waitForSelector('.approval[data-tool="bash"]', { timeout: 30_000 });
    const choices = await card!.$$eval('button[data-choice]', (els) =>
      els.map((e) => [e.getAttribute('data-choice'), e.textContent]),
    );
    expect(Object.fromEntries(choices)).toEqual({
      allow: 'Allow once',
      allow_session: 'Allow this exact command for this thread',
      deny: 'Deny',
    });
    await panel.click('.approval[data-tool="bash"] button[data-choice="deny"]');
    expect(await answer(panel, 1)).toContain('You declined to run echo firefox-bash');
    await panel.close();
  });

  it('refuses, by its page policy, a remote image added to the side panel past the markdown renderer', async () => {
    const beacon = await startDemoServer();
    try {
      const { tabId } = await firefox.openWebPage(demo.url('/'));
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
      const image = await panel.evaluate(async (url: string) => {
        const img = document.createElement('img');
        const done = new Promise<string>((resolve) => {
          img.onload = () => resolve('load');
          img.onerror = () => resolve('error');
        });
        img.src = url;
        document.body.append(img);
        return done;
      }, beacon.url('/direct.png'));
      expect(image).toBe('error');
      expect(beacon.requests).toEqual([]);
      await panel.close();
    } finally {
      await beacon.close();
    }
  });

  it("receives a 3,000,000-byte answer whole through Firefox's 1 MiB host-to-browser limit", async () => {
    const panel = await connectedPanel(firefox, demo.url('/other'));
    await sendPrompt(panel, '/big 3000000');
    expect((await answer(panel, 1)).length).toBe(3_000_000);
    await panel.close();
  });

  it("reconnects with a new host after the host is killed and shows the thread's full history", async () => {
    const panel = await connectedPanel(firefox, demo.url('/'));
    await sendPrompt(panel, 'hello before the crash');
    await answer(panel, 1);
    const before = await transcriptLines(panel);
    const [old] = await firefox.hostProcesses();
    const oldPid = Number(old!.pid);
    process.kill(oldPid, 'SIGKILL');

    // Firefox reports the closed port; the background script starts a new host, which resumes the thread from disk.
    await expect
      .poll(async () => (await firefox.hostProcesses()).map((p) => p.pid), { timeout: 30_000 })
      .toEqual([expect.not.stringMatching(`^${oldPid}$`)]);
    await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
    await expect.poll(() => transcriptLines(panel), { timeout: 15_000 }).toEqual(before);
    await sendPrompt(panel, 'hello after the crash');
    expect(await answer(panel, 2)).toContain('hello after the crash');
    await panel.close();
  });

  it('opens the real sidebar from the popup; the sidebar shows the thread of whichever tab is active', async () => {
    const first = await firefox.openWebPage(demo.url('/'));
    const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${first.tabId}`);
    await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
    await sendPrompt(panel, '/stream 7');
    expect((await answer(panel, 1)).trim()).toBe('1 2 3 4 5 6 7');

    const popup = await firefox.openExtensionPage(`src/popup/index.html?tab=${first.tabId}`);
    await popup.waitForSelector(CONNECTED, { timeout: 30_000 });
    // A real click (BiDi input) is the user gesture sidebarAction.open() needs.
    await popup.click('button[data-action="open-panel"]');
    await waitInPage(
      panel,
      () =>
        (
          globalThis as unknown as { browser: { sidebarAction: { isOpen(q: object): Promise<boolean> } } }
        ).browser.sidebarAction.isOpen({}),
      { timeout: 15_000 },
    );

    await first.page.bringToFront();
    await expect.poll(() => sidebarText(panel), { timeout: 15_000 }).toContain('1 2 3 4 5 6 7');

    const second = await firefox.openWebPage(demo.url('/other'));
    await second.page.bringToFront();
    const showsEmptyThread = async (): Promise<boolean> => {
      const text = (await sidebarText(panel)) ?? '';
      // The header names the page the active tab shows; that tab has no conversation yet.
      const page = 'Another page: a short history of lighthouses';
      return text.includes('Connected') && text.includes(page) && !text.includes('1 2 3 4 5 6 7');
    };
    await expect.poll(showsEmptyThread, { timeout: 15_000 }).toBe(true);
  });
});

describe('Firefox ESR without the host registered', () => {
  let firefox: LaunchedFirefox;
  const launched = useFirefox({ registerHost: false });
  beforeAll(() => {
    firefox = launched();
  });

  it("shows Firefox's reason and tells the user to run npx tether install --dev", async () => {
    const panel = await firefox.openExtensionPage('src/sidepanel/index.html');
    // Read the reason and the command from one banner in one step: the banner is redrawn as the worker retries.
    const { text, command } = await waitInPage(panel, () => {
      const banner = document.querySelector('.banner[data-status="disconnected"]');
      const command = banner?.querySelector('.command');
      return banner && command ? { text: banner.textContent ?? '', command: command.textContent } : undefined;
    });
    expect(text).toContain('No such native application dev.tether.bridge');
    expect(command).toBe('npx tether install --dev');
    await saveScreenshot(panel, 'firefox-side-panel-host-not-found');
  });
});
