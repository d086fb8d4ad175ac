/**
 * Everything install, uninstall and doctor need from the operating system, behind one interface so the same code can
 * be driven against a real machine (node-system.ts) or an in-memory Linux, macOS or Windows (memory-system.ts).
 */
import { posix, win32 } from 'node:path';
import { commandCandidates } from '../command-lookup';

/** The platforms Tether installs for. */
export type Platform = 'linux' | 'darwin' | 'win32';

/** What `stat` reports about a path (after following symlinks). */
export interface PathInfo {
  readonly kind: 'file' | 'directory' | 'other';
  /** POSIX permission bits (0 on Windows). */
  readonly mode: number;
}

/** File system access; paths are absolute in the flavour of `System.path`. */
export interface SystemFs {
  /** The file's bytes, or undefined when it does not exist. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /**
   * Writes (replaces) a file atomically: readers see the old bytes or the new, never a mix. The parent directory must
   * exist. `mode` applies on POSIX only.
   */
  writeFile(path: string, data: Uint8Array, mode?: number): Promise<void>;
  /** Sets POSIX permission bits (no-op on Windows). */
  chmod(path: string, mode: number): Promise<void>;
  /** Creates a directory and its missing parents; returns the directories it created, outermost first. */
  mkdirp(path: string): Promise<string[]>;
  /** Deletes a file; resolves false when it was already gone. */
  removeFile(path: string): Promise<boolean>;
  /** Deletes a directory only if it is empty; resolves whether it was deleted. */
  removeEmptyDir(path: string): Promise<boolean>;
  /** Information about a path, or undefined when it does not exist. */
  stat(path: string): Promise<PathInfo | undefined>;
  /** Whether this user may execute the file (Windows: it exists and has an extension in PATHEXT). */
  isExecutable(path: string): Promise<boolean>;
  /** The names in a directory, sorted; undefined when it does not exist. */
  listDir(path: string): Promise<string[] | undefined>;
}

/** Outcome of a short command run to completion. */
export interface ExecResult {
  /** Exit code; null when the command was killed or could not start. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when the command could not be started at all (e.g. ENOENT). */
  readonly error?: Error;
}

/** A running child process with piped stdio, as a browser starts a native host. */
export interface ChildHandle {
  write(data: Uint8Array): void;
  /** Closes the child's stdin (the browser does this when the port disconnects). */
  endInput(): void;
  onStdout(listener: (chunk: Uint8Array) => void): void;
  onStderr(listener: (chunk: Uint8Array) => void): void;
  /** Settles when the child has exited; `error` is set when it never started. */
  readonly exited: Promise<{ code: number | null; signal: string | null; error?: Error }>;
  kill(): void;
}

/** How to start a child process. */
export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Windows only: pass args to the command line untouched (needed for `cmd.exe /s /c "..."`). */
  readonly verbatimArguments?: boolean;
  /** Variables set for the child on top of the system's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The operating system as seen by install, uninstall and doctor. */
export interface System {
  readonly platform: Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  /** The working directory relative paths on the command line are resolved against. */
  readonly cwd: string;
  /** Absolute path of the Node executable running Tether (what the launcher will run). */
  readonly execPath: string;
  readonly fs: SystemFs;
  /** Runs `reg.exe` with these arguments (Windows). */
  reg(args: readonly string[]): Promise<ExecResult>;
  /** Runs a short command to completion, killing it after `timeoutMs`. */
  exec(file: string, args: readonly string[], options?: { timeoutMs?: number }): Promise<ExecResult>;
  /** Starts a long-running child with piped stdio. */
  spawn(request: SpawnRequest): ChildHandle;
  /** Whether this process may write machine-wide: root on Linux/macOS, an elevated administrator on Windows. */
  isElevated(): Promise<boolean>;
}

/** The path module matching a platform (Windows paths are handled correctly even when tests run on Linux). */
export function pathFor(platform: Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/** Narrows Node's platform to the three Tether supports, or throws a clear error. */
export function supportedPlatform(platform: string): Platform {
  if (platform === 'linux' || platform === 'darwin' || platform === 'win32') return platform;
  throw new UnsupportedPlatformError(platform);
}

/** Thrown on an operating system Tether has no browser paths for. */
export class UnsupportedPlatformError extends Error {
  override name = 'UnsupportedPlatformError';
  constructor(readonly platform: string) {
    super(`tether install supports Linux, macOS and Windows; this system reports "${platform}".`);
  }
}

/** Encodes text as UTF-8 (no BOM). */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Decodes UTF-8 bytes, ignoring a leading BOM the way a tolerant reader should. */
export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
}

/** Finds a command on the PATH of `sys` (with PATHEXT on Windows), through the one lookup; path or undefined. */
export async function findOnPath(sys: System, command: string): Promise<string | undefined> {
  for (const candidate of commandCandidates(command, { env: sys.env, platform: sys.platform, cwd: sys.cwd })) {
    const info = await sys.fs.stat(candidate);
    if (info?.kind === 'file' && (await sys.fs.isExecutable(candidate))) return candidate;
  }
  return undefined;
}
