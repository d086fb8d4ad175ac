/**
 * Reads just enough of a JSON-RPC message to route it: its shape and its top-level `id`, `method` and whether it is
 * a response, without JSON.parse. Strings are skipped with `indexOf` (memchr), so a 512 KB message made mostly of
 * text costs a few memchr calls; nested values are stepped over without being decoded. Not a validator: a message
 * that is well-formed at the top level but broken inside is left for the receiving peer to reject.
 */

import { findByte } from '../bytes/find-byte';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** What a scan found. `id` is the raw JSON token of the id (`7`, `"abc"`), usable as a map key and as JSON. */
export interface Envelope {
  readonly shape: 'object' | 'array' | 'blank' | 'invalid';
  readonly id: string | undefined;
  readonly method: string | undefined;
  /** Has a top-level `result` or `error` member. */
  readonly isResponse: boolean;
}

const BLANK: Envelope = { shape: 'blank', id: undefined, method: undefined, isResponse: false };
const INVALID: Envelope = { shape: 'invalid', id: undefined, method: undefined, isResponse: false };
const ARRAY: Envelope = { shape: 'array', id: undefined, method: undefined, isResponse: false };

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number, end: number): number {
  while (i < end && isSpace(b[i])) i++;
  return i;
}

/** Index just past the string that opens at `i`, or -1 when it is not closed before `end`. */
function stringEnd(b: Buffer, i: number, end: number): number {
  let from = i + 1;
  for (;;) {
    const q = findByte(b, QUOTE, from, end);
    if (q < 0) return -1;
    let k = q - 1;
    while (b[k] === BACKSLASH) k--;
    // An even number of backslashes before the quote: it closes the string.
    if (((q - 1 - k) & 1) === 0) return q + 1;
    from = q + 1;
  }
}

