/**
 * The one PATH lookup: which files a command name may be (PATH entries in order, with PATHEXT on Windows), and the
 * first that this user may run. Backends, the bash tool, the options page's agent list and `tether install`/`doctor`
 * all find commands through it, so they agree on what is installed. The candidates are computed apart from the file
 * checks so that install's in-memory machines (memory-system.ts) run the same lookup as this one.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

/** Where to look for a command: an environment's PATH (and PATHEXT), for one platform. */
export interface LookupSpec {
  /** `PATH` (or Windows' `Path`) and `PATHEXT` are read from it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Defaults to this process's platform. */
  readonly platform?: NodeJS.Platform;
  /** What a relative command with a directory in it (`./bin/agent`) is resolved against; defaults to this process's. */
  readonly cwd?: string;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** The PATHEXT extensions, lower case (`.cmd`), that make a file runnable on Windows. */
export function pathExtensions(env: LookupSpec['env']): string[] {
  return (env['PATHEXT'] ?? DEFAULT_PATHEXT).toLowerCase().split(';').filter(Boolean);
}

/**
 * The files `command` may be, in the order a lookup tries them: a command with a directory in it is that file
 * (relative to `cwd`), a bare name is looked for in each absolute PATH entry. On Windows each is tried as written and
 * then with each PATHEXT extension.
 */
export function commandCandidates(command: string, spec: LookupSpec): string[] {
  const platform = spec.platform ?? process.platform;
  const path = platform === 'win32' ? win32 : posix;
  const extensions = platform === 'win32' ? ['', ...pathExtensions(spec.env)] : [''];
  const spelled = (file: string) => extensions.map((ext) => file + ext);
  if (path.isAbsolute(command)) return spelled(command);
  if (command.includes('/') || (platform === 'win32' && command.includes('\\')))
    return spelled(path.resolve(spec.cwd ?? process.cwd(), command));
  const pathVar = spec.env['PATH'] ?? spec.env['Path'] ?? '';
  // A relative PATH entry depends on the working directory the browser gave the host: never trust it.
  const dirs = pathVar.split(path.delimiter).filter((dir) => dir !== '' && path.isAbsolute(dir));
  return dirs.flatMap((dir) => spelled(path.join(dir, command)));
}

/**
 * Whether `file` is a regular file this user may run on this machine: the execute permission on POSIX, a PATHEXT
 * extension on Windows (where permissions do not say it). Never throws.
 */
export function isRunnableFile(file: string, platform: NodeJS.Platform, env: LookupSpec['env']): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform === 'win32') return pathExtensions(env).some((ext) => file.toLowerCase().endsWith(ext));
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds `command` on this machine: the path of the first candidate this user may run, or undefined. */
export function findCommand(command: string, spec: LookupSpec): string | undefined {
  const platform = spec.platform ?? process.platform;
  return commandCandidates(command, spec).find((file) => isRunnableFile(file, platform, spec.env));
}
