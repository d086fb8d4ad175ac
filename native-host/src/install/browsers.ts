/**
 * The browsers Tether installs for and where each one looks for native messaging hosts on each OS
 * (the table in shared/reference/native-messaging.md), plus how to tell whether a browser is on this machine.
 */

/** Browser ids accepted by `--browser`. */
export const BROWSER_IDS = ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'firefox'] as const;
/** One of `BROWSER_IDS`. */
export type BrowserId = (typeof BROWSER_IDS)[number];
/** Chrome-family manifests carry `allowed_origins`; Firefox's carry `allowed_extensions`. */
export type Family = 'chrome' | 'firefox';

/** Where one browser looks on Linux. Relative paths are under the user's home; `configDir` is under XDG_CONFIG_HOME. */
interface LinuxPaths {
  /** Chrome family: the user data dir under XDG_CONFIG_HOME (hosts in `<it>/NativeMessagingHosts`). */
  readonly configDir?: string;
  /** Firefox: the per-user hosts dir relative to home. */
  readonly homeHostsDir?: string;
  /** Where the browser reads system-wide hosts; install writes the first. */
  readonly systemDirs: readonly string[];
  /** Commands whose presence on PATH means the browser is installed. */
  readonly executables: readonly string[];
  /** A profile dir relative to home whose presence means the browser has been used. */
  readonly profileDir: string;
  /** A profile dir relative to XDG_CONFIG_HOME that means the same (newer Firefox keeps its profiles there). */
  readonly xdgProfileDir?: string;
  readonly flatpakIds: readonly string[];
  readonly snapNames: readonly string[];
}

interface DarwinPaths {
  /** Relative to home: the user hosts dir. */
  readonly userDir: string;
  readonly systemDir: string;
  /** Relative to home: a profile dir whose presence means the browser has been used. */
  readonly profileDir: string;
  /** Application bundle names looked up in /Applications and ~/Applications. */
  readonly apps: readonly string[];
}

interface WindowsPaths {
  /** Registry key (under HKCU or HKLM) holding `<host name>` subkeys. */
  readonly regKey: string;
  /** Folder name for the manifest file; browsers sharing a key share the file. */
  readonly manifestFolder: string;
  /** Relative to %LOCALAPPDATA% or %APPDATA% (`roaming`): a profile dir meaning the browser has been used. */
  readonly profileDir: string;
  readonly profileRoaming?: boolean;
  /** Relative to %ProgramFiles%, %ProgramFiles(x86)% and %LOCALAPPDATA%: the browser's executable. */
  readonly exes: readonly string[];
}

/** A browser and its paths on every OS. */
export interface Browser {
  readonly id: BrowserId;
  readonly name: string;
  readonly family: Family;
  readonly linux: LinuxPaths;
  readonly darwin: DarwinPaths;
  readonly win32: WindowsPaths;
}

const CHROME_SYSTEM_LINUX = '/etc/opt/chrome/native-messaging-hosts';
const CHROME_SYSTEM_DARWIN = '/Library/Google/Chrome/NativeMessagingHosts';
const CHROME_KEY = 'Software\\Google\\Chrome\\NativeMessagingHosts';
const AS = 'Library/Application Support';

