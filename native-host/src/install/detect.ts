/** Finding the browsers on this machine, including Flatpak and Snap ones that cannot start a native host directly. */
import type { Browser } from './browsers';
import { BROWSERS } from './browsers';
import type { System } from './system';
import { linuxConfigHome } from './locations';
import { findOnPath, pathFor } from './system';

/** A browser found on the machine and what gave it away. */
export interface DetectedBrowser {
  readonly browser: Browser;
  readonly evidence: string;
}

/** A browser installed as a Flatpak or a Snap. */
export interface SandboxedBrowser {
  readonly browser: Browser;
  readonly kind: 'flatpak' | 'snap';
  /** The path that shows it is installed. */
  readonly path: string;
  /** Flatpak app id or Snap name. */
  readonly appId: string;
}

async function isDir(sys: System, path: string): Promise<boolean> {
  return (await sys.fs.stat(path))?.kind === 'directory';
}

async function isFile(sys: System, path: string): Promise<boolean> {
  return (await sys.fs.stat(path))?.kind === 'file';
}

async function evidenceFor(sys: System, browser: Browser): Promise<string | undefined> {
  const path = pathFor(sys.platform);
  if (sys.platform === 'linux') {
    const { profileDir, configDir, xdgProfileDir } = browser.linux;
    const profiles = [path.join(sys.homedir, profileDir)];
    for (const dir of [configDir, xdgProfileDir]) if (dir) profiles.push(path.join(linuxConfigHome(sys), dir));
    for (const profile of profiles) if (await isDir(sys, profile)) return profile;
    for (const exe of browser.linux.executables) {
      const found = await findOnPath(sys, exe);
      if (found) return found;
    }
    return undefined;
  }
  if (sys.platform === 'darwin') {
    const profile = path.join(sys.homedir, browser.darwin.profileDir);
    if (await isDir(sys, profile)) return profile;
    for (const app of browser.darwin.apps) {
      for (const dir of ['/Applications', path.join(sys.homedir, 'Applications')]) {
        if (await isDir(sys, path.join(dir, app))) return path.join(dir, app);
      }
    }
    return undefined;
  }
  const local = sys.env.LOCALAPPDATA ?? path.join(sys.homedir, 'AppData', 'Local');
  const roaming = sys.env.APPDATA ?? path.join(sys.homedir, 'AppData', 'Roaming');
  const profile = path.join(browser.win32.profileRoaming ? roaming : local, browser.win32.profileDir);
  if (await isDir(sys, profile)) return profile;
  const roots = [sys.env.ProgramFiles, sys.env['ProgramFiles(x86)'], local].filter((r): r is string => !!r);
  for (const root of roots) {
    for (const exe of browser.win32.exes) {
      if (await isFile(sys, path.join(root, exe))) return path.join(root, exe);
    }
  }
  return undefined;
}

/** Browsers installed or used on this machine (profile dir, application or executable found), in table order. */
export async function detectBrowsers(sys: System): Promise<DetectedBrowser[]> {
  const found: DetectedBrowser[] = [];
  for (const browser of BROWSERS) {
    const evidence = await evidenceFor(sys, browser);
    if (evidence) found.push({ browser, evidence });
  }
  return found;
}

/** Flatpak and Snap browsers (Linux only). */
export async function detectSandboxed(sys: System): Promise<SandboxedBrowser[]> {
  if (sys.platform !== 'linux') return [];
  const path = pathFor(sys.platform);
  const found: SandboxedBrowser[] = [];
  for (const browser of BROWSERS) {
    for (const appId of browser.linux.flatpakIds) {
      const places = [
        path.join(sys.homedir, '.var', 'app', appId),
        path.join(sys.homedir, '.local', 'share', 'flatpak', 'app', appId),
        path.join('/var/lib/flatpak/app', appId),
      ];
      for (const place of places) {
        if (await isDir(sys, place)) {
          found.push({ browser, kind: 'flatpak', path: place, appId });
          break;
        }
      }
    }
    for (const name of browser.linux.snapNames) {
      for (const place of [path.join('/snap', name), path.join(sys.homedir, 'snap', name)]) {
        if (await isDir(sys, place)) {
          found.push({ browser, kind: 'snap', path: place, appId: name });
          break;
        }
      }
    }
  }
  return found;
}

/** Why a sandboxed browser will not start the host, and what to do about it. */
export function explainSandboxed(s: SandboxedBrowser): string {
  if (s.kind === 'flatpak') {
    return (
      `${s.browser.name} is installed as a Flatpak (${s.path}). Flatpak browsers run in a sandbox: their profile ` +
      `lives under ~/.var/app/${s.appId}/ and they cannot start programs outside the sandbox, so they never start ` +
      `the Tether host. Use the browser from your distribution's packages or the vendor's .deb/.rpm.`
    );
  }
  return (
    `${s.browser.name} is installed as a Snap (${s.path}). Snap confinement keeps its profile under ~/snap/${s.appId}/ ` +
    `and stops it from starting programs such as the Tether host.` +
    (s.browser.family === 'firefox'
      ? " Recent Firefox snaps ask the desktop's native-messaging portal (xdg-desktop-portal) to start hosts listed in " +
        '~/.mozilla/native-messaging-hosts; if that portal is missing, use a non-Snap Firefox.'
      : ' Use a .deb/.rpm build of the browser.')
  );
}
