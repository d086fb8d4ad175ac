/**
 * Where Tether keeps its files on each OS: config, data (threads), state (logs).
 * Every function takes an injectable environment so install/doctor tests can ask "where would this go on macOS".
 */
import { homedir as osHomedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** The facts a path depends on; each defaults to the running process's. */
export interface PathEnv {
  readonly platform?: NodeJS.Platform;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly homedir?: string;
}

interface Resolved {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly path: typeof posix;
}

const APP = 'tether';

function resolve(options: PathEnv = {}): Resolved {
  const platform = options.platform ?? process.platform;
  return {
    platform,
    env: options.env ?? process.env,
    home: options.homedir ?? osHomedir(),
    path: platform === 'win32' ? win32 : posix,
  };
}

/** An XDG variable counts only when absolute (the spec says relative values must be ignored). */
function xdg(r: Resolved, name: string): string | undefined {
  const value = r.env[name];
  return value && r.path.isAbsolute(value) ? value : undefined;
}

function windowsAppData(r: Resolved, name: 'APPDATA' | 'LOCALAPPDATA'): string {
  const value = r.env[name];
  if (value) return value;
  return name === 'APPDATA' ? r.path.join(r.home, 'AppData', 'Roaming') : r.path.join(r.home, 'AppData', 'Local');
}

/**
 * The config directory: `$XDG_CONFIG_HOME/tether` (default `~/.config/tether`) on Linux and when XDG_CONFIG_HOME is
 * set elsewhere; `~/Library/Application Support/tether` on macOS; `%APPDATA%\tether` on Windows.
 */
export function configDir(options?: PathEnv): string {
  const r = resolve(options);
  if (r.platform === 'win32') return r.path.join(windowsAppData(r, 'APPDATA'), APP);
  const explicit = xdg(r, 'XDG_CONFIG_HOME');
  if (explicit) return r.path.join(explicit, APP);
  if (r.platform === 'darwin') return r.path.join(r.home, 'Library', 'Application Support', APP);
  return r.path.join(r.home, '.config', APP);
}

/**
 * The data directory (threads, history): `$XDG_DATA_HOME/tether` (default `~/.local/share/tether`);
 * `~/Library/Application Support/tether/data` on macOS; `%LOCALAPPDATA%\tether\data` on Windows.
 */
export function dataDir(options?: PathEnv): string {
  const r = resolve(options);
  if (r.platform === 'win32') return r.path.join(windowsAppData(r, 'LOCALAPPDATA'), APP, 'data');
  const explicit = xdg(r, 'XDG_DATA_HOME');
  if (explicit) return r.path.join(explicit, APP);
  if (r.platform === 'darwin') return r.path.join(r.home, 'Library', 'Application Support', APP, 'data');
  return r.path.join(r.home, '.local', 'share', APP);
}

/**
 * The state directory (logs): `$XDG_STATE_HOME/tether` (default `~/.local/state/tether`); `~/Library/Logs/tether`
 * on macOS (where Console.app looks); `%LOCALAPPDATA%\tether\state` on Windows.
 */
export function stateDir(options?: PathEnv): string {
  const r = resolve(options);
  if (r.platform === 'win32') return r.path.join(windowsAppData(r, 'LOCALAPPDATA'), APP, 'state');
  const explicit = xdg(r, 'XDG_STATE_HOME');
  if (explicit) return r.path.join(explicit, APP);
  if (r.platform === 'darwin') return r.path.join(r.home, 'Library', 'Logs', APP);
  return r.path.join(r.home, '.local', 'state', APP);
}

/** The host's log file: `host.log` in the state directory (rotated to `host.log.1` when it grows past its cap). */
export function logFile(options?: PathEnv): string {
  return resolve(options).path.join(stateDir(options), 'host.log');
}

/** The daemon's log file: `daemon.log` beside `host.log`. */
export function daemonLogFile(options?: PathEnv): string {
  return resolve(options).path.join(stateDir(options), 'daemon.log');
}

/** The config file: `$TETHER_CONFIG` when set, else `config.json` in the config directory. */
export function configFile(options?: PathEnv): string {
  const r = resolve(options);
  const override = r.env['TETHER_CONFIG'];
  if (override) return r.path.resolve(override);
  return r.path.join(configDir(options), 'config.json');
}
