/**
 * Launching Debian's Firefox ESR with the built Firefox extension for end-to-end tests: a private HOME (so
 * `~/.mozilla/native-messaging-hosts` is ours), the host registered there with the real `tether install --browser
 * firefox`, a fresh profile, puppeteer-core over WebDriver BiDi, and the add-on installed as a temporary add-on.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import devKey from '../../manifests/dev-key.json' with { type: 'json' };
import { REPO_ROOT } from '../support/browser';
import { stopDaemonIn } from '../support/daemons';
import { newestTabId } from '../support/extension-pages';
import { errorMessage } from '@tether/protocol';

const run = promisify(execFile);

/** Where Debian puts Firefox ESR (`apt-get install firefox-esr`). */
export const FIREFOX_PATH = process.env.TETHER_FIREFOX ?? '/usr/bin/firefox-esr';
/** The Firefox build of the extension. */
export const FIREFOX_DIST = join(REPO_ROOT, 'extension/dist/firefox');
/** The add-on id fixed by the manifest's browser_specific_settings.gecko.id. */
export const ADDON_ID: string = devKey.firefoxAddonId;
/** The moz-extension:// host is a per-profile random UUID; a preference fixes it so tests know the pages' URLs. */
const ADDON_UUID = '7e7be7e7-0000-4000-8000-7e7be7e7e7e7';
/** Origin of the extension's pages in the test profile. */
export const EXTENSION_BASE = `moz-extension://${ADDON_UUID}/`;

/** The raw WebDriver BiDi connection puppeteer's Firefox browser carries (not in its public types). */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

/** A running Firefox with the add-on installed. */
export interface LaunchedFirefox {
  readonly browser: Browser;
  /** Private HOME; also holds the XDG config/data/state dirs the host uses. */
  readonly homeDir: string;
  /** The host manifest `tether install` wrote for Firefox. */
  readonly hostManifest: string;
  /** What `tether install --browser firefox` printed ('' when not registered). */
  readonly installOutput: string;
  /** The id Firefox reported for the installed add-on. */
  readonly installedId: string;
  /** The warnings Firefox's manifest parser recorded for the add-on (as about:debugging shows them). */
  manifestWarnings(): Promise<string[]>;
  /** What the host logged, then its daemon (`$XDG_STATE_HOME/tether/host.log` and `daemon.log`); empty when none yet. */
  hostLog(): Promise<string>;
  /** Running processes whose command line names this profile's host manifest (the hosts Firefox started). */
  hostProcesses(): Promise<Array<{ pid: string; argv: string[] }>>;
  /** Opens `moz-extension://<uuid>/<path>` in a new tab once its document has loaded. */
  openExtensionPage(path: string): Promise<Page>;
  /** Opens a web page in a new tab; returns it with its WebExtension tab id. */
  openWebPage(url: string): Promise<{ page: Page; tabId: number }>;
  close(): Promise<void>;
}

/** True when Firefox ESR is installed. */
export function hasFirefox(): boolean {
  return existsSync(FIREFOX_PATH);
}

