import { describe, expect, it } from 'vitest';
import { InvalidExtensionIdError } from './ids';
import { install, InstallError } from './install';
import {
  DARWIN,
  darwinMachine,
  DEV_ORIGIN,
  installOptions,
  LINUX,
  linuxMachine,
  OWN_IDS,
  OWN_ORIGIN,
  snapshot,
  WIN,
  windowsMachine,
} from './test-machines';

const STORE_ID = 'bcdefghijklmnopabcdefghijklmnopa';
const DESCRIPTION = 'Tether: connects the Tether browser extension to a local AI agent';

/** The exact manifest text install writes: `listKey` is allowed_origins (Chromium) or allowed_extensions (Firefox). */
function manifestText(path: string, listKey: string, entries: string[]): string {
  return (
    '{\n' +
    '  "name": "dev.tether.bridge",\n' +
    `  "description": "${DESCRIPTION}",\n` +
    `  "path": ${JSON.stringify(path)},\n` +
    '  "type": "stdio",\n' +
    `  "${listKey}": [\n` +
    entries.map((o) => `    "${o}"`).join(',\n') +
    '\n  ]\n}\n'
  );
}

const chromeManifest = (path: string, origins = [OWN_ORIGIN]): string => manifestText(path, 'allowed_origins', origins);
const firefoxManifest = (path: string, ids: string[] = [OWN_IDS.firefox]): string =>
  manifestText(path, 'allowed_extensions', ids);

const LINUX_LAUNCHER = '/home/ada/.local/share/tether/bin/tether-host';
/** What a launcher passes the host for OWN_IDS: install --extension-id alone lets them in. */
const OWN_FLAGS = ` --allow-extension=${OWN_IDS.chrome} --allow-extension=${OWN_IDS.firefox}`;
const LINUX_HOST_COPY = '/home/ada/.local/share/tether/host/0.1.0/tether.mjs';