/** Every supported browser, in the order install and doctor report them. */
export const BROWSERS: readonly Browser[] = [
  {
    id: 'chrome',
    name: 'Google Chrome',
    family: 'chrome',
    linux: {
      configDir: 'google-chrome',
      systemDirs: [CHROME_SYSTEM_LINUX],
      executables: ['google-chrome', 'google-chrome-stable', 'google-chrome-beta', 'google-chrome-unstable'],
      profileDir: '.config/google-chrome',
      flatpakIds: ['com.google.Chrome'],
      snapNames: [],
    },
    darwin: {
      userDir: `${AS}/Google/Chrome/NativeMessagingHosts`,
      systemDir: CHROME_SYSTEM_DARWIN,
      profileDir: `${AS}/Google/Chrome`,
      apps: ['Google Chrome.app'],
    },
    win32: {
      regKey: CHROME_KEY,
      manifestFolder: 'chrome',
      profileDir: 'Google\\Chrome\\User Data',
      exes: ['Google\\Chrome\\Application\\chrome.exe'],
    },
  },
  {
    id: 'chromium',
    name: 'Chromium',
    family: 'chrome',
    linux: {
      configDir: 'chromium',
      systemDirs: ['/etc/chromium/native-messaging-hosts'],
      executables: ['chromium', 'chromium-browser'],
      profileDir: '.config/chromium',
      flatpakIds: ['org.chromium.Chromium'],
      snapNames: ['chromium'],
    },
    darwin: {
      userDir: `${AS}/Chromium/NativeMessagingHosts`,
      systemDir: `/${AS}/Chromium/NativeMessagingHosts`,
      profileDir: `${AS}/Chromium`,
      apps: ['Chromium.app'],
    },
    win32: {
      regKey: 'Software\\Chromium\\NativeMessagingHosts',
      manifestFolder: 'chromium',
      profileDir: 'Chromium\\User Data',
      exes: ['Chromium\\Application\\chrome.exe'],
    },
  },
  {
    id: 'edge',
    name: 'Microsoft Edge',
    family: 'chrome',
    linux: {
      configDir: 'microsoft-edge',
      systemDirs: ['/etc/opt/edge/native-messaging-hosts'],
      executables: ['microsoft-edge', 'microsoft-edge-stable', 'microsoft-edge-beta', 'microsoft-edge-dev'],
      profileDir: '.config/microsoft-edge',
      flatpakIds: ['com.microsoft.Edge'],
      snapNames: [],
    },
    darwin: {
      userDir: `${AS}/Microsoft Edge/NativeMessagingHosts`,
      systemDir: '/Library/Microsoft/Edge/NativeMessagingHosts',
      profileDir: `${AS}/Microsoft Edge`,
      apps: ['Microsoft Edge.app'],
    },
    win32: {
      regKey: 'Software\\Microsoft\\Edge\\NativeMessagingHosts',
      manifestFolder: 'edge',
      profileDir: 'Microsoft\\Edge\\User Data',
      exes: ['Microsoft\\Edge\\Application\\msedge.exe'],
    },
  },
  {
    id: 'brave',
    name: 'Brave',
    family: 'chrome',
    linux: {
      configDir: 'BraveSoftware/Brave-Browser',
      systemDirs: [CHROME_SYSTEM_LINUX],
      executables: ['brave-browser', 'brave-browser-stable', 'brave'],
      profileDir: '.config/BraveSoftware/Brave-Browser',
      flatpakIds: ['com.brave.Browser'],
      snapNames: ['brave'],
    },
    darwin: {
      userDir: `${AS}/BraveSoftware/Brave-Browser/NativeMessagingHosts`,
      systemDir: CHROME_SYSTEM_DARWIN,
      profileDir: `${AS}/BraveSoftware/Brave-Browser`,
      apps: ['Brave Browser.app'],
    },
    win32: {
      regKey: CHROME_KEY,
      manifestFolder: 'chrome',
      profileDir: 'BraveSoftware\\Brave-Browser\\User Data',
      exes: ['BraveSoftware\\Brave-Browser\\Application\\brave.exe'],
    },
  },
  {
    id: 'vivaldi',
    name: 'Vivaldi',
    family: 'chrome',
    linux: {
      configDir: 'vivaldi',
      systemDirs: [CHROME_SYSTEM_LINUX],
      executables: ['vivaldi', 'vivaldi-stable'],
      profileDir: '.config/vivaldi',
      flatpakIds: ['com.vivaldi.Vivaldi'],
      snapNames: ['vivaldi'],
    },
    darwin: {
      userDir: `${AS}/Vivaldi/NativeMessagingHosts`,
      systemDir: CHROME_SYSTEM_DARWIN,
      profileDir: `${AS}/Vivaldi`,
      apps: ['Vivaldi.app'],
    },
    win32: {
      regKey: CHROME_KEY,
      manifestFolder: 'chrome',
      profileDir: 'Vivaldi\\User Data',
      exes: ['Vivaldi\\Application\\vivaldi.exe'],
    },
  },
  {
    id: 'firefox',
    name: 'Firefox',
    family: 'firefox',
    linux: {
      homeHostsDir: '.mozilla/native-messaging-hosts',
      systemDirs: ['/usr/lib/mozilla/native-messaging-hosts', '/usr/lib64/mozilla/native-messaging-hosts'],
      executables: ['firefox', 'firefox-esr', 'firefox-developer-edition', 'firefox-nightly'],
      profileDir: '.mozilla/firefox',
      xdgProfileDir: 'mozilla/firefox',
      flatpakIds: ['org.mozilla.firefox'],
      snapNames: ['firefox'],
    },
    darwin: {
      userDir: `${AS}/Mozilla/NativeMessagingHosts`,
      systemDir: `/${AS}/Mozilla/NativeMessagingHosts`,
      profileDir: `${AS}/Firefox`,
      apps: ['Firefox.app', 'Firefox Developer Edition.app', 'Firefox Nightly.app'],
    },
    win32: {
      regKey: 'SOFTWARE\\Mozilla\\NativeMessagingHosts',
      manifestFolder: 'firefox',
      profileDir: 'Mozilla\\Firefox',
      profileRoaming: true,
      exes: ['Mozilla Firefox\\firefox.exe'],
    },
  },
];

/** The browser with this id. */
export function browserById(id: BrowserId): Browser {
  const browser = BROWSERS.find((b) => b.id === id);
  if (!browser) throw new Error(`unknown browser "${id}"`);
  return browser;
}

/** Whether a string is one of `BROWSER_IDS`. */
export function isBrowserId(value: string): value is BrowserId {
  return (BROWSER_IDS as readonly string[]).includes(value);
}
