/**
 * The host's own stdout stream. Node makes `process.stdout` synchronous for pipes on Linux, so a browser that reads
 * slowly would block the whole event loop (no reading from the backend, no coalescing). A socket on fd 1 is
 * asynchronous and reports backpressure, which is what lets messages pile up and be packed into one frame.
 */
import { createWriteStream, fstatSync } from 'node:fs';
import { Socket } from 'node:net';

/** An asynchronous writable on fd 1 (a pipe or socket), or a file stream when stdout is a file or a terminal. */
export function openStdout(): NodeJS.WritableStream & { end(callback?: () => void): unknown } {
  let kind: 'pipe' | 'other' = 'other';
  try {
    const stat = fstatSync(1);
    kind = stat.isFIFO() || stat.isSocket() ? 'pipe' : 'other';
  } catch {
    kind = 'other';
  }
  if (kind === 'pipe' && process.platform !== 'win32') {
    return new Socket({ fd: 1, readable: false, writable: true });
  }
  return createWriteStream('', { fd: 1, autoClose: false });
}
