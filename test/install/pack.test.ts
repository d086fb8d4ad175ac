/**
 * The host package as a user gets it: what `npm run package` assembles, `npm pack`ed, installed from the tarball into
 * an empty prefix in a temporary folder (no registry, nothing of the repository in reach), then `tether install`, the
 * launcher it wrote answering a framed `bridge/hello` and `initialize`, and `tether doctor`. Deleting the installed
 * package leaves the launcher working (it runs its own copy of the host), and uninstall removes every file.
 */
import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PACKAGE, PROTOCOL_VERSION } from '@tether/protocol';
import { ROOT, startHost } from '../host/host-process';

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let tmp: string;
let env: NodeJS.ProcessEnv;

function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd, timeout: 110_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** Module specifiers the bundle imports or requires that are neither relative nor Node's own. */
function foreignImports(code: string): string[] {
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  const found = new Set<string>();
  // Statements at the start of a line, and calls not inside a string (ajv keeps `require("ajv/...")` as code text).
  const patterns = [
    /^\s*(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /(?<!["'`])\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /(?<!["'`])\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) {
    for (const match of code.matchAll(re)) {
      const spec = match[1]!;
      if (!spec.startsWith('.') && !builtins.has(spec)) found.add(spec);
    }
  }
  return [...found];
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tether-pack-'));
  for (const dir of ['home', 'cwd', 'prefix']) await mkdir(join(tmp, dir));
  // A user's machine: nothing of the repository on PATH (vitest puts its node_modules/.bin there), no XDG overrides.
  env = {
    ...process.env,
    HOME: join(tmp, 'home'),
    PATH: (process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => !dir.startsWith(ROOT))
      .join(delimiter),
  };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'TETHER_CONFIG', 'NODE_PATH'])
    delete env[name];
  // Nor the settings `npm test` hands its children (npm_config_local_prefix names the repository).
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  env.npm_config_cache = join(tmp, 'npm-cache');
  env.npm_config_update_notifier = 'false';
  // Except a runtime folder of the test's own, so doctor never looks at (or repairs) the user's daemon.
  env.TETHER_RUNTIME_DIR = join(tmp, 'run');
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the tether-bridge package, installed from its tarball', () => {
  it('packs only what runs, installs offline into an empty prefix, and serves a browser after the package is gone', async () => {
    const out = join(tmp, 'out');
    const packaged = await run(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--out', out], ROOT);
    expect(packaged.stderr).toBe('');
    expect(packaged.code).toBe(0);
    const tarball = join(out, `tether-bridge-${VERSION}.tgz`);

    const listed = await run('tar', ['-tzf', tarball], tmp);
    const inside = listed.stdout.trim().split('\n').sort();
    expect(inside).toContain('package/package.json');
    expect(inside).toContain('package/README.md');
    expect(inside).toContain('package/bin/tether.mjs');
    expect(inside).toContain('package/dist/tether.mjs');
    expect(
      inside.filter((f) => !/^package\/(package\.json|README\.md|bin\/tether\.mjs|dist\/.*\.mjs)$/.test(f)),
    ).toEqual([]);

    // Installed the way a user would, from a folder with no package.json, without the registry.
    const cwd = join(tmp, 'cwd');
    const prefix = join(tmp, 'prefix');
    const npmArgs = [
      'install',
      '--prefix',
      prefix,
      '--offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      tarball,
    ];
    const installedPackage = await run('npm', npmArgs, cwd);
    expect(installedPackage.code, installedPackage.stderr).toBe(0);
    const pkgDir = join(prefix, 'node_modules/tether-bridge');
    const manifest = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    // The name scripts/package.mjs gives the package is the one the host's messages tell users to install.
    expect(manifest).toMatchObject({ name: HOST_PACKAGE, version: VERSION, bin: { tether: 'bin/tether.mjs' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(await files(join(prefix, 'node_modules'))).not.toContainEqual(
      expect.stringMatching(/^(?!tether-bridge\/|\.bin\/|\.package-lock)/),
    );
    // Zero runtime dependencies: the MCP SDK, zod and the protocol are inside the bundle.
    for (const file of (await files(pkgDir)).filter((f) => f.endsWith('.mjs')))
      expect(foreignImports(await readFile(join(pkgDir, file), 'utf8')), file).toEqual([]);

    const tether = join(prefix, 'node_modules/.bin/tether');
    const profile = join(tmp, 'profile');
    const target = ['--browser', 'chromium', '--user-data-dir', profile];
    const installed = await run(tether, ['install', ...target, '--extension-id', STORE_ID], cwd);
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('`npx tether-bridge doctor`');

    const hostManifest = JSON.parse(
      await readFile(join(profile, 'NativeMessagingHosts/dev.tether.bridge.json'), 'utf8'),
    ) as { path: string; allowed_origins: string[] };
    expect(hostManifest.allowed_origins).toEqual([`chrome-extension://${STORE_ID}/`]);
    const launcherText = await readFile(hostManifest.path, 'utf8');
    const copy = join(tmp, `home/.local/share/tether/host/${VERSION}/tether.mjs`);
    expect(launcherText).toContain(`exec "${process.execPath}" "${copy}" host --allow-extension=${STORE_ID} "$@"`);
    expect(launcherText).not.toContain(prefix);

    const answers = async () => {
      // As Chromium starts it: the launcher, the caller's origin; no config lists the id (install alone allows it).
      const host = startHost({ launcher: hostManifest.path, args: [`chrome-extension://${STORE_ID}/`] });
      try {
        const hello = await host.request('bridge/hello', { clientInfo: { name: 'pack-test', version: VERSION } });
        expect(hello.result).toMatchObject({ hostVersion: VERSION, protocolVersion: PROTOCOL_VERSION });
        const init = await host.request('initialize', { clientInfo: { name: 'pack-test', version: VERSION } });
        expect(init.result?.serverInfo?.name).toBeTypeOf('string');
      } finally {
        await host.dispose();
      }
    };
    await answers();

    const doctor = await run(tether, ['doctor', ...target, '--extension-id', STORE_ID], cwd);
    expect(doctor.stdout).toContain('All checks passed.');
    expect(doctor.code).toBe(0);

    // The package (and npm's cache) gone: the launcher runs its own copy.
    await rm(prefix, { recursive: true, force: true });
    await rm(join(tmp, 'npm-cache'), { recursive: true, force: true });
    await answers();

    // The copy is a whole `tether`: its uninstall removes everything install wrote, and nothing else.
    const removed = await run(process.execPath, [copy, 'uninstall'], cwd);
    expect(removed.code, removed.stderr).toBe(0);
    // What is left is the host's log (doctor started it), which install never wrote.
    expect(await files(join(tmp, 'home'))).toEqual(['.local/state/tether/host.log']);
    expect(await files(profile)).toEqual([]);
  });
});
