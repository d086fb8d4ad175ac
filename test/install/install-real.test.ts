/**
 * `tether install`, `doctor` and `uninstall` for real on this machine: the bundled CLI, real files under a temporary
 * HOME, a throwaway Chromium profile via --user-data-dir, and doctor starting the real host as Chromium would.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(REPO, 'native-host/bin/tether.mjs');
const HOST_SCRIPT = join(REPO, 'native-host/dist/tether.mjs');
const DEV_ORIGIN = 'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/';
const OWN_ID = 'abcdefghijklmnopabcdefghijklmnop';

let home: string;

function tether(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  // The daemon's folder too is the test's: doctor inspects (and would repair) the daemon of this folder only.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TETHER_RUNTIME_DIR: join(home, 'run'), ...extraEnv };
  for (const name of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'TETHER_CONFIG']) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, cwd: home, timeout: 110_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(relative(home, join(entry.parentPath, entry.name)));
  }
  return found.sort();
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'tether-install-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('tether install, doctor and uninstall on this machine', () => {
  it('installs for Chromium and Firefox under HOME, byte for byte, and uninstall restores the tree', async () => {
    await mkdir(join(home, '.config/chromium/NativeMessagingHosts'), { recursive: true });
    await writeFile(join(home, '.config/chromium/NativeMessagingHosts/org.other.host.json'), '{}');
    const ids = ['--extension-id', OWN_ID, '--extension-id', 'tether@example.org'];
    const result = await tether(['install', '--browser', 'chromium,firefox', ...ids]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    // The host runs from a copy beside the launcher: this build's entry and exactly the chunks it listed.
    const copy = '.local/share/tether/host/0.1.0';
    const built = JSON.parse(await readFile(join(dirname(HOST_SCRIPT), 'tether.files.json'), 'utf8')) as string[];
    expect(await files(home)).toEqual(
      [
        '.config/chromium/NativeMessagingHosts/dev.tether.bridge.json',
        '.config/chromium/NativeMessagingHosts/org.other.host.json',
        '.local/share/tether/bin/tether-host',
        ...built.map((f) => `${copy}/${f}`),
        '.local/share/tether/install-record.json',
        '.mozilla/native-messaging-hosts/dev.tether.bridge.json',
      ].sort(),
    );
    expect(await readFile(join(home, copy, 'tether.mjs'))).toEqual(await readFile(HOST_SCRIPT));
    const launcher = join(home, '.local/share/tether/bin/tether-host');
    expect(await readFile(launcher, 'utf8')).toBe(
      '#!/bin/sh\n' +
        '# Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.\n' +
        '# Node is named by absolute path: a browser started from the desktop may not have it on PATH.\n' +
        `exec "${process.execPath}" "${join(home, copy, 'tether.mjs')}" host ` +
        `--allow-extension=${OWN_ID} --allow-extension=tether@example.org "$@"\n`,
    );
    expect((await stat(launcher)).mode & 0o777).toBe(0o755);
    const manifest = JSON.parse(
      await readFile(join(home, '.config/chromium/NativeMessagingHosts/dev.tether.bridge.json'), 'utf8'),
    ) as unknown;
    expect(manifest).toEqual({
      name: 'dev.tether.bridge',
      description: 'Tether: connects the Tether browser extension to a local AI agent',
      path: launcher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${OWN_ID}/`],
    });
    const firefox = await readFile(join(home, '.mozilla/native-messaging-hosts/dev.tether.bridge.json'));
    expect(firefox[0]).toBe(0x7b); // no BOM: the first byte is "{"
    expect(JSON.parse(firefox.toString('utf8'))).toMatchObject({
      path: launcher,
      allowed_extensions: ['tether@example.org'],
    });

    const again = await tether(['install', '--browser', 'chromium,firefox', ...ids]);
    expect(again.stdout).toMatch(/unchanged +.*\/tether-host \(launcher\)/);

    const removed = await tether(['uninstall']);
    expect(removed.code).toBe(0);
    expect(await files(home)).toEqual(['.config/chromium/NativeMessagingHosts/org.other.host.json']);
    await expect(stat(join(home, '.mozilla'))).rejects.toThrow(/ENOENT/);
  });

  it('registers a throwaway profile with --user-data-dir --dev and doctor completes a framed initialize with the real host', async () => {
    const profile = join(home, 'profile');
    const installed = await tether(['install', '--dev', '--browser', 'chromium', '--user-data-dir', profile]);
    expect(installed.code).toBe(0);
    expect(await files(profile)).toEqual(['profile/NativeMessagingHosts/dev.tether.bridge.json']);
    const manifest = JSON.parse(
      await readFile(join(profile, 'NativeMessagingHosts/dev.tether.bridge.json'), 'utf8'),
    ) as unknown;
    expect(manifest).toMatchObject({
      path: join(home, '.local/share/tether/bin/tether-host-dev'),
      allowed_origins: [DEV_ORIGIN],
    });

    const doctor = await tether(['doctor', '--user-data-dir', profile]);
    expect(doctor.stdout).toContain(
      `✓ manifest ${profile}/NativeMessagingHosts/dev.tether.bridge.json (valid JSON, name matches the file)`,
    );
    expect(doctor.stdout).toContain('! development extension allowed: yes (installed with --dev)');
    expect(doctor.stdout).toMatch(
      /✓ started as Chromium would \(.*tether-host-dev chrome-extension:\/\/gkplngjhinednckbmppipofijkaplcpm\/\): initialize answered in \d+ ms/,
    );
    expect(doctor.stdout).toMatch(/✓ the host exited \d+ ms after stdin closed/);
    expect(doctor.stdout).toContain(`✓ Node ${process.execPath} v`);
    expect(doctor.stdout).toContain(`· host log: ${home}/.local/state/tether/host.log`);
    expect(doctor.code).toBe(0);

    const gone = await tether(['uninstall', '--user-data-dir', profile]);
    expect(gone.code).toBe(0);
    await expect(stat(profile)).rejects.toThrow(/ENOENT/);
  });

  it("doctor fails with the browser's words and the fix when the launcher is not executable", async () => {
    const profile = join(home, 'profile');
    await tether(['install', '--dev', '--browser', 'chromium', '--user-data-dir', profile]);
    const launcher = join(home, '.local/share/tether/bin/tether-host-dev');
    await chmod(launcher, 0o644);
    const doctor = await tether(['doctor', '--user-data-dir', profile]);

    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`✗ the host ${launcher} is not executable`);
    expect(doctor.stdout).toContain('the browser says: "Native host has exited."');
    expect(doctor.stdout).toContain(`fix: chmod 755 "${launcher}"`);
  });

  it("doctor reports a host that cannot serve because the config is invalid, and the config's field and fix", async () => {
    const profile = join(home, 'profile');
    await tether(['install', '--dev', '--browser', 'chromium', '--user-data-dir', profile]);
    await mkdir(join(home, '.config/tether'), { recursive: true });
    await writeFile(join(home, '.config/tether/config.json'), '{"defaultBackend": "missing"}');
    const doctor = await tether(['doctor', '--user-data-dir', profile]);

    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /✗ started as Chromium would .*: the host (answered initialize with error -?\d+|exited with code \d+ before answering initialize)/,
    );
    expect(doctor.stdout).toContain(`✗ config ${home}/.config/tether/config.json is invalid`);
    expect(doctor.stdout).toContain('defaultBackend: "missing" is not a configured backend');
  });

  it('--dry-run writes nothing', async () => {
    const result = await tether(['install', '--dev', '--browser', 'all', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `would create ${home}/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tether.bridge.json`,
    );
    expect(await files(home)).toEqual([]);
  });

  it('without --dev, the manifest lacks the development id and the installed host refuses it: exit 3, the reason in host.log', async () => {
    const profile = join(home, 'profile');
    const installed = await tether([
      'install',
      '--browser',
      'chromium',
      '--user-data-dir',
      profile,
      '--extension-id',
      OWN_ID,
    ]);
    expect(installed.code).toBe(0);
    const manifest = await readFile(join(profile, 'NativeMessagingHosts/dev.tether.bridge.json'), 'utf8');
    expect(manifest).not.toContain('gkplngjhinednckbmppipofijkaplcpm');
    // A sideloaded extension with the public development key, were a browser to start this launcher for it.
    const launcher = join(home, '.local/share/tether/bin/tether-host');
    const code = await new Promise<number | null>((resolve) => {
      const child = execFile(launcher, [DEV_ORIGIN], {
        env: { ...process.env, HOME: home, XDG_STATE_HOME: join(home, '.local/state') },
      });
      child.on('exit', (exitCode) => resolve(exitCode));
      child.stdin?.end();
    });
    expect(code).toBe(3);
    const log = await readFile(join(home, '.local/state/tether/host.log'), 'utf8');
    expect(log).toContain(
      'refused to start: extension gkplngjhinednckbmppipofijkaplcpm is the development build, whose key is public',
    );

    const doctor = await tether(['doctor', '--user-data-dir', profile]);
    expect(doctor.stdout).toContain('· development extension allowed: no');
  });

  it('refuses to install without --dev or --extension-id, saying which to pass, and writes nothing', async () => {
    const result = await tether(['install', '--browser', 'chromium']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'No extension to allow for Chromium. Give the id of your Tether build with --extension-id ID',
    );
    expect(result.stderr).toContain('or pass --dev to allow the development build');
    expect(await files(home)).toEqual([]);
  });

  it('rejects a malformed extension id with a clear message', async () => {
    const result = await tether([
      'install',
      '--browser',
      'chromium',
      '--extension-id',
      'gkplngjhinednckbmppipofijkaplcpz',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '"gkplngjhinednckbmppipofijkaplcpz" is not a valid extension id: Chrome extension ids use only the letters a to p',
    );
    expect(await files(home)).toEqual([]);
  });
});
