/**
 * Launching Debian Chromium with the built extension for end-to-end tests: a fresh user-data-dir, the native host
 * registered for that profile with the real `tether install --browser chromium --user-data-dir`, and a private
 * config/data/state directory for the host (it inherits the browser's environment).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { stopDaemonIn } from './daemons';

const run = promisify(execFile);

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The Chrome build of the extension; TETHER_EXTENSION_DIST names another (a benchmark compares two builds). */
export const EXTENSION_DIST = process.env.TETHER_EXTENSION_DIST ?? join(REPO_ROOT, 'extension/dist/chrome');
/** The development extension id fixed by manifests/dev-key.json. */
export const EXTENSION_ID = 'gkplngjhinednckbmppipofijkaplcpm';
/** The browser starts the host with the calling origin as its argument (the daemon's command line has none). */
export const HOST_ARG = `chrome-extension://${EXTENSION_ID}/`;
/** Where Debian puts Chromium. */
export const CHROMIUM_PATH = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots and other test outputs. */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test/artifacts');

/** Options of launchBrowser. */
export interface LaunchOptions {
  /** Extra environment for the browser (and so for the host it starts). */
  readonly env?: Readonly<Record<string, string>>;
  /** Host config file contents (written to a temp file and named by TETHER_CONFIG). */
  readonly hostConfig?: unknown;
  /** Skip registering the native host (to test "host not found"). */
  readonly registerHost?: boolean;
  /** Run without --headless=new (needs a display). */
  readonly headed?: boolean;
  /** Keep the profile directory after close (npm start). */
  readonly userDataDir?: string;
  /**
   * The host's config, data and state root of an earlier launch, kept after close: a browser started again with the
   * same profile (`userDataDir`) and this finds its threads where it left them.
   */
  readonly homeDir?: string;
}

