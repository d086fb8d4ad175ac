/**
 * Append-only JSONL files that survive `kill -9`: whole lines are appended, and a torn last line is skipped on read.
 * Readers never write: several processes may share a data dir, and a line that looks torn may be another process's
 * append still in progress. The appender starts its first line on a fresh line instead. Every line written is
 * redacted (see `secrets`), and files are created 0600 (an older, looser file is tightened when first appended to).
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { PRIVATE_FILE_MODE, tightenOpenFile } from '../private-files';
import { secrets } from '../secrets';

/** What reading a JSONL file found. */
export interface JsonlReadResult {
  /** Every line that parsed as JSON, in file order. */
  readonly records: unknown[];
  /** Lines that did not parse (not counting a torn last line), for a log line. */
  readonly badLines: number;
  /** True when the file ended in a partial line (a write cut by a crash, or one still in progress): it was skipped. */
  readonly tornTail: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads every JSON line of `path` (an absent file reads as empty) without modifying it. A last line without its
 * newline is kept when it parses (only the newline was lost) and skipped otherwise.
 */
export function readJsonlFile(path: string): JsonlReadResult {
  if (!existsSync(path)) return { records: [], badLines: 0, tornTail: false };
  const bytes = readFileSync(path);
  const lastNewline = bytes.lastIndexOf(NEWLINE);
  const records: unknown[] = [];
  let badLines = 0;
  // Line by line from the bytes: no copy of the whole file as one string next to the parsed records.
  for (let start = 0; start <= lastNewline; ) {
    const end = bytes.indexOf(NEWLINE, start);
    const line = bytes.toString('utf8', start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      badLines++;
    }
  }
  let tornTail = false;
  if (lastNewline + 1 < bytes.length) {
    try {
      records.push(JSON.parse(bytes.toString('utf8', lastNewline + 1)));
    } catch {
      tornTail = true;
    }
  }
  return { records, badLines, tornTail };
}

/** True when the open file is not empty and does not end in a newline (its last line is torn or lost its newline). */
function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}

/** Serialises records as JSONL text (one line each, newline-terminated), with secrets masked. */
export function toJsonlLines(records: readonly unknown[]): string {
  let text = '';
  for (const r of records) text += `${secrets.json(JSON.stringify(r))}\n`;
  return text;
}

/**
 * An append-only writer on one file. Each `append` is a single write(2) of whole lines, so a crash leaves at most one
 * torn line at the end. No fsync: a record handed to the OS survives the death of the process.
 */
export class JsonlAppender {
  private fd: number | undefined;

  /**
   * With `followReplacement`, each append first checks that the path still names the open file and reopens it when
   * another process replaced it (compaction writes a new file and renames it over the old one).
   */
  constructor(
    readonly path: string,
    private readonly options: { followReplacement?: boolean; log?: (line: string) => void } = {},
  ) {}

  /** Appends records, one line each, in one write; returns the number of bytes written. */
  append(...records: unknown[]): number {
    if (this.fd !== undefined && this.options.followReplacement) {
      const onDisk = statSync(this.path, { throwIfNoEntry: false });
      if (!onDisk || onDisk.ino !== fstatSync(this.fd).ino) this.close();
    }
    let lead = '';
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'a+', PRIVATE_FILE_MODE);
      tightenOpenFile(this.fd, this.path, this.options.log);
      // A torn line left by a crash must not swallow the first record of this run.
      if (endsMidLine(this.fd)) lead = '\n';
    }
    const bytes = Buffer.from(lead + toJsonlLines(records), 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset);
    return bytes.length;
  }

  /** Closes the file descriptor; a later append reopens it. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
