import { describe, expect, it } from 'vitest';
import { install } from './install';
import { InstallRecordError } from './record';
import { utf8 } from './system';
import {
  DARWIN,
  darwinMachine,
  installOptions,
  LINUX,
  linuxMachine,
  snapshot,
  uninstallOptions,
  WIN,
  windowsMachine,
} from './test-machines';
import { uninstall } from './uninstall';

const CHROMIUM = '/home/ada/.config/chromium/NativeMessagingHosts/dev.tether.bridge.json';
const FIREFOX = '/home/ada/.mozilla/native-messaging-hosts/dev.tether.bridge.json';
const RECORD = '/home/ada/.local/share/tether/install-record.json';

describe('tether uninstall', () => {
  it('removes exactly what install wrote, including the folders it created, and leaves everything else', async () => {
    const neighbour = '/home/ada/.config/google-chrome/NativeMessagingHosts/org.other.host.json';
    const sys = linuxMachine({ files: { [neighbour]: '{}' } });
    const files = snapshot(sys);
    const dirs = sys.listDirs();
    await install(sys, installOptions(LINUX.host, []));
    const lines: string[] = [];
    const removed = await uninstall(sys, uninstallOptions(lines));

    expect(snapshot(sys)).toEqual(files);
    expect(sys.listDirs()).toEqual(dirs);
    expect(removed).toEqual([
      '/home/ada/.config/google-chrome/NativeMessagingHosts/dev.tether.bridge.json',
      CHROMIUM,
      FIREFOX,
      '/home/ada/.local/share/tether/bin/tether-host',
      '/home/ada/.local/share/tether/host/0.1.0/tether.mjs',
      RECORD,
    ]);
    expect(lines).toContain(`  removed         ${CHROMIUM} (manifest for Chromium)`);
    expect(lines).toContain('  removed         /home/ada/.config/chromium/ (empty folder created by install)');
  });

  it('after a system install removes the copied host with the last manifest, and the folders install created for it', async () => {
    const sys = linuxMachine({
      readOnly: [],
      elevated: true,
      files: { '/opt/tether/native-host/dist/chunks/a-1.mjs': '// chunk' },
    });
    const files = snapshot(sys);
    const dirs = sys.listDirs();
    await install(sys, installOptions(LINUX.host, [], { scope: 'system', browsers: ['chromium', 'firefox'] }));
    expect(sys.listFiles()).toContain('/usr/local/lib/tether/host/0.1.0/chunks/a-1.mjs');

    await uninstall(sys, uninstallOptions([], { scope: 'system', browsers: ['firefox'] }));
    expect(sys.listFiles()).toContain('/usr/local/lib/tether/host/0.1.0/tether.mjs');
    const lines: string[] = [];
    await uninstall(sys, uninstallOptions(lines, { scope: 'system' }));

    expect(snapshot(sys)).toEqual(files);
    expect(sys.listDirs()).toEqual(dirs);
    expect(lines).toContain('  removed         /usr/local/lib/tether/host/0.1.0/tether.mjs (host copied by install)');
  });

  it("removes a --dev install's development launcher with its manifest", async () => {
    const sys = linuxMachine({ cwd: '/tmp' });
    const files = snapshot(sys);
    await install(sys, installOptions(LINUX.host, [], { dev: true, extensionIds: [], userDataDir: 'profile' }));
    expect(sys.listFiles()).toContain('/home/ada/.local/share/tether/bin/tether-host-dev');
    await uninstall(sys, uninstallOptions([], { userDataDir: 'profile' }));
    expect(snapshot(sys)).toEqual(files);
  });

  it('after upgrades removes every host copy install left and the folders it created for them', async () => {
    const sys = linuxMachine();
    const files = snapshot(sys);
    const dirs = sys.listDirs();
    for (const version of ['0.1.0', '0.2.0', '0.3.0'])
      await install(sys, installOptions(LINUX.host, [], { tetherVersion: version }));
    await uninstall(sys, uninstallOptions([]));

    expect(snapshot(sys)).toEqual(files);
    expect(sys.listDirs()).toEqual(dirs);
  });

  it('with --browser removes only that browser and keeps the launcher and the record for the others', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, []));
    await uninstall(sys, uninstallOptions([], { browsers: ['firefox'] }));

    expect(sys.listFiles()).not.toContain(FIREFOX);
    expect(sys.listFiles()).toContain(CHROMIUM);
    expect(sys.listFiles()).toContain('/home/ada/.local/share/tether/bin/tether-host');
    const record = JSON.parse(sys.readText(RECORD)) as { entries: { type: string; browsers: string[] }[] };
    expect(record.entries.map((e) => [e.type, e.browsers])).toEqual([
      ['host', []],
      ['launcher', []],
      ['manifest', ['chrome']],
      ['manifest', ['chromium']],
    ]);
  });

  it('leaves a manifest that changed since install in place and says so', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium'] }));
    await sys.fs.writeFile(CHROMIUM, utf8('{"edited": true}\n'));
    const lines: string[] = [];
    await uninstall(sys, uninstallOptions(lines));

    expect(sys.readText(CHROMIUM)).toBe('{"edited": true}\n');
    expect(lines).toContain(
      `  left in place   ${CHROMIUM} (manifest for Chromium: changed since install; delete it yourself if unwanted)`,
    );
  });

  it('with --dry-run removes nothing', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, []));
    const before = snapshot(sys);
    const lines: string[] = [];
    await uninstall(sys, uninstallOptions(lines, { dryRun: true }));

    expect(snapshot(sys)).toEqual(before);
    expect(lines).toContain(`  would remove    ${CHROMIUM} (manifest for Chromium)`);
  });

  it('says there is nothing to remove without an install record', async () => {
    const lines: string[] = [];
    expect(await uninstall(linuxMachine(), uninstallOptions(lines))).toEqual([]);
    expect(lines).toContain(`  Nothing to remove: no install record at ${RECORD}.`);
  });

  it('refuses to guess when the record is corrupt, and removes nothing', async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, []));
    await sys.fs.writeFile(RECORD, utf8('{"version": 1, "entries": [{"type": "file"}]}'));
    const before = snapshot(sys);

    await expect(uninstall(sys, uninstallOptions([]))).rejects.toThrow(InstallRecordError);
    expect(snapshot(sys)).toEqual(before);
  });

  it("with --user-data-dir removes only that profile's manifest", async () => {
    const sys = linuxMachine();
    await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium'] }));
    await install(sys, installOptions(LINUX.host, [], { userDataDir: '/tmp/p1' }));
    await uninstall(sys, uninstallOptions([], { userDataDir: '/tmp/p1' }));

    expect(sys.listFiles()).not.toContain('/tmp/p1/NativeMessagingHosts/dev.tether.bridge.json');
    expect(sys.listDirs()).not.toContain('/tmp/p1');
    expect(sys.listFiles()).toContain(CHROMIUM);
  });

  it('removes the macOS files it wrote', async () => {
    const sys = darwinMachine();
    const before = snapshot(sys);
    await install(sys, installOptions(DARWIN.host, []));
    await uninstall(sys, uninstallOptions([]));
    expect(snapshot(sys)).toEqual(before);
  });
});

