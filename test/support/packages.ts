/**
 * The release packages `npm run package` writes, for tests: built into a temporary folder by the real script, then
 * unzipped the way a store or a user would unpack them.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { REPO_ROOT } from './browser';

const run = promisify(execFile);

/** The Firefox add-on id of release builds (scripts/package.mjs RELEASE_FIREFOX_ID). */
export const RELEASE_FIREFOX_ID = 'tether-extension@tether.dev';

/** The release version (root package.json). */
export async function releaseVersion(): Promise<string> {
  return (JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs `scripts/package.mjs --out DIR --no-pack` on the current builds; resolves with the two zips' paths. */
export async function buildExtensionPackages(out: string): Promise<{ chrome: string; firefox: string }> {
  await run(process.execPath, [join(REPO_ROOT, 'scripts/package.mjs'), '--out', out, '--no-pack'], {
    cwd: REPO_ROOT,
    timeout: 120_000,
  });
  const version = await releaseVersion();
  return { chrome: join(out, `tether-chrome-${version}.zip`), firefox: join(out, `tether-firefox-${version}.zip`) };
}

/** Unzips `zip` into `dir`; resolves with the names of the entries. */
export async function unzipTo(zip: string, dir: string): Promise<string[]> {
  const entries = unzipSync(new Uint8Array(await readFile(zip)));
  for (const [name, data] of Object.entries(entries)) {
    if (name.endsWith('/')) continue;
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), data);
  }
  return Object.keys(entries);
}

/**
 * The id Chromium gives an extension loaded unpacked from `dir` without a `key` (what a store build is until the
 * store signs it): sha256 of the absolute path, its first 32 hex digits mapped 0-f to a-p.
 */
export async function unpackedExtensionId(dir: string): Promise<string> {
  const hex = createHash('sha256')
    .update(await realpath(dir))
    .digest('hex')
    .slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}
