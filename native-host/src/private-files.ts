/**
 * Tether's folders (data, state, config) and files (journals, indexes, the log) hold page text, command output and
 * sometimes keys: folders are 0700 and files 0600, whatever the umask. Folders and files left looser by an older
 * version are tightened when Tether opens them, with a log line saying so. Mode bits mean nothing on Windows, where
 * the per-user profile folders are already private: nothing is changed there.
 */
import { chmodSync, fchmodSync, fstatSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { errorMessage } from '@tether/protocol/errors';

/** Mode of Tether's folders. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of Tether's files. */
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';

/**
 * Creates `dir` (and missing parents) as 0700, or tightens an existing `dir` that others may read. Only `dir` itself
 * is tightened: the parents are the user's. Throws when it cannot be created.
 */
export function ensurePrivateDir(dir: string, log?: (line: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!POSIX) return;
  const stat = statSync(dir);
  tighten(dir, stat.mode, stat.uid, PRIVATE_DIR_MODE, (mode) => chmodSync(dir, mode), log);
}

/** Tightens an open file of Tether's (`fd`, named `path` in the log line) to 0600 when others may read it. */
export function tightenOpenFile(fd: number, path: string, log?: (line: string) => void): void {
  if (!POSIX) return;
  const stat = fstatSync(fd);
  tighten(path, stat.mode, stat.uid, PRIVATE_FILE_MODE, (mode) => fchmodSync(fd, mode), log);
}

/** Tightens the file at `path` to 0600 when it exists and others may read it. */
export function tightenFile(path: string, log?: (line: string) => void): void {
  if (!POSIX) return;
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (stat) tighten(path, stat.mode, stat.uid, PRIVATE_FILE_MODE, (mode) => chmodSync(path, mode), log);
}

function tighten(
  path: string,
  current: number,
  uid: number,
  wanted: number,
  chmod: (mode: number) => void,
  log?: (line: string) => void,
): void {
  const mode = current & 0o777;
  if ((mode & 0o077) === 0) return;
  const octal = (m: number): string => `0${m.toString(8)}`;
  // Someone else's folder (a shared dataDir, /tmp): changing it is not ours to do, and would fail anyway.
  if (process.getuid && uid !== process.getuid()) {
    log?.(
      `${path} is readable by others (mode ${octal(mode)}) and belongs to another user: keep Tether's data elsewhere`,
    );
    return;
  }
  try {
    chmod(mode & ~0o077 & wanted);
    log?.(
      `tightened the permissions of ${path} from ${octal(mode)} to ${octal(mode & ~0o077 & wanted)}: it may hold page text, command output or keys`,
    );
  } catch (error) {
    log?.(
      `cannot tighten the permissions of ${path} (mode ${octal(mode)}): ${errorMessage(error)}; run chmod ${octal(wanted)} on it`,
    );
  }
}
