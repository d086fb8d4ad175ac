/**
 * The last resort of every `tether` process. An exception nothing caught, or a rejection nobody handled, leaves the
 * process in a state nobody planned for: it is written to host.log (synchronously: the process is about to die, so an
 * asynchronous write would be lost) and to stderr, and the process exits with CRASH_EXIT_CODE. Without this, Node
 * printed the stack to a stderr the browser usually discards and exited 1, and host.log said nothing.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactSecrets } from './log';
import { logFile } from './paths';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files';

/** Exit code of a `tether` process that crashed (sysexits' EX_SOFTWARE: an internal software error). */
export const CRASH_EXIT_CODE = 70;

/** Where a crash is reported. */
export interface CrashReport {
  /** The log file (default: host.log in the state directory). */
  readonly file?: string;
  /** Names the process in the log line, e.g. `host 1234`. */
  readonly tag: string;
}

/** Writes one line about `error` to the log file and to stderr; never throws. */
export function reportCrash(report: CrashReport, what: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : safeString(error);
  const line = `crashed: ${what}: ${detail.replace(/\n\s*/g, ' | ')}; exiting with code ${CRASH_EXIT_CODE}`;
  const file = report.file ?? logFile();
  const logged = appendLineSync(file, report.tag, line);
  try {
    process.stderr.write(`tether: ${line}${logged ? '' : ` (could not write ${file})`}\n`);
  } catch {
    // stderr may be gone with the browser; the log line is what counts.
  }
}

/** Makes an uncaught exception or unhandled rejection log one line and exit with CRASH_EXIT_CODE. Call once, first. */
export function installCrashHandlers(report: CrashReport): void {
  const crash = (what: string, error: unknown): never => {
    reportCrash(report, what, error);
    process.exit(CRASH_EXIT_CODE);
  };
  process.on('uncaughtException', (error) => crash('uncaught exception', error));
  process.on('unhandledRejection', (reason) => crash('unhandled promise rejection', reason));
}

/** Appends one line in one open-write-close: a dying process has no open log to borrow and no loop left to flush one. */
function appendLineSync(file: string, tag: string, line: string): boolean {
  try {
    ensurePrivateDir(dirname(file));
    const fd = openSync(file, 'a', PRIVATE_FILE_MODE);
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

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
