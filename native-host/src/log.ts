/**
 * The host's log: a size-capped file under the state directory, never stdout (stdout carries frames only).
 * Lines are written synchronously because they are rare (start, stop, errors) and must survive a SIGKILL that comes
 * 2 s after EOF. Several hosts may append to one file (one per browser connection); O_APPEND keeps lines whole.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes one diagnostic line. */
export type Log = (line: string) => void;

/** A log bound to a file (or to stderr when the file cannot be opened). */
export interface FileLog {
  readonly log: Log;
  /** The file being written, or undefined when logging fell back to stderr. */
  readonly file: string | undefined;
  /** Closes the file; later lines go to stderr. */
  close(): void;
}

/** Options of createFileLog. */
export interface FileLogOptions {
  readonly file: string;
  /** Past this size the file is renamed to `<file>.1` (replacing the previous one) and a new file is started. */
  readonly maxBytes?: number;
  /** Also copy every line to stderr (Chromium shows a host's stderr in its own stderr; Firefox in the console). */
  readonly mirrorToStderr?: boolean;
  /** Prefix for each line, e.g. `host 1234`. */
  readonly tag?: string;
}

const SECRET_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g, '$1-***'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, 'gh*_***'],
  [/\bAKIA[0-9A-Z]{16}\b/g, 'AKIA***'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 ***'],
  [/("[A-Za-z0-9_-]*(?:token|secret|password|passwd|api_?key|apikey|authorization|cookie)[A-Za-z0-9_-]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, '$1"***"'],
  [/\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_KEY|APIKEY)[A-Z0-9_]*)=\S+/g, '$1=***'],
  // Command-line flags of a backend's argv: `--api-key VALUE`, `--token=VALUE`, `--password VALUE`.
  [/(--?[A-Za-z0-9-]*(?:token|secret|password|passwd|api-?key|apikey)[A-Za-z0-9-]*)(=|\s+)\S+/gi, '$1$2***'],
];

/** Replaces API keys, bearer tokens and secret-looking fields with `***`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Appends one line to `file` in one synchronous open-write-close, for a process about to die (no open log to borrow,
 * no event loop left to flush one). Returns false when the file cannot be written; never throws.
 */
export function appendLogLineSync(file: string, tag: string, line: string): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, `${new Date().toISOString()} [${tag}] ${redactSecrets(line)}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}

/** Opens (creating its directory) a size-capped log file; falls back to stderr when it cannot be written. */
export function createFileLog(options: FileLogOptions): FileLog {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const prefix = options.tag ? ` [${options.tag}]` : '';
  let fd: number | undefined;
  let size = 0;
  let fallbackReason: string | undefined;

  const open = (): void => {
    try {
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
      fd = openSync(options.file, 'a', 0o600);
      size = fstatSync(fd).size;
    } catch (error) {
      fd = undefined;
      fallbackReason = (error as Error).message;
    }
  };
  const rotate = (): void => {
    if (fd === undefined) return;
    closeSync(fd);
    fd = undefined;
    try {
      renameSync(options.file, `${options.file}.1`);
    } catch {
      // Another host rotated it first; appending to whichever file is current is fine.
    }
    open();
  };

  open();
  if (fd === undefined) process.stderr.write(`tether: cannot write the log file ${options.file} (${fallbackReason}); logging to stderr\n`);

  const log: Log = (line) => {
    const text = `${new Date().toISOString()}${prefix} ${redactSecrets(line)}\n`;
    if (options.mirrorToStderr || fd === undefined) process.stderr.write(text);
    if (fd === undefined) return;
    try {
      size += writeSync(fd, text);
      if (size > maxBytes) rotate();
    } catch {
      // A full disk must not take the host down; the line still went to stderr when mirroring.
    }
  };
  return {
    log,
    get file() {
      return fd === undefined ? undefined : options.file;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
