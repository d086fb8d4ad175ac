/**
 * The Firefox build, for real: Debian's Firefox ESR under puppeteer-core (WebDriver BiDi), the host registered with
 * `tether install --browser firefox` in a private HOME, the add-on installed as a temporary add-on. Evidence comes
 * from what a user would see (pages, the sidebar) and from outside the browser (the host's log, the process table).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo-server';
import { FIXTURE_TOKEN } from '../support/devtools-pages';
import { startFixtureSite } from '../support/fixture-site';
import { ADDON_ID, FIREFOX_DIST, type FirefoxOptions, launchFirefox, type LaunchedFirefox } from './firefox-browser';

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

const CONNECTED = '.banner[data-status="connected"]';
const COMPLETED_ANSWER = '.transcript .item.agentMessage.completed';

/** Types a prompt into the side panel and presses Enter. */
async function sendPrompt(panel: Page, text: string): Promise<void> {
  await panel.type('textarea[name="prompt"]', text);
  await panel.keyboard.press('Enter');
}

/** Waits until the panel shows `count` completed answers and returns the text of the last one. */
async function answer(panel: Page, count: number): Promise<string> {
  await panel.waitForFunction(
    (sel: string, n: number) => document.querySelectorAll(sel).length >= n,
    { timeout: 30_000 },
    COMPLETED_ANSWER,
    count,
  );
  return panel.$$eval('.transcript .item.agentMessage .body', (els) => els.at(-1)?.textContent ?? '');
}