describe('tether install on Linux', () => {
  it('writes the launcher and a manifest for every browser found, byte for byte', async () => {
    const sys = linuxMachine();
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines));

    expect(sys.listFiles().filter((p) => p.startsWith('/home/ada/.') && !p.includes('/.nvm/'))).toEqual([
      '/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json',
      '/home/ada/.config/google-chrome/NativeMessagingHosts/dev.tether.bridge.json',
      '/home/ada/.local/share/tether/bin/tether-host',
      LINUX_HOST_COPY,
      '/home/ada/.local/share/tether/install-record.json',
      '/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json',
    ]);
    // The launcher runs the copy, so deleting or moving what install ran from leaves the browsers their host.
    expect(sys.readText(LINUX_LAUNCHER)).toBe(
      '#!/bin/sh\n' +
        '# Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.\n' +
        '# Node is named by absolute path: a browser started from the desktop may not have it on PATH.\n' +
        `exec "/home/ada/.nvm/versions/node/v20.20.2/bin/node" "${LINUX_HOST_COPY}" host${OWN_FLAGS} "$@"\n`,
    );
    expect(sys.readText(LINUX_HOST_COPY)).toBe('// bundled host');
    expect(sys.modeOf(LINUX_LAUNCHER)).toBe(0o755);
    expect(sys.readText('/home/ada/.config/google-chrome/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER),
    );
    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER),
    );
    expect(sys.readText('/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json')).toBe(
      firefoxManifest(LINUX_LAUNCHER),
    );
    expect(sys.modeOf('/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json')).toBe(0o644);
    expect(lines).toContain(
      '  created      /home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json (manifest for Chromium)',
    );
    expect(lines).toContain('  created      /home/ada/.local/share/tether/bin/tether-host (launcher)');
  });

  it('is idempotent: a second run changes no byte and reports everything unchanged', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, []));
    const before = snapshot(sys);
    const lines: string[] = [];
    const actions = await install(sys, installOptions(LINUX.host, lines));

    expect(actions.map((a) => a.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    const after = snapshot(sys);
    const record = '/home/ada/.local/share/tether/install-record.json';
    const { updatedAt: _a, ...recordBefore } = JSON.parse(before[record]!) as Record<string, unknown>;
    const { updatedAt: _b, ...recordAfter } = JSON.parse(after[record]!) as Record<string, unknown>;
    expect(recordAfter).toEqual(recordBefore);
    delete before[record];
    delete after[record];
    expect(after).toEqual(before);
  });

  it('upgrades in place: the launcher moves to the new copy, the previous copy stays for running hosts, older ones go', async () => {
    const sys = linuxMachine();
    const copy = (version: string) => `/home/ada/.local/share/tether/host/${version}/tether.mjs`;
    for (const version of ['0.1.0', '0.2.0', '0.3.0'])
      await install(sys, installOptions(LINUX.host, [], { tetherVersion: version }));

    expect(sys.readText(LINUX_LAUNCHER)).toContain(`"${copy('0.3.0')}" host${OWN_FLAGS} "$@"`);
    expect(sys.listFiles().filter((p) => p.includes('/tether/host/'))).toEqual([copy('0.2.0'), copy('0.3.0')]);
    expect(sys.listDirs()).not.toContain('/home/ada/.local/share/tether/host/0.1.0');
    const record = JSON.parse(sys.readText('/home/ada/.local/share/tether/install-record.json')) as {
      hostScript: string;
      entries: { type: string; path?: string }[];
    };
    expect(record.hostScript).toBe(copy('0.3.0'));
    expect(record.entries.filter((e) => e.type === 'host').map((e) => e.path)).toEqual([copy('0.2.0'), copy('0.3.0')]);
  });

  it('copies only the chunks the build listed, not those of earlier builds kept for running hosts', async () => {
    const dist = '/opt/tether/native-host/dist';
    const sys = linuxMachine({
      files: {
        [`${dist}/tether.files.json`]: JSON.stringify(['chunks/now-1.mjs', 'tether.mjs']),
        [`${dist}/chunks/now-1.mjs`]: '// this build',
        [`${dist}/chunks/old-0.mjs`]: '// an earlier build',
      },
    });
    await install(sys, installOptions(LINUX.host, []));
    expect(sys.listFiles().filter((p) => p.includes('/tether/host/'))).toEqual([
      '/home/ada/.local/share/tether/host/0.1.0/chunks/now-1.mjs',
      LINUX_HOST_COPY,
    ]);
  });

  it('with --dev runs the checkout bundle in place and copies nothing, so `npm run build` takes effect at once', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, [], { dev: true, extensionIds: [] }));
    expect(sys.readText('/home/ada/.local/share/tether/bin/tether-host-dev')).toContain(`"${LINUX.host}" host`);
    expect(sys.listFiles().filter((p) => p.includes('/tether/host/'))).toEqual([]);
  });

  it('with --dry-run prints the plan and writes nothing', async () => {
    const sys = linuxMachine();
    const before = snapshot(sys);
    const dirsBefore = sys.listDirs();
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines, { dryRun: true }));

    expect(snapshot(sys)).toEqual(before);
    expect(sys.listDirs()).toEqual(dirsBefore);
    expect(lines[0]).toBe('Tether install (user scope, dry run: nothing is written)');
    expect(lines).toContain(
      '  would create /home/ada/.config/google-chrome/NativeMessagingHosts/dev.tether.bridge.json (manifest for Google Chrome)',
    );
    expect(lines.at(-1)).toBe('Dry run: nothing was written.');
  });

  it('adds --extension-id values to the matching family and keeps them on later runs', async () => {
    const sys = linuxMachine();
    await install(
      sys,
      installOptions(LINUX.host, [], { extensionIds: [STORE_ID, '{12345678-1234-1234-1234-1234567890ab}'] }),
    );
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines));

    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER, [OWN_ORIGIN, `chrome-extension://${STORE_ID}/`]),
    );
    expect(sys.readText('/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json')).toBe(
      firefoxManifest(LINUX_LAUNCHER, [OWN_IDS.firefox, '{12345678-1234-1234-1234-1234567890ab}']),
    );
    expect(lines.some((l) => l.includes(`kept from the previous install: ${STORE_ID}`))).toBe(true);
    // The launcher names every allowed id to the host: nothing to copy into the config.
    expect(sys.readText(LINUX_LAUNCHER)).toContain(` --allow-extension=${STORE_ID} `);
    expect(lines.some((l) => l.includes('"allowedExtensionIds"'))).toBe(false);
  });

  it('allows the ids listed in the host config too, so browser and host agree', async () => {
    const sys = linuxMachine({
      files: { '/home/ada/.config/tether/config.json': JSON.stringify({ allowedExtensionIds: [STORE_ID] }) },
    });
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines, { browsers: ['chromium'], extensionIds: [] }));

    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER, [`chrome-extension://${STORE_ID}/`]),
    );
    expect(lines.some((l) => l.startsWith('Note:'))).toBe(false);
  });

  it('rejects an invalid --extension-id before writing anything', async () => {
    const sys = linuxMachine();
    const before = snapshot(sys);
    await expect(
      install(sys, installOptions(LINUX.host, [], { extensionIds: ['ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP'] })),
    ).rejects.toThrow(InvalidExtensionIdError);
    expect(snapshot(sys)).toEqual(before);
  });

  it('without --dev allows only the ids given, never the development extension', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, [], { extensionIds: [STORE_ID, 'me@example.org'] }));

    for (const path of sys.listFiles().filter((p) => p.endsWith('dev.tether.bridge.json'))) {
      expect(sys.readText(path)).not.toContain('gkplngjhinednckbmppipofijkaplcpm');
      expect(sys.readText(path)).not.toContain('tether@tether.dev');
    }
    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER, [`chrome-extension://${STORE_ID}/`]),
    );
    expect(sys.readText(LINUX_LAUNCHER)).not.toContain('--allow-dev-extension');
  });

  it('with --dev allows the development extension through a development launcher that tells the host so', async () => {
    const sys = linuxMachine({ cwd: '/tmp' });
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines, { dev: true, extensionIds: [], userDataDir: 'profile' }));

    const devLauncher = '/home/ada/.local/share/tether/bin/tether-host-dev';
    expect(sys.readText('/tmp/profile/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(devLauncher, [DEV_ORIGIN]),
    );
    expect(sys.readText(devLauncher)).toContain(
      `exec "${LINUX.node}" "${LINUX.host}" host --allow-dev-extension "$@"\n`,
    );
    expect(lines.some((l) => l.startsWith('Development extension allowed: yes (--dev). Its key is public'))).toBe(true);
    // The record keeps the ids for later installs, but never the development ones: only --dev brings them back.
    expect(JSON.parse(sys.readText('/home/ada/.local/share/tether/install-record.json'))).toMatchObject({
      allowedExtensionIds: { chrome: [], firefox: [] },
    });
  });

  it('keeps the launcher of a plain install apart from a --dev one, so neither changes what the other allows', async () => {
    const sys = linuxMachine({ cwd: '/tmp' });
    await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium'] }));
    await install(sys, installOptions(LINUX.host, [], { dev: true, userDataDir: 'profile' }));

    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER),
    );
    expect(sys.readText(LINUX_LAUNCHER)).not.toContain('--allow-dev-extension');
    expect(sys.readText('/tmp/profile/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest('/home/ada/.local/share/tether/bin/tether-host-dev', [DEV_ORIGIN, OWN_ORIGIN]),
    );
  });

  it('drops the development ids an earlier version recorded, unless --dev asks for them', async () => {
    const record = {
      version: 1,
      scope: 'user',
      allowedExtensionIds: { chrome: ['gkplngjhinednckbmppipofijkaplcpm', STORE_ID], firefox: ['tether@tether.dev'] },
      entries: [],
    };
    const sys = linuxMachine({
      files: { '/home/ada/.local/share/tether/install-record.json': JSON.stringify(record) },
    });
    await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium'], extensionIds: [] }));
    expect(sys.readText('/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER, [`chrome-extension://${STORE_ID}/`]),
    );
  });

  it('refuses to install without --dev or an extension id, saying which to give', async () => {
    const sys = linuxMachine();
    const before = snapshot(sys);
    const error = await install(sys, installOptions(LINUX.host, [], { extensionIds: [] })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(
      /^No extension to allow for Google Chrome, Chromium, Firefox\. Give the id of your Tether build with --extension-id ID/,
    );
    expect((error as Error).message).toContain('or pass --dev to allow the development build');
    expect(snapshot(sys)).toEqual(before);
    const firefoxOnly = await install(sys, installOptions(LINUX.host, [], { extensionIds: [STORE_ID] })).catch(
      (e: unknown) => e,
    );
    expect((firefoxOnly as Error).message).toMatch(/^No extension to allow for Firefox\./);
  });

  it('refuses a development id given with --extension-id, pointing at --dev', async () => {
    const sys = linuxMachine();
    const error = await install(
      sys,
      installOptions(LINUX.host, [], { extensionIds: ['chrome-extension://gkplngjhinednckbmppipofijkaplcpm/'] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toContain(
      "is the development build's id, whose key is public: allow it with --dev",
    );
  });

  it('with --user-data-dir writes only DIR/NativeMessagingHosts for Chromium', async () => {
    const sys = linuxMachine({ cwd: '/tmp' });
    await install(sys, installOptions(LINUX.host, [], { userDataDir: 'profile-1' }));

    expect(sys.listFiles().filter((p) => p.endsWith('dev.tether.bridge.json'))).toEqual([
      '/tmp/profile-1/NativeMessagingHosts/dev.tether.bridge.json',
    ]);
    expect(sys.readText('/tmp/profile-1/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest(LINUX_LAUNCHER),
    );
  });

  it('honours XDG_CONFIG_HOME and XDG_DATA_HOME like Chromium and the host do', async () => {
    const sys = linuxMachine({
      env: { PATH: '/usr/bin', XDG_CONFIG_HOME: '/home/ada/cfg', XDG_DATA_HOME: '/home/ada/data' },
    });
    await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium'] }));

    expect(sys.readText('/home/ada/cfg/chromium/NativeMessagingHosts/dev.tether.bridge.json')).toBe(
      chromeManifest('/home/ada/data/tether/bin/tether-host'),
    );
  });

  it('system scope writes the machine-wide folders, one shared manifest for Chrome, Brave and Vivaldi', async () => {
    const sys = linuxMachine({ readOnly: [], elevated: true });
    await install(
      sys,
      installOptions(LINUX.host, [], {
        scope: 'system',
        browsers: ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'firefox'],
      }),
    );

    const launcher = '/usr/local/lib/tether/bin/tether-host';
    expect(
      sys.listFiles().filter((p) => !p.startsWith('/home/') && !p.startsWith('/opt/') && p !== '/usr/bin/chromium'),
    ).toEqual([
      '/etc/chromium/native-messaging-hosts/dev.tether.bridge.json',
      '/etc/opt/chrome/native-messaging-hosts/dev.tether.bridge.json',
      '/etc/opt/edge/native-messaging-hosts/dev.tether.bridge.json',
      '/usr/lib/mozilla/native-messaging-hosts/dev.tether.bridge.json',
      launcher,
      '/usr/local/lib/tether/host/0.1.0/tether.mjs',
      '/usr/local/lib/tether/install-record.json',
    ]);
    expect(sys.readText('/etc/opt/chrome/native-messaging-hosts/dev.tether.bridge.json')).toBe(
      chromeManifest(launcher),
    );
    const record = JSON.parse(sys.readText('/usr/local/lib/tether/install-record.json')) as {
      entries: { path?: string; browsers: string[] }[];
    };
    expect(
      record.entries.find((e) => e.path === '/etc/opt/chrome/native-messaging-hosts/dev.tether.bridge.json')?.browsers,
    ).toEqual(['chrome', 'brave', 'vivaldi']);
  });

  it('system scope copies the bundled host into a root-owned folder and points the launcher there, not at the checkout', async () => {
    const chunk = '/opt/tether/native-host/dist/chunks/app-server-ABC123.mjs';
    const sys = linuxMachine({
      readOnly: [],
      elevated: true,
      files: { [chunk]: '// chunk', '/opt/tether/native-host/dist/chunks/app-server-ABC123.mjs.map': '{}' },
    });
    const lines: string[] = [];
    await install(sys, installOptions(LINUX.host, lines, { scope: 'system', browsers: ['chromium'] }));

    const dir = '/usr/local/lib/tether/host/0.1.0';
    expect(sys.listFiles().filter((p) => p.startsWith(dir))).toEqual([
      `${dir}/chunks/app-server-ABC123.mjs`,
      `${dir}/tether.mjs`,
    ]);
    expect(sys.readText(`${dir}/tether.mjs`)).toBe('// bundled host');
    expect(sys.readText(`${dir}/chunks/app-server-ABC123.mjs`)).toBe('// chunk');
    expect(sys.modeOf(`${dir}/tether.mjs`)).toBe(0o644);
    expect(sys.readText('/usr/local/lib/tether/bin/tether-host')).toContain(
      `exec "${LINUX.node}" "${dir}/tether.mjs" host${OWN_FLAGS} "$@"\n`,
    );
    expect(sys.readText('/usr/local/lib/tether/bin/tether-host')).not.toContain('/opt/tether');
    expect(lines).toContain(`  host:  ${dir}/tether.mjs (copied from ${LINUX.host})`);
    expect(lines).toContain(`  created      ${dir}/ (host: 2 file(s), copied for every user)`);
    expect(JSON.parse(sys.readText('/usr/local/lib/tether/install-record.json'))).toMatchObject({
      hostScript: `${dir}/tether.mjs`,
    });
  });

  it('refuses a system install when not root, before writing anything', async () => {
    const sys = linuxMachine({ readOnly: [] });
    const before = snapshot(sys);
    const error = await install(sys, installOptions(LINUX.host, [], { scope: 'system', browsers: ['chromium'] })).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(
      /^System scope installs for every user of this machine: run it as root .*or use --scope user\.$/,
    );
    expect(snapshot(sys)).toEqual(before);
  });

  it('refuses a system install when the bundle is not built, and never builds it as root', async () => {
    let builds = 0;
    const sys = linuxMachine({ readOnly: [], elevated: true });
    const missing = '/opt/other/dist/tether.mjs';
    const options = installOptions(missing, [], {
      scope: 'system',
      browsers: ['chromium'],
      buildHost: async () => void builds++,
    });
    const error = await install(sys, options).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(
      /^The bundled host \/opt\/other\/dist\/tether\.mjs is missing\. Run `npm run build` as yourself first/,
    );
    expect(builds).toBe(0);
  });

  it('explains that system scope needs root when /etc is not writable', async () => {
    const sys = linuxMachine({ elevated: true });
    const error = await install(sys, installOptions(LINUX.host, [], { scope: 'system', browsers: ['chromium'] })).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(
      /^Could not write \/usr\/local\/lib\/tether\/host\/0\.1\.0\/tether\.mjs: EACCES.*run it as root/,
    );
  });

  it('says how to name a browser when none is found', async () => {
    const sys = linuxMachine({ dirs: [], files: { '/usr/bin/chromium': 'not executable' } });
    await expect(install(sys, installOptions(LINUX.host, []))).rejects.toThrow(
      /No supported browser found .* --browser/,
    );
  });

  it('builds the missing bundle on a real run, but not on a dry run', async () => {
    let builds = 0;
    const missing = '/opt/other/dist/tether.mjs';
    const dry: string[] = [];
    await install(linuxMachine(), installOptions(missing, dry, { dryRun: true, buildHost: async () => void builds++ }));
    expect(builds).toBe(0);
    expect(dry).toContain(`  host:  ${missing} (missing: would build it)`);
    const sys = linuxMachine();
    const build = async () => {
      builds++;
      await sys.fs.mkdirp('/opt/other/dist');
      await sys.fs.writeFile(missing, new TextEncoder().encode('// built'));
    };
    await install(sys, installOptions(missing, [], { buildHost: build }));
    expect(builds).toBe(1);
    // What was just built is what the launcher's copy holds.
    expect(sys.readText(LINUX_HOST_COPY)).toBe('// built');
  });
});

describe('tether install on macOS', () => {
  it('writes under ~/Library/Application Support for each browser', async () => {
    const sys = darwinMachine();
    await install(
      sys,
      installOptions(DARWIN.host, [], { browsers: ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'firefox'] }),
    );

    const launcher = '/Users/ada/Library/Application Support/tether/data/bin/tether-host';
    const as = '/Users/ada/Library/Application Support';
    expect(sys.listFiles().filter((p) => p.startsWith(as))).toEqual([
      `${as}/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tether.bridge.json`,
      `${as}/Chromium/NativeMessagingHosts/dev.tether.bridge.json`,
      `${as}/Google/Chrome/NativeMessagingHosts/dev.tether.bridge.json`,
      `${as}/Microsoft Edge/NativeMessagingHosts/dev.tether.bridge.json`,
      `${as}/Mozilla/NativeMessagingHosts/dev.tether.bridge.json`,
      `${as}/Vivaldi/NativeMessagingHosts/dev.tether.bridge.json`,
      launcher,
      `${as}/tether/data/host/0.1.0/tether.mjs`,
      `${as}/tether/data/install-record.json`,
    ]);
    expect(sys.readText(`${as}/Microsoft Edge/NativeMessagingHosts/dev.tether.bridge.json`)).toBe(
      chromeManifest(launcher),
    );
    expect(sys.readText(launcher)).toContain(
      `exec "/opt/homebrew/bin/node" "${as}/tether/data/host/0.1.0/tether.mjs" host${OWN_FLAGS} "$@"\n`,
    );
  });

  it('detects browsers by their application bundles', async () => {
    const sys = darwinMachine();
    await install(sys, installOptions(DARWIN.host, []));
    expect(sys.listFiles().filter((p) => p.endsWith('dev.tether.bridge.json'))).toEqual([
      '/Users/ada/Library/Application Support/Google/Chrome/NativeMessagingHosts/dev.tether.bridge.json',
      '/Users/ada/Library/Application Support/Mozilla/NativeMessagingHosts/dev.tether.bridge.json',
    ]);
  });

  it('system scope writes /Library folders and runs a copy of the host kept there', async () => {
    const sys = darwinMachine({ readOnly: [], elevated: true });
    await install(
      sys,
      installOptions(DARWIN.host, [], { scope: 'system', browsers: ['chrome', 'chromium', 'edge', 'firefox'] }),
    );
    const launcher = sys.readText('/Library/Application Support/Tether/bin/tether-host');
    expect(launcher).toContain(`"/Library/Application Support/Tether/host/0.1.0/tether.mjs" host${OWN_FLAGS} "$@"`);
    expect(sys.listFiles().filter((p) => p.startsWith('/Library/'))).toEqual([
      '/Library/Application Support/Chromium/NativeMessagingHosts/dev.tether.bridge.json',
      '/Library/Application Support/Mozilla/NativeMessagingHosts/dev.tether.bridge.json',
      '/Library/Application Support/Tether/bin/tether-host',
      '/Library/Application Support/Tether/host/0.1.0/tether.mjs',
      '/Library/Application Support/Tether/install-record.json',
      '/Library/Google/Chrome/NativeMessagingHosts/dev.tether.bridge.json',
      '/Library/Microsoft/Edge/NativeMessagingHosts/dev.tether.bridge.json',
    ]);
  });
});

describe('browser detection on Linux', () => {
  it('finds Firefox and Chromium by the profiles they keep under XDG_CONFIG_HOME', async () => {
    const sys = linuxMachine({
      env: { PATH: '/nowhere', HOME: LINUX.home, XDG_CONFIG_HOME: '/home/ada/.cfg' },
      dirs: ['/home/ada/.cfg/mozilla/firefox', '/home/ada/.cfg/chromium/Default', '/etc', '/usr/lib'],
    });
    await install(sys, installOptions(LINUX.host, []));
    expect(sys.listFiles().filter((p) => p.endsWith('dev.tether.bridge.json'))).toEqual([
      '/home/ada/.cfg/chromium/NativeMessagingHosts/dev.tether.bridge.json',
      '/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json',
    ]);
  });
});

describe('tether install on Windows', () => {
  const root = `${WIN.local}\\tether\\data`;
  const launcher = `${root}\\bin\\tether-host.cmd`;
  const manifest = (folder: string) => `${root}\\NativeMessagingHosts\\${folder}\\dev.tether.bridge.json`;

  it('writes a .cmd launcher and manifests, and registers HKCU keys with reg.exe', async () => {
    const sys = windowsMachine();
    const lines: string[] = [];
    await install(sys, installOptions(WIN.host, lines));

    expect(sys.readText(launcher)).toBe(
      '@rem Tether native messaging host launcher, written by `tether install`; `tether uninstall` removes it.\r\n' +
        `@"C:\\Program Files\\nodejs\\node.exe" "${root}\\host\\0.1.0\\tether.mjs" host${OWN_FLAGS} %*\r\n`,
    );
    expect(sys.listFiles().filter((p) => p.startsWith(root))).toEqual([
      manifest('chrome'),
      manifest('edge'),
      manifest('firefox'),
      launcher,
      `${root}\\host\\0.1.0\\tether.mjs`,
      `${root}\\install-record.json`,
    ]);
    expect(sys.readText(manifest('edge'))).toBe(chromeManifest(launcher));
    expect(sys.readText(manifest('firefox'))).toBe(firefoxManifest(launcher));
    const chromeKey = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge';
    const edgeKey = 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.tether.bridge';
    const firefoxKey = 'HKCU\\SOFTWARE\\Mozilla\\NativeMessagingHosts\\dev.tether.bridge';
    expect(sys.regCalls).toEqual([
      ['query', chromeKey, '/ve'],
      ['query', edgeKey, '/ve'],
      ['query', firefoxKey, '/ve'],
      ['add', chromeKey, '/ve', '/t', 'REG_SZ', '/d', manifest('chrome'), '/f'],
      ['add', edgeKey, '/ve', '/t', 'REG_SZ', '/d', manifest('edge'), '/f'],
      ['add', firefoxKey, '/ve', '/t', 'REG_SZ', '/d', manifest('firefox'), '/f'],
    ]);
    expect(lines).toContain(`               reg.exe add "${chromeKey}" /ve /t REG_SZ /d "${manifest('chrome')}" /f`);
  });

  it('runs no reg.exe add when the keys already point at the manifests', async () => {
    const sys = windowsMachine();
    await install(sys, installOptions(WIN.host, []));
    sys.regCalls.length = 0;
    await install(sys, installOptions(WIN.host, []));
    expect(sys.regCalls.map((c) => c[0])).toEqual(['query', 'query', 'query']);
  });

  it('Brave and Vivaldi share the Chrome key and its manifest', async () => {
    const sys = windowsMachine();
    await install(sys, installOptions(WIN.host, [], { browsers: ['brave', 'vivaldi'] }));
    expect(sys.regCalls.filter((c) => c[0] === 'add')).toEqual([
      [
        'add',
        'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge',
        '/ve',
        '/t',
        'REG_SZ',
        '/d',
        manifest('chrome'),
        '/f',
      ],
    ]);
  });

  it('system scope registers HKLM keys and keeps its files and a copy of the host in %ProgramFiles%\\Tether', async () => {
    const sys = windowsMachine({ elevated: true });
    await install(sys, installOptions(WIN.host, [], { scope: 'system', browsers: ['chromium'] }));
    expect(sys.regCalls.at(-1)).toEqual([
      'add',
      'HKLM\\Software\\Chromium\\NativeMessagingHosts\\dev.tether.bridge',
      '/ve',
      '/t',
      'REG_SZ',
      '/d',
      'C:\\Program Files\\Tether\\NativeMessagingHosts\\chromium\\dev.tether.bridge.json',
      '/f',
    ]);
    const launcher = sys.readText('C:\\Program Files\\Tether\\bin\\tether-host.cmd');
    expect(launcher).toContain(`"C:\\Program Files\\Tether\\host\\0.1.0\\tether.mjs" host${OWN_FLAGS} %*\r\n`);
    expect(sys.readText('C:\\Program Files\\Tether\\host\\0.1.0\\tether.mjs')).toBe('// bundled host');
  });

  it('doubles % in paths so cmd.exe does not expand them', async () => {
    const sys = windowsMachine({ execPath: 'C:\\100%\\node.exe' });
    await install(sys, installOptions(WIN.host, [], { browsers: ['edge'] }));
    expect(sys.readText(launcher)).toContain('@"C:\\100%%\\node.exe" ');
  });
});
