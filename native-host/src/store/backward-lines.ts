/**
 * Reads a JSONL file from the end towards its start, one line at a time, in fixed-size chunks: the newest page of a
 * 20 MB journal costs the bytes of that page, not of the file. Like `readJsonlFile`, it never writes, and a last line
 * without its newline (a torn write, or another process's append in progress) is reported as such for the caller to
 * parse or skip.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const NEWLINE = 0x0a;
/** 64 KiB: a 1 MiB page of history is 16 reads; a smaller chunk made the 10,000-item bench page no faster. */
const CHUNK = 64 * 1024;

/** One line found by `readLinesBackward`. */
export interface BackwardLine {
  /** The line's bytes, without its newline. */
  readonly bytes: Buffer;
  /** Offset of the line's first byte in the file. */
  readonly start: number;
  /** False for a last line that has no newline after it (torn, or still being written). */
  readonly terminated: boolean;
}

/**
 * Yields the non-empty lines of `path` that end at or before `end` (default: the file's size), newest first. An
 * absent file yields nothing. Stop early by leaving the loop: the file is closed either way.
 */
export function* readLinesBackward(path: string, end?: number): Generator<BackwardLine, void, undefined> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const regionEnd = Math.min(end ?? size, size);
    let pos = regionEnd;
    // Pieces of the line being assembled, oldest first; it spans chunks when it is longer than one.
    let pieces: Buffer[] = [];
    let lineEnd = regionEnd;
    const take = (start: number): BackwardLine | undefined => {
      const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      pieces = [];
      const terminated = lineEnd < regionEnd || regionEnd < size;
      lineEnd = start - 1;
      return bytes.length === 0 ? undefined : { bytes, start, terminated };
    };
    while (pos > 0) {
      const length = Math.min(CHUNK, pos);
      const chunk = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) got += readSync(fd, chunk, got, length - got, pos - length + got);
      pos -= length;
      let stop = length;
      while (stop > 0) {
        const nl = chunk.lastIndexOf(NEWLINE, stop - 1);
        if (nl < 0) break;
        pieces.unshift(chunk.subarray(nl + 1, stop));
        const line = take(pos + nl + 1);
        if (line) yield line;
        stop = nl;
      }
      if (stop > 0) pieces.unshift(chunk.subarray(0, stop));
    }
    const first = take(0);
    if (first) yield first;
  } finally {
    closeSync(fd);
  }
}
