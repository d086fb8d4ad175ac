/**
 * The AMO package, as a Firefox user gets it: `npm run package`'s zip unpacked and installed in Firefox ESR as a
 * temporary add-on under its release id, the host installed for that id with `tether install --extension-id ID`
 * alone (not --dev: the release id is not the public development one), and the add-on reaching the host.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtensionPackages, RELEASE_FIREFOX_ID, releaseVersion, unzipTo } from '../support/packages';
import { launchFirefox, type LaunchedFirefox } from './firefox-browser';

let tmp: string;
let unpacked: string;
let firefox: LaunchedFirefox | undefined;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tether-firefox-package-'));
  const { firefox: zip } = await buildExtensionPackages(join(tmp, 'out'));
  unpacked = join(tmp, 'tether-firefox');
  await unzipTo(zip, unpacked);
}, 180_000);

afterAll(async () => {
  await firefox?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the AMO package', () => {
  it('carries the release add-on id and the release version', async () => {
    const manifest = JSON.parse(await readFile(join(unpacked, 'manifest.json'), 'utf8')) as {
      version: string;
      browser_specific_settings: { gecko: { id: string } };
    };
    expect(manifest.browser_specific_settings.gecko.id).toBe(RELEASE_FIREFOX_ID);
    expect(manifest.version).toBe(await releaseVersion());
  });

  it('installs as a temporary add-on and reaches the host installed with --extension-id alone', async () => {
    firefox = await launchFirefox({
      dist: unpacked,
      addonId: RELEASE_FIREFOX_ID,
      installArgs: ['--extension-id', RELEASE_FIREFOX_ID],
    });
    expect(firefox.installedId).toBe(RELEASE_FIREFOX_ID);
    const options = await firefox.openExtensionPage('src/options/index.html');
    await options.waitForSelector('.banner[data-status="connected"]', { timeout: 30_000 });
    expect(await firefox.hostLog()).toContain(RELEASE_FIREFOX_ID);
  });
});
