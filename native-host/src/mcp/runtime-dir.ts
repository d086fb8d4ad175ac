/**
 * Where running hosts can be found by `tether mcp`: a per-user folder holding, per host, its socket
 * (`host-PID.sock`), what it is (`host-PID.json`: browser, pid, start time) and the token for external clients
 * (`host-PID.token`, 0600); a browser connection the daemon serves is announced the same way as `host-PID-N.*`.
 * The host and `tether mcp` must agree on it, yet they run with different environments: the browser starts the host
 * from the desktop session, while MCP clients start `tether mcp` with what they choose to pass (Codex passes only
 * HOME, PATH, LANG, SHELL, TERM and CA variables, no XDG_RUNTIME_DIR). So the folder is derived from the user id,
 * never from inherited variables: `/run/user/UID/tether` on Linux when `/run/user/UID` is a private folder of this
 * user (what systemd-logind makes and XDG_RUNTIME_DIR normally names), else `/tmp/tether-UID` (also on macOS, whose
 * per-user TMPDIR comes only from the environment); on Windows `<home>\AppData\Local\tether\run` (sockets there are
 * named pipes, which any local user may open: the token is what keeps them out). `TETHER_RUNTIME_DIR` (an absolute
 * path) overrides the rule on both sides. Socket paths stay short: a Unix socket's path must fit in about 100 bytes.
 */
import { lstatSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join, win32 } from 'node:path';
import { ensurePrivateDir } from '../private-files';

/** The environment variable that overrides the runtime folder (for the host and `tether mcp` alike). */
export const RUNTIME_DIR_ENV = 'TETHER_RUNTIME_DIR';

/** The facts about this user the folder is derived from; each defaults to the running process's own. */
export interface RuntimeUser {
  readonly uid?: number;
  /** The user's home folder from the user database (not HOME): used on Windows. */
  readonly home?: string;
  /** lstat of a path, undefined when it does not exist. */
  readonly lstat?: (path: string) => Pick<Stats, 'isDirectory' | 'uid' | 'mode'> | undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The per-user folder of running hosts (not created): the same for every process of this user, whatever its env. */
export function runtimeDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  user: RuntimeUser = {},
): string {
  const override = env[RUNTIME_DIR_ENV];
  if (override && (platform === 'win32' ? win32.isAbsolute(override) : isAbsolute(override))) return override;
  if (platform === 'win32') return win32.join(user.home ?? userInfo().homedir, 'AppData', 'Local', 'tether', 'run');
  const uid = user.uid ?? process.getuid?.() ?? 0;
  if (platform === 'linux') {
    const session = `/run/user/${uid}`;
    const stat = (user.lstat ?? lstatOrUndefined)(session);
    if (stat?.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0) return join(session, 'tether');
  }
  return join('/tmp', `tether-${uid}`);
}

/**
 * The name one MCP hub announces itself under: `PID` for a host serving its browser in-process, `PID-CONNECTION` for
 * a browser connection the daemon (pid PID) serves, so that the daemon's connections never share files with each
 * other or with a host (whose pid is its own process's, never the daemon's while it runs).
 */
export function hubName(pid: number, connection?: number): string {
  return connection === undefined ? `${pid}` : `${pid}-${connection}`;
}

/** What an announcement file is named: `host-NAME.json`, NAME as hubName() makes it. */
export const ANNOUNCEMENT_FILE = /^host-\d+(?:-\d+)?\.json$/;

/** The files of the hub named `name` (hubName()) in `dir`. */
export function hostFiles(dir: string, name: string, platform: NodeJS.Platform = process.platform) {
  return {
    socket:
      platform === 'win32'
        ? `\\\\.\\pipe\\tether-${process.env['USERNAME'] ?? 'user'}-${name}`
        : join(dir, `host-${name}.sock`),
    info: join(dir, `host-${name}.json`),
    token: join(dir, `host-${name}.token`),
  };
}

/** A folder Tether may keep sockets and tokens in; says why not (someone else's, a link, readable by others). */
export class RuntimeDirError extends Error {
  override name = 'RuntimeDirError';
}

/**
 * Creates `dir` as 0700 (tightening one of ours) and checks that it is a real folder of this user that no one else
 * can enter: /tmp/tether-UID may have been made by someone else first.
 */
export function ensureRuntimeDir(dir: string, log?: (line: string) => void): void {
  ensurePrivateDir(dir, log);
  if (process.platform === 'win32') return;
  const stat = lstatSync(dir);
  if (!stat.isDirectory())
    throw new RuntimeDirError(`${dir} is not a folder (a link?): remove it so Tether can make its own`);
  if (process.getuid && stat.uid !== process.getuid())
    throw new RuntimeDirError(
      `${dir} belongs to another user: remove it, or set ${RUNTIME_DIR_ENV} to a folder of yours (for the browser and for tether mcp)`,
    );
  if ((stat.mode & 0o077) !== 0)
    throw new RuntimeDirError(
      `${dir} is open to other users (mode 0${(stat.mode & 0o777).toString(8)}): run chmod 700 on it`,
    );
}
