/**
 * The host's log: a size-capped file under the state directory, never stdout (stdout carries frames only).
 * Lines are written synchronously because they are rare (start, stop, errors) and must survive a SIGKILL that comes
 * 2 s after EOF. Several hosts may append to one file (one per browser connection); O_APPEND keeps lines whole.
 */
import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile, tightenOpenFile } from './private-files';
import { secrets } from './secrets';
import { errorMessage } from '@tether/protocol/errors';

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

/** Masks API keys, tokens, credentials and every secret value this process knows (see `secrets`). */
export function redactSecrets(text: string): string {
  return secrets.text(text);
}

/** Opens (creating its directory) a size-capped log file; falls back to stderr when it cannot be written. */
export function createFileLog(options: FileLogOptions): FileLog {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const prefix = options.tag ? ` [${options.tag}]` : '';
  let fd: number | undefined;
  let size = 0;
  let fallbackReason: string | undefined;
  // Lines about permissions an older version left too loose, said once the file is open.
  const notes: string[] = [];
  let note = (line: string): void => void notes.push(line);

  const open = (): void => {
    try {
      ensurePrivateDir(dirname(options.file), note);
      fd = openSync(options.file, 'a', PRIVATE_FILE_MODE);
      tightenOpenFile(fd, options.file, note);
      size = fstatSync(fd).size;
    } catch (error) {
      fd = undefined;
      fallbackReason = errorMessage(error);
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
  tightenFile(`${options.file}.1`, note);
  if (fd === undefined)
    process.stderr.write(`tether: cannot write the log file ${options.file} (${fallbackReason}); logging to stderr\n`);

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
  note = log;
  for (const line of notes.splice(0)) log(line);
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
