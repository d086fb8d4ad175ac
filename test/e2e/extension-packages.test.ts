/**
 * The Chrome Web Store package, as a user of the store build gets it: `npm run package`'s zip unpacked and loaded in
 * Chromium (no development `key`, so Chromium picks the id), the host installed for that id with `tether install
 * --extension-id ID` alone, and the extension reaching the host. Also: a host older than this store build is named as
 * such, with the package command that fixes it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumArgs, REPO_ROOT, requireChromiumAndExtension } from '../support/browser';
import { buildExtensionPackages, releaseVersion, unpackedExtensionId, unzipTo } from '../support/packages';
import { stopDaemonIn } from '../support/daemons';

const run = promisify(execFile);

let tmp: string;
let unpacked: string;
let extensionId: string;

beforeAll(async () => {
  requireChromiumAndExtension();
  tmp = await mkdtemp(join(tmpdir(), 'tether-packages-'));
  const { chrome } = await buildExtensionPackages(join(tmp, 'out'));
  unpacked = join(tmp, 'tether-chrome');
  await unzipTo(chrome, unpacked);
  extensionId = await unpackedExtensionId(unpacked);
}, 180_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Installs the host for the store build's id in a fresh profile, then launches Chromium with the unpacked zip. */
async function launchStoreBuild(name: string, extraEnv: Record<string, string> = {}): Promise<BrowserContext> {
  const home = join(tmp, name);
  const profile = join(home, 'profile');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    // A runtime folder of its own: the daemon its host starts is this launch's alone (the older-host launch must not
    // reach the daemon an earlier launch started), and closeStoreBuild stops it.
    TETHER_RUNTIME_DIR: join(home, 'run'),
    ...extraEnv,
  };
  delete env.TETHER_CONFIG;
  const cli = join(REPO_ROOT, 'native-host/bin/tether.mjs');
  const args = ['install', '--browser', 'chromium', '--user-data-dir', profile, '--extension-id', extensionId];
  await run(process.execPath, [cli, ...args], { env, cwd: REPO_ROOT, timeout: 120_000 });
  const loadArgs = chromiumArgs().map((arg) =>
    arg.startsWith('--load-extension=') || arg.startsWith('--disable-extensions-except=')
      ? `${arg.slice(0, arg.indexOf('=') + 1)}${unpacked}`
      : arg,
  );
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: false,
    args: loadArgs,
    env,
    viewport: { width: 1200, height: 800 },
  });
}

/** Closes a browser launchStoreBuild(name) started, then stops the daemon its host started. */
async function closeStoreBuild(context: BrowserContext, name: string): Promise<void> {
  await context.close();
  await stopDaemonIn(join(tmp, name, 'run'));
}

describe('the Chrome Web Store package', () => {
  it('has no development key, and loads unpacked under the id Chromium derives from its folder', async () => {
    const manifest = JSON.parse(await readFile(join(unpacked, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.key).toBeUndefined();
    expect(manifest.version).toBe(await releaseVersion());
  });

  it('reaches the host installed with --extension-id alone', async () => {
    const context = await launchStoreBuild('connects');
    try {
      const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
      expect(new URL(worker.url()).host).toBe(extensionId);
      const options = await context.newPage();
      await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
      await options.locator('.banner[data-status="connected"]').waitFor({ timeout: 30_000 });
    } finally {
      await closeStoreBuild(context, 'connects');
    }
  });

  it('names an older host and the package command that updates it', async () => {
    const context = await launchStoreBuild('older-host', { TETHER_TEST_PROTOCOL_VERSION: '2020-01-01' });
    try {
      const options = await context.newPage();
      await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
      const banner = options.locator('.banner[data-status="disconnected"]');
      await expect.poll(() => banner.textContent(), { timeout: 30_000 }).toContain('is older than this extension');
      expect(await banner.locator('code.command').textContent()).toBe(
        `npx tether-bridge@${await releaseVersion()} install`,
      );
    } finally {
      await closeStoreBuild(context, 'older-host');
    }
  });
});
