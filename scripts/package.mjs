#!/usr/bin/env node
// `npm run package` (after `npm run build`): what a release ships, all at the root package.json's version.
//   dist/packages/tether-bridge/               the host package (npm name tether-bridge, bin `tether`), packed into
//   dist/packages/tether-bridge-VERSION.tgz    by `npm pack`: the bundled host, its bin and README, no dependencies
//   dist/packages/tether-chrome-VERSION.zip    the Chrome Web Store upload: extension/dist/chrome without the
//                                              development `key`, so the store assigns the id
//   dist/packages/tether-firefox-VERSION.zip   the AMO upload: extension/dist/firefox with the release add-on id
// `--out DIR` writes there instead; `--no-pack` skips `npm pack`.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The npm name of the host package (protocol/src/host-package.ts HOST_PACKAGE says the same to users). */
export const HOST_PACKAGE = 'tether-bridge';
/**
 * The Firefox add-on id of release builds. Not the development id (`tether@tether.dev`, manifests/dev-key.json): any
 * unsigned add-on can claim that one, so hosts allow it only after `tether install --dev`.
 */
export const RELEASE_FIREFOX_ID = 'tether-extension@tether.dev';

/** The one version of a release: the root package.json's. */
export function releaseVersion() {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
}

function need(file, what) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (${what})`);
}

/**
 * Writes the host package folder `out`: package.json (no dependencies: the host is bundled), README.md, bin/tether.mjs
 * and dist/ with the entry and exactly the chunks its build listed (no source maps).
 */
export function assembleHostPackage(out) {
  const dist = join(root, 'native-host/dist');
  need(join(dist, 'tether.mjs'), 'the bundled host');
  need(join(dist, 'tether.files.json'), 'the list of its chunks');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'bin'), { recursive: true });
  for (const file of JSON.parse(readFileSync(join(dist, 'tether.files.json'), 'utf8'))) {
    mkdirSync(dirname(join(out, 'dist', file)), { recursive: true });
    cpSync(join(dist, file), join(out, 'dist', file));
  }
  cpSync(join(root, 'native-host/package/README.md'), join(out, 'README.md'));
  writeFileSync(
    join(out, 'bin/tether.mjs'),
    '#!/usr/bin/env node\n// The `tether` command: the bundled host runs as built.\nimport "../dist/tether.mjs";\n',
    { mode: 0o755 },
  );
  const manifest = {
    name: HOST_PACKAGE,
    version: releaseVersion(),
    description: 'Tether native messaging host: connects the Tether browser extension to a local AI agent.',
    keywords: ['native-messaging', 'browser-extension', 'ai-agent', 'mcp', 'codex', 'acp'],
    type: 'module',
    bin: { tether: 'bin/tether.mjs' },
    files: ['bin/', 'dist/', 'README.md'],
    engines: { node: '>=20' },
  };
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return out;
}

/** `npm pack` of a package folder into `destination`; resolves with the tarball's path. */
export function packFolder(folder, destination) {
  const output = execFileSync('npm', ['pack', folder, '--pack-destination', destination, '--json'], {
    cwd: destination,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return join(destination, JSON.parse(output)[0].filename);
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

// Fixed times make the same build zip to the same bytes.
const ZIP_TIME = new Date('2026-01-01T00:00:00Z');

/** Zips an extension build: every file but source maps, `manifest.json` replaced by `manifest`. */
function zipExtension(dist, manifest, file) {
  need(join(dist, 'manifest.json'), 'the extension build');
  const entries = {};
  for (const path of filesUnder(dist)) {
    const name = relative(dist, path).split(sep).join('/');
    if (name.endsWith('.map')) continue;
    const data = name === 'manifest.json' ? Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) : readFileSync(path);
    entries[name] = [data, { mtime: ZIP_TIME }];
  }
  writeFileSync(file, zipSync(entries, { level: 9 }));
  return file;
}

/** The Chrome Web Store package: the build without the development `key` (the store's own key fixes the id). */
export function chromePackage(out) {
  const dist = join(root, 'extension/dist/chrome');
  const { key: _development, ...manifest } = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  return zipExtension(dist, manifest, join(out, `tether-chrome-${releaseVersion()}.zip`));
}

/** The AMO package: the Firefox build with the release add-on id. */
export function firefoxPackage(out) {
  const dist = join(root, 'extension/dist/firefox');
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  manifest.browser_specific_settings.gecko.id = RELEASE_FIREFOX_ID;
  return zipExtension(dist, manifest, join(out, `tether-firefox-${releaseVersion()}.zip`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outArg = args.indexOf('--out');
  const out = outArg >= 0 ? args[outArg + 1] : join(root, 'dist/packages');
  mkdirSync(out, { recursive: true });
  const folder = assembleHostPackage(join(out, HOST_PACKAGE));
  const written = [folder];
  if (!args.includes('--no-pack')) written.push(packFolder(folder, out));
  written.push(chromePackage(out), firefoxPackage(out));
  for (const file of written) console.log(`wrote ${file}`);
}
