/**
 * Where running hosts can be found by `tether mcp`: a per-user folder holding, per host, its socket
 * (`host-PID.sock`), what it is (`host-PID.json`: browser, pid, start time) and the token for external clients
 * (`host-PID.token`, 0600). The folder is `$XDG_RUNTIME_DIR/tether` (a per-user tmpfs) on Linux, `$TMPDIR/tether`
 * (per-user) on macOS, `/tmp/tether-UID` when neither is set, `%LOCALAPPDATA%\tether\run` on Windows (sockets there
 * are named pipes, which any local user may open: the token is what keeps them out). Socket paths stay short: a
 * Unix socket's path must fit in about 100 bytes.
 */
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir } from '../private-files';

/** The per-user folder of running hosts (not created). */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env['LOCALAPPDATA'] ?? tmpdir(), 'tether', 'run');
  const xdg = env['XDG_RUNTIME_DIR'];
  if (xdg?.startsWith('/')) return join(xdg, 'tether');
  if (platform === 'darwin' && env['TMPDIR']?.startsWith('/')) return join(env['TMPDIR'], 'tether');
  return join('/tmp', `tether-${process.getuid?.() ?? 'user'}`);
}

/** The files of host `pid` in `dir`. */
export function hostFiles(dir: string, pid: number, platform: NodeJS.Platform = process.platform) {
  return {
    socket:
      platform === 'win32'
        ? `\\\\.\\pipe\\tether-${process.env['USERNAME'] ?? 'user'}-${pid}`
        : join(dir, `host-${pid}.sock`),
    info: join(dir, `host-${pid}.json`),
    token: join(dir, `host-${pid}.token`),
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
    throw new RuntimeDirError(`${dir} belongs to another user: remove it, or set XDG_RUNTIME_DIR to a folder of yours`);
  if ((stat.mode & 0o077) !== 0)
    throw new RuntimeDirError(
      `${dir} is open to other users (mode 0${(stat.mode & 0o777).toString(8)}): run chmod 700 on it`,
    );
}
