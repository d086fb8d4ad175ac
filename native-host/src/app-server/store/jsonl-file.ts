/** Append-only JSONL files that survive `kill -9`: whole lines are appended, a torn last line is cut off on read. */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/** What reading a JSONL file found. */
export interface JsonlReadResult {
  /** Every line that parsed as JSON, in file order. */
  readonly records: unknown[];
  /** Lines that did not parse (not counting a torn last line), for a log line. */
  readonly badLines: number;
  /** True when the file ended in a partial line, which was cut off (the file now ends at the last newline). */
  readonly repairedTail: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads every JSON line of `path` (an absent file reads as empty). A last line without its newline is the trace of a
 * write cut by a crash: it is dropped and the file truncated to the last complete line, so the next append starts
 * clean. A last line that parses but lacks its newline gets the newline.
 */
export function readJsonlFile(path: string): JsonlReadResult {
  if (!existsSync(path)) return { records: [], badLines: 0, repairedTail: false };
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
  let repairedTail = false;
  if (lastNewline + 1 < bytes.length) {
    const tail = bytes.subarray(lastNewline + 1).toString('utf8');
    let parsed: unknown;
    let complete = false;
    try {
      parsed = JSON.parse(tail);
      complete = true;
    } catch {
      complete = false;
    }
    const fd = openSync(path, 'r+');
    try {
      if (complete) {
        records.push(parsed);
        writeSync(fd, '\n', bytes.length);
      } else {
        ftruncateSync(fd, lastNewline + 1);
        repairedTail = true;
      }
    } finally {
      closeSync(fd);
    }
  }
  return { records, badLines, repairedTail };
}

/** Serialises records as JSONL text (one line each, newline-terminated). */
export function toJsonlLines(records: readonly unknown[]): string {
  let text = '';
  for (const r of records) text += JSON.stringify(r) + '\n';
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
    private readonly options: { followReplacement?: boolean } = {},
  ) {}

  /** Appends records, one line each, in one write; returns the number of bytes written. */
  append(...records: unknown[]): number {
    if (this.fd !== undefined && this.options.followReplacement) {
      const onDisk = statSync(this.path, { throwIfNoEntry: false });
      if (!onDisk || onDisk.ino !== fstatSync(this.fd).ino) this.close();
    }
    this.fd ??= openSync(this.path, 'a');
    const bytes = Buffer.from(toJsonlLines(records), 'utf8');
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
