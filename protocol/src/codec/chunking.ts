import { FrameError, type MessageTooLargeError } from '../errors';
import type { BridgeChunkNotification } from '../schema/bridge';
import { BROWSER_MAX_FRAME_BYTES, BROWSER_MAX_INBOUND_BYTES, checkLimit, tooLarge } from './limits';
import { jsonStringCost, utf8ByteLength } from './utf8';

/** Wire name of the notification that carries one piece of a split message. */
export const BRIDGE_CHUNK_METHOD = 'bridge/chunk';

/** Options of splitIntoChunks. */
export interface SplitIntoChunksOptions {
  /** Largest JSON text allowed per piece, in UTF-8 bytes (default 1,048,576, the browser's limit). */
  maxFrameBytes?: number;
  /** Id shared by the pieces (default: a fresh unique id). */
  id?: string;
}

let nextId = 0;
const idPrefix = Math.floor(Math.random() * 0x100000000).toString(36);

/**
 * `[json]` when it fits in `maxFrameBytes` UTF-8 bytes; else the JSON texts of `bridge/chunk` notifications
 * `{id, index, count, data}` whose `data` strings concatenate back to `json`. Every text is at most `maxFrameBytes`
 * bytes, JSON escaping of `data` included, and no piece ends between the two halves of a surrogate pair.
 */
export function splitIntoChunks(json: string, opts: SplitIntoChunksOptions = {}): string[] {
  const max = checkLimit('maxFrameBytes', opts.maxFrameBytes ?? BROWSER_MAX_FRAME_BYTES);
  if (fitsInBytes(json, max)) return [json];
  const id = opts.id ?? `${idPrefix}-${(nextId++).toString(36)}`;
  // The envelope grows with the number of digits of index and count, which depends on the cut: iterate on it.
  let digits = 1;
  for (;;) {
    const budget = max - envelopeBytes(id, digits);
    // 6 bytes: the largest cost of one character (a \uXXXX escape); below that a piece might hold nothing.
    if (budget < 6) {
      throw new RangeError(
        `maxFrameBytes ${max} is too small to carry bridge/chunk pieces with id ${JSON.stringify(id)}`,
      );
    }
    const starts = cut(json, budget);
    const count = starts.length;
    if (String(count).length > digits) {
      digits = String(count).length;
      continue;
    }
    return starts.map((start, index) =>
      JSON.stringify({
        method: BRIDGE_CHUNK_METHOD,
        params: { id, index, count, data: json.slice(start, starts[index + 1] ?? json.length) },
      }),
    );
  }
}

function fitsInBytes(text: string, max: number): boolean {
  // A UTF-16 unit takes 1 to 3 UTF-8 bytes: most texts are decided without counting.
  if (text.length > max) return false;
  if (text.length * 3 <= max) return true;
  return utf8ByteLength(text) <= max;
}

/** UTF-8 bytes of a chunk notification with empty data and index/count of `digits` digits (an upper bound). */
function envelopeBytes(id: string, digits: number): number {
  const widest = 10 ** digits - 1;
  return utf8ByteLength(
    JSON.stringify({ method: BRIDGE_CHUNK_METHOD, params: { id, index: widest, count: widest, data: '' } }),
  );
}

/** jsonStringCost of each ASCII character, looked up in the hot loop of cut(). */
const ASCII_JSON_COST = Uint8Array.from({ length: 0x80 }, (_, c) => jsonStringCost(c));

/** Start indexes of pieces of `text` whose JSON-escaped UTF-8 size is at most `budget` each. */
function cut(text: string, budget: number): number[] {
  const starts = [0];
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let units = 1;
    let cost: number;
    if (c < 0x80) cost = ASCII_JSON_COST[c]!;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        units = 2;
        cost = 4;
      } else cost = 6;
    } else cost = jsonStringCost(c);
    if (used + cost > budget) {
      starts.push(i);
      used = 0;
    }
    used += cost;
    i += units;
  }
  return starts;
}

/** Options of ChunkAssembler. */
export interface ChunkAssemblerOptions {
  /** Most messages being reassembled at once (default 16). */
  maxPending?: number;
  /** Most bytes (UTF-8 of `data`) buffered over all partial messages (default 64 MiB). */
  maxTotalBytes?: number;
}

interface PartialMessage {
  count: number;
  next: number;
  parts: string[];
  bytes: number;
}

/** Pieces of dropped messages that are ignored quietly (one error per message is enough); bounded. */
const MAX_ABANDONED = 64;

/**
 * Reassembles `bridge/chunk` pieces into the JSON text of the original message. Pieces of one message arrive in
 * order; several messages may interleave. A gap, a duplicate, a changed count, too many partial messages
 * (FrameError) or too many buffered bytes (MessageTooLargeError) drop that message with one thrown error; its
 * later pieces are then ignored.
 */