/** Options of launchFirefox. */
export interface FirefoxOptions {
  /** Skip `tether install` (to see what Firefox says when the host is missing). */
  readonly registerHost?: boolean;
  /** The unpacked add-on to install (default: the development build, FIREFOX_DIST). */
  readonly dist?: string;
  /** Its add-on id (default: the development id, ADDON_ID). */
  readonly addonId?: string;
  /** What `tether install --browser firefox` is told about the add-on (default: `--dev`). */
  readonly installArgs?: readonly string[];
  /** Extra environment for Firefox and so for the host it starts (e.g. a runtime folder shared with another browser). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Launches Firefox ESR with the Firefox build installed and (unless told not to) the host registered in a private HOME. */
export async function launchFirefox(options: FirefoxOptions = {}): Promise<LaunchedFirefox> {
  if (!hasFirefox()) {
    throw new Error(
      `Firefox ESR not found at ${FIREFOX_PATH}: apt-get install -y firefox-esr (.ci/run does it), or set TETHER_FIREFOX`,
    );
  }
  const dist = options.dist ?? FIREFOX_DIST;
  const addonId = options.addonId ?? ADDON_ID;
  if (!existsSync(join(dist, 'manifest.json')))
    throw new Error('Build the extension first: npm run build -w extension');
  const homeDir = await mkdtemp(join(tmpdir(), 'tether-firefox-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: homeDir,
    XDG_CONFIG_HOME: join(homeDir, 'config'),
    XDG_DATA_HOME: join(homeDir, 'data'),
    XDG_STATE_HOME: join(homeDir, 'state'),
    XDG_CACHE_HOME: join(homeDir, 'cache'),
    // A runtime folder of its own: this browser's daemon is nobody else's, and close stops it.
    TETHER_RUNTIME_DIR: join(homeDir, 'run'),
    ...options.env,
  };
  delete env.TETHER_CONFIG;
  // The daemon of the runtime folder made here goes with the browser; one the caller gave is the caller's to stop.
  const stopOwnDaemon = () =>
    options.env?.['TETHER_RUNTIME_DIR'] ? Promise.resolve() : stopDaemonIn(join(homeDir, 'run'));
  const hostManifest = join(homeDir, '.mozilla/native-messaging-hosts/dev.tether.bridge.json');
  let installOutput = '';
  if (options.registerHost !== false) {
    const install = await run(
      process.execPath,
      [
        join(REPO_ROOT, 'native-host/bin/tether.mjs'),
        'install',
        ...(options.installArgs ?? ['--dev']),
        '--browser',
        'firefox',
      ],
      {
        env,
        cwd: REPO_ROOT,
        timeout: 120_000,
      },
    );
    installOutput = install.stdout;
    if (!existsSync(hostManifest))
      throw new Error(`tether install did not write ${hostManifest}:\n${install.stdout}\n${install.stderr}`);
  }

  const profileDir = join(homeDir, 'profile');
  await mkdir(profileDir);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profileDir,
    env,
    // Without it Firefox's BiDi refuses every navigation to moz-extension:// ("not allowed in this context"), so
    // the side panel, popup and options pages could not be driven at all (nor about:debugging, where the add-on's
    // manifest warnings are read).
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [addonId]: ADDON_UUID }) },
  });
  const connection = (browser as unknown as { connection: BidiConnection }).connection;
  try {
    const installedId = await browser.installExtension(dist).catch((error: unknown) => {
      throw new Error(`Firefox refused to install ${dist} as a temporary add-on: ${errorMessage(error)}`, {
        cause: error,
      });
    });
    return {
      browser,
      homeDir,
      hostManifest,
      installOutput,
      installedId,
      manifestWarnings: () => manifestWarnings(browser, connection, addonId),
      hostLog: async () => {
        const read = (name: string) => readFile(join(homeDir, 'state/tether', name), 'utf8').catch(() => '');
        return (await read('host.log')) + (await read('daemon.log'));
      },
      hostProcesses: () => processesNaming(hostManifest),
      openExtensionPage: (path) => openExtensionPage(browser, connection, path),
      openWebPage: async (url) => {
        const page = await browser.newPage();
        await page.goto(url);
        return { page, tabId: await tabIdOf(browser, connection, url) };
      },
      close: async () => {
        await browser.close();
        await stopOwnDaemon();
        await rm(homeDir, { recursive: true, force: true }).catch(() => {});
      },
    };
  } catch (error) {
    await browser.close();
    await stopOwnDaemon();
    await rm(homeDir, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}

/**
 * The warnings Firefox's manifest parser gave the add-on `addonId`, as about:debugging shows them on its card (each
 * "Reading manifest: Warning processing ..." line); every Firefox since 60 shows them there.
 */
async function manifestWarnings(browser: Browser, connection: BidiConnection, addonId: string): Promise<string[]> {
  const page = await browser.newPage();
  try {
    const context = (page.mainFrame() as unknown as { _id: string })._id;
    await connection.send('browsingContext.navigate', {
      context,
      url: 'about:debugging#/runtime/this-firefox',
      wait: 'none',
    });
    return await waitInPage(
      page,
      (id) => {
        const card = Array.from(document.querySelectorAll('li.qa-debug-target-item')).find((li) =>
          Array.from(li.querySelectorAll('dd')).some((dd) => dd.textContent?.trim() === id),
        );
        if (!card) return undefined;
        const messages = card.querySelectorAll(
          '.message--level-warning .technical-text, .message--level-error .technical-text',
        );
        return Array.from(messages).map((p) => p.textContent?.trim() ?? '');
      },
      { arg: addonId },
    );
  } finally {
    await page.close();
  }
}

async function openExtensionPage(browser: Browser, connection: BidiConnection, path: string): Promise<Page> {
  const page = await browser.newPage();
  const context = (page.mainFrame() as unknown as { _id: string })._id;
  // Firefox's BiDi never reports the load of a page that moves into the extension process (puppeteer's goto
  // times out), so navigate without waiting and watch the document instead.
  await connection.send('browsingContext.navigate', { context, url: `${EXTENSION_BASE}${path}`, wait: 'none' });
  await waitInPage(page, (base) => location.href.startsWith(base) && document.readyState === 'complete', {
    arg: EXTENSION_BASE,
  });
  return page;
}

/**
 * Waits until `check(arg)` returns something truthy in `page` and resolves with it, polling through evaluate:
 * puppeteer's waitForFunction builds its predicate with Function() inside the page, which the extension pages' CSP
 * refuses in Firefox ESR 140 ("call to Function() blocked by CSP").
 */
export async function waitInPage<T, A = undefined>(
  page: Page,
  check: (arg: A) => T | Promise<T>,
  options: { readonly arg?: A; readonly timeout?: number; readonly interval?: number } = {},
): Promise<NonNullable<T>> {
  const { timeout = 30_000, interval = 100 } = options;
  const deadline = Date.now() + timeout;
  let failure: unknown;
  for (;;) {
    try {
      // Puppeteer types a page function's argument as what a handle flattens to; a plain value passes unchanged.
      const value = await page.evaluate(check as (arg: unknown) => unknown, options.arg);
      if (value) return value as NonNullable<T>;
    } catch (error) {
      failure = error; // the document is being replaced: try again in the next one
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting in ${page.url()} for ${check.toString()}`, {
        cause: failure,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** The tab id of the newest tab showing `url`, asked through an extension page. */
async function tabIdOf(browser: Browser, connection: BidiConnection, url: string): Promise<number> {
  return newestTabId(await openExtensionPage(browser, connection, 'src/options/index.html'), { url, api: 'browser' });
}

async function processesNaming(needle: string): Promise<Array<{ pid: string; argv: string[] }>> {
  const found: Array<{ pid: string; argv: string[] }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').filter((a) => a !== '');
      if (argv.includes(needle)) found.push({ pid: entry, argv });
    } catch {
      // The process ended or is not ours to read.
    }
  }
  return found;
}