/** Index just past the value that starts at `i`, or -1. */
function valueEnd(b: Buffer, i: number, end: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i, end);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    let j = i;
    while (j < end) {
      const d = b[j]!;
      if (d === QUOTE) {
        j = stringEnd(b, j, end);
        if (j < 0) return -1;
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  let j = i;
  while (j < end) {
    const d = b[j];
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    j++;
  }
  return j > i ? j : -1;
}

function isKey(b: Buffer, start: number, length: number, key: string): boolean {
  if (length !== key.length) return false;
  for (let k = 0; k < length; k++) if (b[start + k] !== key.charCodeAt(k)) return false;
  return true;
}

/** The string token `b[start, end)` (quotes included) decoded, or undefined when an escape in it is broken. */
function decodeString(b: Buffer, start: number, end: number): string | undefined {
  try {
    const value: unknown = JSON.parse(b.toString('utf8', start, end));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** How a walk over the members of a batch ended. */
export type BatchWalk = 'complete' | 'stopped' | 'malformed';

/**
 * Calls `visit(start, end)` with the byte range of each top-level member of the JSON array in `b`, in order, until it
 * returns false ('stopped'). 'malformed' when brackets, strings and commas do not delimit members (members before the
 * fault were visited). Members are stepped over by counting brackets, never parsed or recursed into, so the cost is
 * linear in the bytes whatever the nesting, and nothing is allocated. Like scanEnvelope, not a validator.
 */
export function forEachBatchMember(
  b: Buffer,
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing walks every member.
  visit: (start: number, end: number) => boolean | void,
): BatchWalk {
  const end = b.length;
  let i = skipSpace(b, 0, end);
  if (b[i] !== OPEN_BRACKET) return 'malformed';
  i = skipSpace(b, i + 1, end);
  if (b[i] === CLOSE_BRACKET) return skipSpace(b, i + 1, end) === end ? 'complete' : 'malformed';
  for (;;) {
    const after = valueEnd(b, i, end);
    if (after < 0) return 'malformed';
    if (visit(i, after) === false) return 'stopped';
    i = skipSpace(b, after, end);
    if (b[i] === COMMA) {
      i = skipSpace(b, i + 1, end);
      continue;
    }
    if (b[i] === CLOSE_BRACKET) return skipSpace(b, i + 1, end) === end ? 'complete' : 'malformed';
    return 'malformed';
  }
}

/** The first and last non-blank bytes: `{`..`}` object, `[`..`]` array, nothing: blank, else invalid. */
export function shapeOf(b: Buffer, start = 0, end = b.length): Envelope['shape'] {
  const i = skipSpace(b, start, end);
  if (i === end) return 'blank';
  let j = end - 1;
  while (j > i && isSpace(b[j])) j--;
  const first = b[i];
  const last = b[j];
  if (first === OPEN_BRACE && last === CLOSE_BRACE && j > i) return 'object';
  if (first === OPEN_BRACKET && last === CLOSE_BRACKET && j > i) return 'array';
  return 'invalid';
}

/**
 * True when the message may be a request or one of the host's own: it holds a `"id"` or a `"bridge/` somewhere.
 * False means it can be passed on without a scan. One walk over the quotes, no allocation.
 */
export function mayNeedScan(b: Buffer, start = 0, end = b.length): boolean {
  let i = findByte(b, QUOTE, start, end);
  while (i >= 0) {
    const c = b[i + 1];
    if (c === 0x69 /* i */ && b[i + 2] === 0x64 /* d */ && b[i + 3] === QUOTE && i + 3 < end) return true;
    if (c === 0x62 /* b */ && i + 8 <= end && isKey(b, i + 1, 7, 'bridge/')) return true;
    i = findByte(b, QUOTE, i + 1, end);
  }
  return false;
}

/** mayNeedScan over a message held in several buffers, including keys that straddle seams, however short the buffers. */
export function mayNeedScanParts(parts: readonly Buffer[]): boolean {
  if (parts.length === 1) return mayNeedScan(parts[0]!);
  // `"bridge/` is 8 bytes: an occurrence that ends in a buffer but starts before it lies within the 7 bytes before
  // that buffer (which may come from several short buffers: a one-byte buffer once hid `"id"`) and its first 7.
  let before: Buffer = Buffer.alloc(0);
  for (const part of parts) {
    if (mayNeedScan(part)) return true;
    if (before.length > 0 && mayNeedScan(Buffer.concat([before, part.subarray(0, 7)]))) return true;
    before = part.length >= 7 ? part.subarray(part.length - 7) : Buffer.concat([before, part]).subarray(-7);
  }
  return false;
}

/** shapeOf over a message held in several buffers, looking only at its first and last non-blank bytes. */
export function shapeOfParts(parts: readonly Buffer[], length: number): Envelope['shape'] {
  if (parts.length === 1) return shapeOf(parts[0]!);
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const i = skipSpace(first, 0, first.length);
  let j = last.length - 1;
  while (j >= 0 && isSpace(last[j])) j--;
  // Blank edges (a buffer of only spaces): rare enough to look at the whole message.
  if (i === first.length || j < 0) return shapeOf(Buffer.concat(parts as Buffer[], length));
  const open = first[i];
  const close = last[j];
  if (open === OPEN_BRACE && close === CLOSE_BRACE) return 'object';
  if (open === OPEN_BRACKET && close === CLOSE_BRACKET) return 'array';
  return 'invalid';
}

/**
 * Scans the top-level members of the message in `b`. Stops early once the routing is decided: an id plus a method
 * (a request) or an id plus result/error (a response).
 */
export function scanEnvelope(b: Buffer): Envelope {
  const end = b.length;
  let i = skipSpace(b, 0, end);
  if (i === end) return BLANK;
  if (b[i] === OPEN_BRACKET) return ARRAY;
  if (b[i] !== OPEN_BRACE) return INVALID;
  let id: string | undefined;
  let method: string | undefined;
  let isResponse = false;
  i = skipSpace(b, i + 1, end);
  if (b[i] === CLOSE_BRACE) return { shape: 'object', id, method, isResponse };
  for (;;) {
    if (b[i] !== QUOTE) return INVALID;
    const keyEnd = stringEnd(b, i, end);
    if (keyEnd < 0) return INVALID;
    let keyStart = i + 1;
    let keyLength = keyEnd - 1 - keyStart;
    let key = b;
    if (findByte(b, BACKSLASH, keyStart, keyEnd - 1) >= 0) {
      // A key spelt with escapes ("\u0069d") names the same member for every JSON parser: decode it (rare).
      const decoded = decodeString(b, i, keyEnd);
      if (decoded === undefined) return INVALID;
      key = Buffer.from(decoded, 'utf8');
      keyStart = 0;
      keyLength = key.length;
    }
    i = skipSpace(b, keyEnd, end);
    if (b[i] !== COLON) return INVALID;
    const valueStart = skipSpace(b, i + 1, end);
    const after = valueEnd(b, valueStart, end);
    if (after < 0) return INVALID;
    if (isKey(key, keyStart, keyLength, 'id')) {
      id = b.toString('utf8', valueStart, after);
    } else if (isKey(key, keyStart, keyLength, 'method')) {
      // A method that is not a string names no method: the message goes to the backend, which rejects it (-32600).
      if (b[valueStart] === QUOTE) {
        const decoded =
          findByte(b, BACKSLASH, valueStart + 1, after - 1) < 0
            ? b.toString('utf8', valueStart + 1, after - 1)
            : decodeString(b, valueStart, after);
        // A broken escape makes the message unparsable JSON: garbage to reject, not a reason to throw.
        if (decoded === undefined) return INVALID;
        method = decoded;
      }
    } else if (isKey(key, keyStart, keyLength, 'result') || isKey(key, keyStart, keyLength, 'error')) {
      isResponse = true;
    }
    if (id !== undefined && (method !== undefined || isResponse)) return { shape: 'object', id, method, isResponse };
    i = skipSpace(b, after, end);
    if (b[i] === COMMA) {
      i = skipSpace(b, i + 1, end);
      continue;
    }
    if (b[i] === CLOSE_BRACE) return { shape: 'object', id, method, isResponse };
    return INVALID;
  }
}