/** A running Chromium with the extension loaded. */
export interface LaunchedBrowser {
  readonly context: BrowserContext;
  readonly userDataDir: string;
  /** Private root for the host's config, data and state. */
  readonly homeDir: string;
  readonly extensionId: string;
  /** A marker in the environment of every process the browser starts (to find the host's processes). */
  readonly tag: string;
  /** The extension's service worker (waits for it to start). */
  serviceWorker(): Promise<Worker>;
  /** Opens `chrome-extension://ID/<path>` in a new tab. */
  openExtensionPage(path: string): Promise<Page>;
  /** Stops the extension's service worker through CDP (ServiceWorker.stopAllWorkers). */
  stopServiceWorkers(): Promise<void>;
  /** Pids of processes started by this browser whose command line contains `needle` (e.g. the host). */
  findProcesses(needle: string): Promise<number[]>;
  /** SIGKILLs the browser process (a crash, or the power going off): nothing of it closes cleanly. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** True when Debian Chromium is installed. */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Throws, saying what to do, when Chromium or the built extension is missing. */
export function requireChromiumAndExtension(): void {
  if (!hasChromium()) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  if (!existsSync(join(EXTENSION_DIST, 'manifest.json'))) throw new Error('Build the extension first: npm run build');
}

/** Chromium switches that load the built extension and keep a test browser quiet; headless unless `headed`. */
export function chromiumArgs(headed = false): string[] {
  const args = [
    `--disable-extensions-except=${EXTENSION_DIST}`,
    `--load-extension=${EXTENSION_DIST}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  return headed ? args : ['--headless=new', ...args];
}

/** Registers the native host for a profile with the real installer, for the development build (`--dev`). */
export async function registerHost(userDataDir: string, env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  const { stdout, stderr } = await run(
    process.execPath,
    [
      join(REPO_ROOT, 'native-host/bin/tether.mjs'),
      'install',
      '--dev',
      '--browser',
      'chromium',
      '--user-data-dir',
      userDataDir,
    ],
    { env, cwd: REPO_ROOT, timeout: timeoutMs },
  );
  const manifest = join(userDataDir, 'NativeMessagingHosts', 'dev.tether.bridge.json');
  if (!existsSync(manifest)) throw new Error(`tether install did not write ${manifest}:\n${stdout}\n${stderr}`);
  return stdout;
}

/**
 * A host config whose default backend `child` is the reference app-server run as a child process of the host
 * (`tether app-server --listen stdio ARGS` from the built bundle).
 */
export function childAppServerConfig(description: string, args: readonly string[] = []): unknown {
  const argv = [process.execPath, join(REPO_ROOT, 'native-host/dist/tether.mjs'), 'app-server', '--listen', 'stdio'];
  return {
    defaultBackend: 'child',
    backends: { child: { kind: 'command', argv: [...argv, ...args], dialect: 'tether', description } },
  };
}

/** Launches Chromium with the built extension and a private host environment. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  requireChromiumAndExtension();
  const homeDir = options.homeDir ?? (await mkdtemp(join(tmpdir(), 'tether-e2e-')));
  const userDataDir = options.userDataDir ?? join(homeDir, 'profile');
  await mkdir(userDataDir, { recursive: true });
  const tag = `tether-e2e-${process.pid}-${Date.now()}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    XDG_CONFIG_HOME: join(homeDir, 'config'),
    XDG_DATA_HOME: join(homeDir, 'data'),
    XDG_STATE_HOME: join(homeDir, 'state'),
    // A runtime folder of its own: with the relay on, this browser's daemon is nobody else's, and close stops it.
    TETHER_RUNTIME_DIR: join(homeDir, 'run'),
    TETHER_E2E_TAG: tag,
    ...options.env,
  };
  if (options.hostConfig !== undefined) {
    const file = join(homeDir, 'tether-config.json');
    await writeFile(file, JSON.stringify(options.hostConfig, null, 2));
    env.TETHER_CONFIG = file;
  }
  if (options.registerHost !== false) await registerHost(userDataDir, env);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: false,
    args: chromiumArgs(options.headed),
    env,
    // A person's window sizes its own pages; headless runs get a fixed viewport so screenshots are comparable.
    viewport: options.headed ? null : { width: 1200, height: 800 },
  });
  const serviceWorker = async (): Promise<Worker> => {
    const found = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${EXTENSION_ID}/`));
    return (
      found ??
      context.waitForEvent('serviceworker', {
        predicate: (w) => w.url().startsWith(`chrome-extension://${EXTENSION_ID}/`),
        timeout: 30_000,
      })
    );
  };
  return {
    context,
    userDataDir,
    homeDir,
    extensionId: EXTENSION_ID,
    tag,
    serviceWorker,
    openExtensionPage: async (path) => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${EXTENSION_ID}/${path}`);
      return page;
    },
    stopServiceWorkers: async () => {
      const page = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await cdp.detach();
    },
    findProcesses: (needle) => findTaggedProcesses(tag, needle),
    kill: async () => {
      // The browser process is the one of the profile that is none of its helpers (renderer, GPU, zygote: --type=).
      const all = await findTaggedProcesses(tag, `--user-data-dir=${userDataDir}`);
      const cmdlines = await Promise.all(all.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
      const main = all.filter((_, i) => !cmdlines[i]!.includes('--type='));
      if (main.length === 0) throw new Error(`no browser process runs with the profile ${userDataDir}`);
      for (const pid of main) process.kill(pid, 'SIGKILL');
      await context.close().catch(() => undefined);
    },
    close: async () => {
      await context.close();
      // The daemon of the runtime folder made here goes with the browser; one the caller gave (a test whose daemon
      // outlives a browser closed and started again) is the caller's to stop.
      if (!options.env?.['TETHER_RUNTIME_DIR']) await stopDaemonIn(join(homeDir, 'run'));
      if (!options.userDataDir && !options.homeDir) await rm(homeDir, { recursive: true, force: true }).catch(() => {});
    },
  };
}

/** Pids whose environment carries `TETHER_E2E_TAG=tag` and whose command line contains `needle`. */
async function findTaggedProcesses(tag: string, needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, 'utf8');
      if (!environ.split('\0').includes(`TETHER_E2E_TAG=${tag}`)) continue;
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ');
      if (cmdline.includes(needle)) pids.push(Number(entry));
    } catch {
      // The process ended or is not ours to read.
    }
  }
  return pids;
}

/** Saves a screenshot of `page` into test/artifacts/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