export class ChunkAssembler {
  private readonly maxPending: number;
  private readonly maxTotalBytes: number;
  private readonly partials = new Map<string, PartialMessage>();
  private readonly abandoned = new Set<string>();
  private totalBytes = 0;

  constructor(opts: ChunkAssemblerOptions = {}) {
    this.maxPending = checkLimit('maxPending', opts.maxPending ?? 16);
    this.maxTotalBytes = checkLimit('maxTotalBytes', opts.maxTotalBytes ?? BROWSER_MAX_INBOUND_BYTES);
  }

  /** Messages being reassembled. */
  get pendingCount(): number {
    return this.partials.size;
  }

  /** Bytes held for partial messages. */
  get pendingBytes(): number {
    return this.totalBytes;
  }

  /** Takes one piece; returns the whole JSON text when this was the last one, else undefined. Throws on bad input. */
  accept(params: BridgeChunkNotification): string | undefined {
    const { id, index, count, data } = checkPiece(params);
    if (this.abandoned.has(id)) {
      if (index === count - 1) this.abandoned.delete(id);
      return undefined;
    }
    let partial = this.partials.get(id);
    if (!partial) {
      if (index !== 0) {
        throw this.drop(
          id,
          new FrameError(
            `bridge/chunk ${id}: piece ${index} of ${count} arrived without piece 0; the message is dropped`,
          ),
        );
      }
      if (count === 1) return data;
      if (this.partials.size >= this.maxPending) {
        throw this.drop(
          id,
          new FrameError(
            `bridge/chunk ${id}: ${this.partials.size} messages are already being reassembled (limit ${this.maxPending}); the message is dropped`,
          ),
        );
      }
      partial = { count, next: 0, parts: [], bytes: 0 };
      this.partials.set(id, partial);
    }
    if (count !== partial.count) {
      throw this.drop(
        id,
        new FrameError(
          `bridge/chunk ${id}: piece ${index} says count ${count}, earlier pieces said ${partial.count}; the message is dropped`,
        ),
      );
    }
    if (index !== partial.next) {
      const what =
        index < partial.next ? `duplicate piece ${index}` : `gap: expected piece ${partial.next}, got ${index}`;
      throw this.drop(id, new FrameError(`bridge/chunk ${id}: ${what} of ${count}; the message is dropped`));
    }
    // splitIntoChunks never sends an empty piece; counting them as free would let a peer grow the piece list unbounded.
    if (data.length === 0)
      throw this.drop(
        id,
        new FrameError(`bridge/chunk ${id}: piece ${index} of ${count} is empty; the message is dropped`),
      );
    const bytes = utf8ByteLength(data);
    if (this.totalBytes + bytes > this.maxTotalBytes) {
      const size = this.totalBytes + bytes;
      throw this.drop(
        id,
        tooLarge(
          'Partial bridge/chunk messages',
          size,
          this.maxTotalBytes,
          `message ${id} is dropped; raise maxTotalBytes to accept larger messages`,
        ),
      );
    }
    partial.parts.push(data);
    partial.bytes += bytes;
    this.totalBytes += bytes;
    partial.next++;
    if (partial.next < count) return undefined;
    this.partials.delete(id);
    this.totalBytes -= partial.bytes;
    return partial.parts.join('');
  }

  /** Forgets every partial message (e.g. when the connection restarts). */
  clear(): void {
    this.partials.clear();
    this.abandoned.clear();
    this.totalBytes = 0;
  }

  private drop<E extends FrameError | MessageTooLargeError>(id: string, error: E): E {
    const partial = this.partials.get(id);
    if (partial) {
      this.totalBytes -= partial.bytes;
      this.partials.delete(id);
    }
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_ABANDONED) {
      const oldest = this.abandoned.values().next().value;
      if (oldest !== undefined) this.abandoned.delete(oldest);
    }
    return error;
  }
}

/** Checks the fields the assembler relies on: params may come straight off the wire. */
function checkPiece(params: BridgeChunkNotification): BridgeChunkNotification {
  const p = params as Partial<Record<keyof BridgeChunkNotification, unknown>> | null;
  if (
    typeof p !== 'object' ||
    p === null ||
    typeof p.id !== 'string' ||
    typeof p.data !== 'string' ||
    !Number.isSafeInteger(p.index) ||
    !Number.isSafeInteger(p.count) ||
    (p.count as number) < 1 ||
    (p.index as number) < 0 ||
    (p.index as number) >= (p.count as number)
  ) {
    throw new FrameError(
      `Invalid bridge/chunk params: need {id: string, index: 0..count-1, count >= 1, data: string}, got ${describe(params)}`,
    );
  }
  return params;
}

/** The start of `value` as JSON, for an error message; a value too deep to serialise must not turn into a RangeError. */
function describe(value: unknown): string {
  try {
    return String(JSON.stringify(value)).slice(0, 200);
  } catch {
    return `${Array.isArray(value) ? 'an array' : typeof value} that cannot be serialised (nested too deep?)`;
  }
}