/** Saves a screenshot of `page` into test/artifacts/<name>.png. */
async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`) });
}

/** The transcript as text lines, one per item. */
async function transcriptLines(panel: Page): Promise<string[]> {
  return panel.$$eval('.transcript > [data-item-id]', (els) => els.map((e) => `${e.className}: ${e.textContent}`));
}

/** Opens `url` in a tab and that tab's side panel page, and waits until the panel is connected. */
async function connectedPanel(firefox: LaunchedFirefox, url: string): Promise<Page> {
  const { tabId } = await firefox.openWebPage(url);
  const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
  await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
  return panel;
}

/** Text of the Firefox sidebar's document (the real sidebar, read from another page of the same add-on). */
async function sidebarText(from: Page): Promise<string | undefined> {
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
function useFirefox(options: FirefoxOptions = {}): () => LaunchedFirefox {
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
    await panel.setViewport({ width: 420, height: 760 });
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
      let answers = 0;
      const tool = async (name: string, args: unknown, choice?: string): Promise<string> => {
        await sendPrompt(panel, `/tool ${name} ${JSON.stringify(args)}`);
        if (choice) {
          const button = `.approval[data-tool="${name}"] button[data-choice="${choice}"]`;
          await panel.waitForSelector(button, { timeout: 30_000 });
          await panel.click(button);
        }
        return answer(panel, ++answers);
      };
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

  it('carries a task across tabs: opens the linked form in a tab of the task, fills it from the brief, closes it', async () => {
    const site = await startFixtureSite();
    try {
      const { tabId: briefTab } = await firefox.openWebPage(site.url('/brief'));
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${briefTab}`);
      await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
      let answers = 0;
      const tool = async (name: string, args: unknown, choice?: string): Promise<string> => {
        await sendPrompt(panel, `/tool ${name} ${JSON.stringify(args)}`);
        if (choice) {
          const button = `.approval[data-tool="${name}"] button[data-choice="${choice}"]`;
          await panel.waitForSelector(button, { timeout: 30_000 });
          await panel.click(button);
        }
        return answer(panel, ++answers);
      };
      const brief = await tool('page_read', {}, 'allow_session');
      const formUrl = /application form at (\S+)/.exec(brief)?.[1];
      expect(formUrl).toBe(site.otherUrl('/form'));
      await sendPrompt(panel, `/tool tabs_open ${JSON.stringify({ url: formUrl, background: true })}`);
      const openCard = await panel.waitForSelector('.approval[data-tool="tabs_open"]', { timeout: 30_000 });
      expect(await openCard!.$eval('.origin', (el) => el.textContent)).toBe(site.otherOrigin);
      await panel.click('.approval[data-tool="tabs_open"] button[data-choice="allow"]');
      const formTab = Number(/Opened tab (\d+)/.exec(await answer(panel, ++answers))?.[1]);
      // Firefox 137+ groups tabs; either way the panel lists the task's tabs, the agent on the form.
      await panel.waitForSelector(`.task-tab[data-tab-id="${formTab}"][data-agent-here="true"]`, { timeout: 10_000 });
      const groups = await panel.evaluate(
        async (ids: number[]) => {
          type Tabs = { get(id: number): Promise<{ groupId?: number }>; group?: unknown };
          const tabs = (globalThis as unknown as { browser: { tabs: Tabs } }).browser.tabs;
          if (typeof tabs.group !== 'function') return 'no tab groups';
          return Promise.all(ids.map(async (id) => (await tabs.get(id)).groupId ?? -1));
        },
        [briefTab, formTab],
      );
      // Firefox ESR 153 has tabs.group (137+): the two tabs share a group there, untitled without tabGroups.
      expect(groups).not.toBe('no tab groups');
      if (groups !== 'no tab groups') {
        expect(groups[0]).not.toBe(-1);
        expect(groups[1]).toBe(groups[0]);
      }

      const form = await tool('page_snapshot', { tabId: formTab }, 'allow_session');
      const ref = (role: string, name: string): string => {
        const line = form.split('\n').find((l) => l.includes(`${role} ${JSON.stringify(name)}`));
        const found = line ? /\[ref=(e\d+)\]/.exec(line)?.[1] : undefined;
        if (!found) throw new Error(`No ref for ${role} "${name}" in:\n${form}`);
        return found;
      };
      const fact = (label: string) => new RegExp(`${label}: ([^\\n]+?)(?:\\n|$)`).exec(brief)?.[1]?.trim() ?? '';
      const fields = [
        { ref: ref('textbox', 'Full name'), value: fact('Name') },
        { ref: ref('textbox', 'Email'), value: fact('Email') },
      ];
      expect(await tool('page_fill_form', { fields, tabId: formTab }, 'allow_session')).toContain('Filled 2 fields');
      await tool('page_check', { ref: ref('checkbox', 'I accept the terms'), checked: true });
      await tool('page_click', { ref: ref('button', 'Submit application') });
      const posted = await site.waitForSubmission('/submit');
      expect(posted.origin).toBe(site.otherOrigin);
      expect(posted.fields).toMatchObject({ name: 'Katherine Johnson', email: 'katherine@example.org', terms: 'yes' });

      const { tabId: outside } = await firefox.openWebPage(site.url('/article'));
      expect(await tool('page_read', { tabId: outside })).toContain(`Tab ${outside} is not one of this task's tabs`);
      expect(await tool('tabs_close', { tabId: formTab })).toContain(`Closed tab ${formTab}.`);
      await panel.waitForFunction(() => document.querySelectorAll('.task-tabs li.task-tab').length === 1, {
        timeout: 10_000,
      });
      await panel.close();
    } finally {
      await site.close();
    }
  });

  it('reports the console and the failing requests of a page through the main-world hook and webRequest, the Authorization header masked', async () => {
    const site = await startFixtureSite();
    try {
      // The hook is registered as the background script starts: wait for it, so the page is hooked from its start.
      const probe = await firefox.openExtensionPage('src/options/index.html');
      await probe.waitForFunction(
        async () => {
          type Scripting = { getRegisteredContentScripts(): Promise<{ id: string; world?: string }[]> };
          const scripting = (globalThis as unknown as { browser: { scripting: Scripting } }).browser.scripting;
          return (await scripting.getRegisteredContentScripts()).some(
            (c) => c.id === 'tether-page-hooks' && c.world === 'MAIN',
          );
        },
        { timeout: 15_000, polling: 200 },
      );
      await probe.close();
      // A port that was free a moment ago and has no listener now: the request to it is refused.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      const dead = typeof address === 'object' && address ? address.port : 0;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const { page, tabId } = await firefox.openWebPage(site.url(`/console?dead=${dead}`));
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('requests over'), {
        timeout: 15_000,
      });
      const panel = await firefox.openExtensionPage(`src/sidepanel/index.html?tab=${tabId}`);
      await panel.waitForSelector(CONNECTED, { timeout: 30_000 });
      let answers = 0;
      const tool = async (name: string, args: unknown, choice?: string): Promise<string> => {
        await sendPrompt(panel, `/tool ${name} ${JSON.stringify(args)}`);
        if (choice) {
          const button = `.approval[data-tool="${name}"] button[data-choice="${choice}"]`;
          await panel.waitForSelector(button, { timeout: 30_000 });
          await panel.click(button);
        }
        return answer(panel, ++answers);
      };
      const consoleText = await tool('page_console', {}, 'allow_session');
      expect(consoleText).toContain('Recorded since the page loaded.');
      const lines = consoleText.split('\n').filter((l) => /^\[\d+\] (debug|log|info|warn|error) /.test(l));
      for (const [level, text] of [
        ['log', 'fixture log 42'],
        ['info', 'fixture info'],
        ['warn', 'fixture warning: low disk'],
        ['error', 'fixture error'],
        ['debug', 'fixture debug'],
        ['error', 'fixture rejection'],
        ['error', 'fixture uncaught'],
      ] as const) {
        const found = lines.filter((l) => l.includes(text));
        expect(found, `${text} in:\n${consoleText}`).toHaveLength(1);
        expect(found[0]).toMatch(new RegExp(`^\\[\\d+\\] ${level} `));
      }
      const failed = await tool('page_network', { failedOnly: true });
      const requests = failed.split('\n').filter((l) => /^r\d+ /.test(l));
      expect(requests, failed).toHaveLength(2);
      const missing = requests.find((l) => l.includes('/api/missing')) ?? '';
      expect(missing).toMatch(/^r\d+ GET 404 /);
      expect(requests.find((l) => l.includes(`127.0.0.1:${dead}/unreachable`))).toMatch(/ failed \(/);
      const detail = await tool('page_network', { bodyOf: /^(r\d+) /.exec(missing)?.[1] ?? '' });
      expect(detail).toMatch(/Authorization: Bearer \*\*\*/i);
      expect(detail).not.toContain(FIXTURE_TOKEN);
      await panel.close();
      await page.close();
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
    await panel.waitForFunction(
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
    const shown = await panel.waitForFunction(
      () => {
        const banner = document.querySelector('.banner[data-status="disconnected"]');
        const command = banner?.querySelector('.command');
        return banner && command ? { text: banner.textContent ?? '', command: command.textContent } : undefined;
      },
      { timeout: 30_000 },
    );
    const { text, command } = (await shown.jsonValue())!;
    expect(text).toContain('No such native application dev.tether.bridge');
    expect(command).toBe('npx tether install --dev');
    await saveScreenshot(panel, 'firefox-side-panel-host-not-found');
  });
});
