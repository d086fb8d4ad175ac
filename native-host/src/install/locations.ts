/**
 * Where things go: each browser's manifest location for a scope (a directory, or on Windows a registry key plus a
 * manifest file in Tether's folder), where each browser looks (doctor), and where Tether keeps its launcher and record.
 */
import { dataDir } from '../paths';
import type { Browser } from './browsers';
import { HOST_NAME } from './manifest';
import type { System } from './system';
import { pathFor } from './system';

/** `user` writes for the current user; `system` for every user of the machine (needs admin rights). */
export type Scope = 'user' | 'system';

/** A place a browser finds the host manifest. */
export type Location =
  | { readonly kind: 'dir'; readonly dir: string; readonly manifestPath: string }
  | { readonly kind: 'registry'; readonly key: string; readonly manifestPath: string };

/** Tether's own files for a scope. */
export interface TetherPaths {
  /** The folder holding the launchers, the install record, (Windows) the manifests and the copied host. */
  readonly root: string;
  readonly launcher: string;
  /** The launcher of `tether install --dev`: it also lets the development extension start the host. */
  readonly devLauncher: string;
  readonly record: string;
}

const MANIFEST_FILE = `${HOST_NAME}.json`;

/** Tether's launcher and install record: the data dir for `user`, a machine-wide folder for `system`. */
export function tetherPaths(sys: System, scope: Scope): TetherPaths {
  const path = pathFor(sys.platform);
  let root: string;
  if (scope === 'user') root = dataDir({ platform: sys.platform, env: sys.env, homedir: sys.homedir });
  // Not %ProgramData%: every user may create files in its subfolders, so one could plant a launcher before install.
  else if (sys.platform === 'win32')
    root = path.join(sys.env.ProgramFiles ?? sys.env.PROGRAMFILES ?? 'C:\\Program Files', 'Tether');
  else if (sys.platform === 'darwin') root = '/Library/Application Support/Tether';
  else root = '/usr/local/lib/tether';
  const inBin = (name: string) => path.join(root, 'bin', sys.platform === 'win32' ? `${name}.cmd` : name);
  return {
    root,
    launcher: inBin('tether-host'),
    devLauncher: inBin('tether-host-dev'),
    record: path.join(root, 'install-record.json'),
  };
}

/**
 * Where install copies the bundled host, one folder per version, beside the launcher: for `system` machine-wide and
 * writable by root or administrators only, so no user's checkout decides what every user's browser runs.
 */
export function hostDir(sys: System, scope: Scope, version: string): string {
  return pathFor(sys.platform).join(tetherPaths(sys, scope).root, 'host', version);
}

/** `$XDG_CONFIG_HOME` when absolute, else `~/.config` (Chromium on Linux puts its user data dir there). */
/** `$XDG_CONFIG_HOME` when it is absolute, else `~/.config` (where Chromium and Firefox 147+ keep their profiles). */
export function linuxConfigHome(sys: System): string {
  const path = pathFor(sys.platform);
  const xdg = sys.env.XDG_CONFIG_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(sys.homedir, '.config');
}

function inDir(sys: System, dir: string): Location {
  return { kind: 'dir', dir, manifestPath: pathFor(sys.platform).join(dir, MANIFEST_FILE) };
}

/** The registry key path (`HKCU\...\dev.tether.bridge`) for a browser and scope. */
export function registryKey(browser: Browser, scope: Scope): string {
  return `${scope === 'user' ? 'HKCU' : 'HKLM'}\\${browser.win32.regKey}\\${HOST_NAME}`;
}

/**
 * Where install writes a browser's manifest. `userDataDir` (Chrome family on Linux/macOS only) replaces the browser's
 * default profile location, as Chromium started with `--user-data-dir=DIR` reads `DIR/NativeMessagingHosts`.
 */
export function installLocation(sys: System, browser: Browser, scope: Scope, userDataDir?: string): Location {
  const path = pathFor(sys.platform);
  if (userDataDir !== undefined) return inDir(sys, path.join(userDataDir, 'NativeMessagingHosts'));
  if (sys.platform === 'win32') {
    const root = tetherPaths(sys, scope).root;
    const manifestPath = path.join(root, 'NativeMessagingHosts', browser.win32.manifestFolder, MANIFEST_FILE);
    return { kind: 'registry', key: registryKey(browser, scope), manifestPath };
  }
  if (sys.platform === 'darwin') {
    return inDir(sys, scope === 'user' ? path.join(sys.homedir, browser.darwin.userDir) : browser.darwin.systemDir);
  }
  if (scope === 'system') return inDir(sys, browser.linux.systemDirs[0]!);
  if (browser.linux.configDir)
    return inDir(sys, path.join(linuxConfigHome(sys), browser.linux.configDir, 'NativeMessagingHosts'));
  return inDir(sys, path.join(sys.homedir, browser.linux.homeHostsDir!));
}

/**
 * Every place the browser looks for the manifest, in the browser's order (user level before system level; on
 * Windows HKCU before HKLM). With `userDataDir`, that dir replaces the default user location.
 */
export function lookupLocations(sys: System, browser: Browser, userDataDir?: string): Location[] {
  if (sys.platform === 'win32') {
    const user = installLocation(sys, browser, 'user');
    const system = installLocation(sys, browser, 'system');
    // The manifest path comes from the key's value, read at lookup time; these paths are only what install would use.
    return [user, system];
  }
  const user = installLocation(sys, browser, 'user', userDataDir);
  const systemDirs = sys.platform === 'darwin' ? [browser.darwin.systemDir] : browser.linux.systemDirs;
  return [user, ...systemDirs.map((dir) => inDir(sys, dir))];
}