describe('tether uninstall on Windows', () => {
  const chromeKey = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge';

  it('deletes the registry keys it created with reg.exe delete, then the files', async () => {
    const sys = windowsMachine();
    const before = snapshot(sys);
    await install(sys, installOptions(WIN.host, [], { browsers: ['chrome', 'firefox'] }));
    sys.regCalls.length = 0;
    await uninstall(sys, uninstallOptions([]));

    expect(sys.regCalls).toEqual([
      ['query', chromeKey, '/ve'],
      ['delete', chromeKey, '/f'],
      ['query', 'HKCU\\SOFTWARE\\Mozilla\\NativeMessagingHosts\\dev.tether.bridge', '/ve'],
      ['delete', 'HKCU\\SOFTWARE\\Mozilla\\NativeMessagingHosts\\dev.tether.bridge', '/f'],
    ]);
    expect(sys.registry.size).toBe(0);
    expect(snapshot(sys)).toEqual(before);
  });

  it('keeps the shared Chrome key while Brave still uses it', async () => {
    const sys = windowsMachine();
    await install(sys, installOptions(WIN.host, [], { browsers: ['chrome', 'brave'] }));
    sys.regCalls.length = 0;
    const lines: string[] = [];
    await uninstall(sys, uninstallOptions(lines, { browsers: ['chrome'] }));

    expect(sys.regCalls).toEqual([]);
    expect(sys.registry.get(chromeKey.toUpperCase())).toBe(
      `${WIN.local}\\tether\\data\\NativeMessagingHosts\\chrome\\dev.tether.bridge.json`,
    );
    expect(lines).toContain(`  kept            ${chromeKey} (still used by Brave)`);
  });

  it('leaves a key that now points at another manifest', async () => {
    const sys = windowsMachine();
    await install(sys, installOptions(WIN.host, [], { browsers: ['chrome'] }));
    await sys.reg(['add', chromeKey, '/ve', '/t', 'REG_SZ', '/d', 'D:\\other\\host.json', '/f']);
    sys.regCalls.length = 0;
    await uninstall(sys, uninstallOptions([]));

    expect(sys.regCalls).toEqual([['query', chromeKey, '/ve']]);
    expect(sys.registry.get(chromeKey.toUpperCase())).toBe('D:\\other\\host.json');
  });
});
