/** In-memory Linux, macOS and Windows machines shared by the install, uninstall and doctor tests. */
import { type DoctorOptions, doctor } from './doctor';
import { type InstallOptions, install } from './install';
import type { MemorySystem, MemorySystemOptions } from './memory-system';
import { createMemorySystem, scriptedHost } from './memory-system';
import type { UninstallOptions } from './uninstall';

/** Where each test machine keeps the bundled host and Node. */
export const LINUX = {
  home: '/home/ada',
  node: '/home/ada/.nvm/versions/node/v20.20.2/bin/node',
  host: '/opt/tether/native-host/dist/tether.mjs',
} as const;
export const DARWIN = {
  home: '/Users/ada',
  node: '/opt/homebrew/bin/node',
  host: '/Users/ada/src/tether/native-host/dist/tether.mjs',
} as const;
export const WIN = {
  home: 'C:\\Users\\Ada',
  node: 'C:\\Program Files\\nodejs\\node.exe',
  host: 'C:\\Users\\Ada\\src\\tether\\native-host\\dist\\tether.mjs',
  local: 'C:\\Users\\Ada\\AppData\\Local',
} as const;

type Extra = Partial<Omit<MemorySystemOptions, 'platform' | 'homedir'>>;

const node20 = () => ({ code: 0, stdout: 'v20.20.2\n', stderr: '' });

/** A Linux desktop with Chrome used, Chromium installed (on PATH) and Firefox used. */
export function linuxMachine(extra: Extra = {}): MemorySystem {
  return createMemorySystem({
    platform: 'linux',
    homedir: LINUX.home,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: LINUX.home },
    execPath: LINUX.node,
    dirs: ['/home/ada/.config/google-chrome/Default', '/home/ada/.mozilla/firefox', '/etc', '/usr/lib'],
    readOnly: ['/etc', '/usr'],
    commands: { [LINUX.node]: node20 },
    ...extra,
    files: {
      [LINUX.host]: '// bundled host',
      [LINUX.node]: { text: 'ELF', mode: 0o755 },
      '/usr/bin/chromium': { text: 'ELF', mode: 0o755 },
      ...extra.files,
    },
  });
}

/** A Mac with Chrome and Firefox applications. */
export function darwinMachine(extra: Extra = {}): MemorySystem {
  return createMemorySystem({
    platform: 'darwin',
    homedir: DARWIN.home,
    env: { PATH: '/usr/bin:/bin', HOME: DARWIN.home },
    execPath: DARWIN.node,
    dirs: ['/Applications/Google Chrome.app/Contents', '/Applications/Firefox.app/Contents', '/Library'],
    readOnly: ['/Library'],
    commands: { [DARWIN.node]: node20 },
    ...extra,
    files: { [DARWIN.host]: '// bundled host', [DARWIN.node]: { text: 'Mach-O', mode: 0o755 }, ...extra.files },
  });
}

/** A Windows PC with Chrome and Edge installed and Firefox used. */
export function windowsMachine(extra: Extra = {}): MemorySystem {
  return createMemorySystem({
    platform: 'win32',
    homedir: WIN.home,
    env: {
      Path: 'C:\\Windows\\System32;C:\\Program Files\\nodejs',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      LOCALAPPDATA: WIN.local,
      APPDATA: 'C:\\Users\\Ada\\AppData\\Roaming',
      ProgramFiles: 'C:\\Program Files',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      ProgramData: 'C:\\ProgramData',
      ComSpec: 'C:\\Windows\\System32\\cmd.exe',
    },
    execPath: WIN.node,
    dirs: ['C:\\Users\\Ada\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles'],
    commands: { [WIN.node]: node20 },
    ...extra,
    files: {
      [WIN.host]: '// bundled host',
      [WIN.node]: 'MZ',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe': 'MZ',
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe': 'MZ',
      ...extra.files,
    },
  });
}

/** The ids of a user's own build (not the development ones) that test installs allow unless told otherwise. */
export const OWN_IDS = { chrome: 'abcdefghijklmnopabcdefghijklmnop', firefox: 'tether@example.org' } as const;
/** The development extension's origin, as Chrome passes it to the host. */
export const DEV_ORIGIN = 'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/';
/** The origin of OWN_IDS.chrome. */
export const OWN_ORIGIN = `chrome-extension://${OWN_IDS.chrome}/`;

/** Install options with the test host path and OWN_IDS; `lines` collects the output. */
export function installOptions(
  hostScript: string,
  lines: string[],
  options: Partial<InstallOptions> = {},
): InstallOptions {
  return {
    extensionIds: [OWN_IDS.chrome, OWN_IDS.firefox],
    dev: false,
    scope: 'user',
    dryRun: false,
    hostScript,
    buildHost: async () => {
      throw new Error('the bundle exists in this test; building it is unexpected');
    },
    tetherVersion: '0.1.0',
    out: (line) => lines.push(line),
    ...options,
  };
}

/** Uninstall options; `lines` collects the output. */
export function uninstallOptions(lines: string[], options: Partial<UninstallOptions> = {}): UninstallOptions {
  return { scope: 'user', dryRun: false, out: (line) => lines.push(line), ...options };
}

/** Doctor options; `lines` collects the output. */
export function doctorOptions(lines: string[], options: Partial<DoctorOptions> = {}): DoctorOptions {
  return {
    extensionIds: [],
    command: 'tether',
    tetherVersion: '0.1.0',
    timeoutMs: 5_000,
    presets: [],
    out: (line) => lines.push(line),
    ...options,
  };
}

/** Every file's text, by path (for whole-machine snapshots). */
export function snapshot(sys: MemorySystem): Record<string, string> {
  return Object.fromEntries(sys.listFiles().map((p) => [p, sys.readText(p)]));
}

/** The launcher `tether install` writes on the Linux machine. */
export const LINUX_LAUNCHER = '/home/ada/.local/share/tether/bin/tether-host';
/** What the probe adds to the host's environment: in-process, so doctor never starts the user's daemon. */
export const IN_PROCESS = { TETHER_DAEMON: '0' };

/** A host that answers initialize the way the reference app-server does. */
export function goodHost(): ReturnType<typeof scriptedHost> {
  return scriptedHost((message) =>
    message.method === 'initialize'
      ? {
          id: message.id,
          result: {
            serverInfo: { name: 'tether-app-server', version: '0.1.0' },
            protocolVersion: '1',
            supportedTransports: ['stdio'],
            capabilities: {},
          },
        }
      : undefined,
  );
}

/** The Linux machine after `tether install` for Chromium and Firefox; its hosts are good ones unless `extra` says. */
export async function installedLinux(extra: Extra = {}): Promise<MemorySystem> {
  const sys = linuxMachine({ spawn: () => goodHost(), ...extra });
  await install(sys, installOptions(LINUX.host, [], { browsers: ['chromium', 'firefox'] }));
  return sys;
}

/** Runs `tether doctor` on `sys`: its exit code and the lines it wrote, also joined as `text`. */
export async function runDoctor(sys: MemorySystem, options: Partial<DoctorOptions> = {}) {
  const lines: string[] = [];
  const code = await doctor(sys, doctorOptions(lines, options));
  return { code, lines, text: lines.join('\n') };
}
