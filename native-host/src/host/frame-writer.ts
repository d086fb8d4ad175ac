/**
 * Writes messages to the browser as native-messaging frames. The browser pays about 50 microseconds per frame, so
 * messages that queue up (several in one tick, or while stdout is backpressured) are packed into one frame holding a
 * JSON array, by concatenating their bytes (`[` a `,` b `]`), never re-encoding them. A lone message is not delayed:
 * the queue is flushed on setImmediate, and again whenever stdout drains. Messages over the browser's 1 MiB frame
 * limit are sent as `bridge/chunk` pieces.
 *
 * Secrets: the host's own messages (`enqueueText`) are redacted in full. Messages passed through from a backend are
 * searched for the secret values the process knows (one Buffer.indexOf per value) and redacted only when one is there.
 */
import type { Redactor } from '@tether/protocol/redact';
import { BROWSER_MAX_FRAME_BYTES, splitIntoChunks } from '@tether/protocol/codec';
import { secrets } from '../secrets';
import { Gather, writeParts } from '../bytes/gather';

/** Options of FrameWriter. */
export interface FrameWriterOptions {
  /** Largest frame payload (default 1,048,576: the browser's limit). */
  readonly maxFrameBytes?: number;
  /** Called with true when more than `highWaterBytes` wait to be written, and with false once below a quarter. */
  readonly onPressure?: (high: boolean) => void;
  /** Default 8 MiB. */
  readonly highWaterBytes?: number;
  /** Called once when stdout fails (the browser went away). */
  readonly onError?: (error: Error) => void;
  /** What masks secrets (default: the process's `secrets`). */
  readonly redactor?: Redactor;
  /**
   * `native` (default): length-prefixed frames, packed and chunked for the browser. `lines`: one JSON text a line, no
   * size limit (the daemon's side of a relay, whose host packs and chunks for the browser).
   */
  readonly framing?: 'native' | 'lines';
}

/** Counters, for tests and diagnostics. */
export interface FrameWriterStats {
  frames: number;
  messages: number;
  batchedFrames: number;
  chunkedMessages: number;
}

/** Bytes buffered in stdout past which the writer waits for 'drain' (queued messages then coalesce). */
const OUT_HIGH_WATER_BYTES = 2 * 1024 * 1024;
/** Frames at least this big are "large": they need no coalescing, only throughput. */
const LARGE_FRAME_BYTES = 256 * 1024;

const OPEN = 0x5b;
const CLOSE = 0x5d;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

/** Coalescing, chunking frame writer over a byte stream (the host's stdout). */
export class FrameWriter {
  private readonly maxFrameBytes: number;
  private readonly lines: boolean;
  private readonly highWater: number;
  // The queue as parallel arrays (no object per message): message k is bytes[k][starts[k], ends[k]) when bytes[k]
  // is a Buffer, or the concatenation of bytes[k] when it is a list; for a batch, only what lies between its brackets.
  private bytes: Array<Buffer | Buffer[]> = [];
  private starts: number[] = [];
  private ends: number[] = [];
  private batches: boolean[] = [];
  /** Messages in each item (more than one when consecutive lines were joined). */
  private counts: number[] = [];
  private head = 0;
  private queuedBytes = 0;
  private scheduled = false;
  private blocked = false;
  private pressured = false;
  private broken = false;
  private readonly gather = new Gather();
  private readonly redactor: Redactor;
  /** The redactor's known values as bytes, and the redactor generation they were made from. */
  private needles: Buffer[] = [];
  private needlesGeneration = -1;
  private idleWaiters: Array<() => void> = [];
  /** Frames and messages written so far. */
  readonly stats: FrameWriterStats = { frames: 0, messages: 0, batchedFrames: 0, chunkedMessages: 0 };

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly options: FrameWriterOptions = {},
  ) {
    this.lines = options.framing === 'lines';
    this.maxFrameBytes = this.lines ? Number.POSITIVE_INFINITY : (options.maxFrameBytes ?? BROWSER_MAX_FRAME_BYTES);
    this.highWater = options.highWaterBytes ?? 8 * 1024 * 1024;
    this.redactor = options.redactor ?? secrets;
    out.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
    out.on('error', (error: Error) => this.fail(error));
    // A stream destroyed without an error (a socket whose peer went away) emits neither 'error' nor 'drain' again,
    // and a write to it returns false: without this the writer would stay blocked and whenIdle() never settle.
    out.on('close', () => this.closed());
  }

  /**
   * Queues one message given as the bytes of its JSON text (the buffers must not be modified afterwards).
   * `batch` says the text is a JSON array of messages, which is merged into a neighbouring batch frame.
   */
  enqueue(parts: Buffer[], length: number, batch = false): void {
    if (this.broken) return;
    if (this.holdsKnownSecret(parts)) this.enqueueRedacted(parts, length, batch);
    else this.enqueueChecked(parts, length, batch);
  }

  /** Queues a message that holds a known secret value, redacted (its length may change, so it is re-checked). */
  private enqueueRedacted(parts: Buffer[], length: number, batch: boolean): void {
    const text = this.redactor.json(Buffer.concat(parts, length).toString('utf8'));
    const redacted = Buffer.from(text, 'utf8');
    if (redacted.length > this.maxFrameBytes) this.enqueueChunked(text);
    else this.enqueueChecked([redacted], redacted.length, batch);
  }

  private enqueueChecked(parts: Buffer[], length: number, batch: boolean): void {
    if (length > this.maxFrameBytes) {
      this.enqueueChunked(Buffer.concat(parts, length).toString('utf8'));
      return;
    }
    if (batch) {
      const inner = stripBrackets(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length));
      if (inner) this.push(inner, 0, inner.length, true);
    } else if (parts.length === 1) this.push(parts[0]!, 0, length, false);
    else this.push(parts, 0, length, false);
  }

  /**
   * Queues one message held in `chunk[start, end)` (the hot path: no view, no copy until it is written). When it
   * directly follows the previous queued message in the same chunk, separated by one newline (consecutive lines of
   * one read from a backend), that newline is overwritten with a comma and the two become one batch item: a whole
   * read of deltas then goes out as one array frame without copying a message.
   */
  enqueueRange(chunk: Buffer, start: number, end: number, batch = false): void {
    if (this.broken) return;
    // Scanned once here (and no view made when no secret is known): a hit goes straight to redaction.
    if (this.knowsSecrets() && this.holdsKnownSecret([chunk.subarray(start, end)])) {
      this.enqueueRedacted([chunk.subarray(start, end)], end - start, batch);
      return;
    }
    if (end - start > this.maxFrameBytes || batch) {
      this.enqueueChecked([chunk.subarray(start, end)], end - start, batch);
      return;
    }
    const last = this.bytes.length - 1;
    if (
      last >= this.head &&
      this.bytes[last] === chunk &&
      this.ends[last] === start - 1 &&
      chunk[start - 1] === NEWLINE &&
      end - this.starts[last]! <= this.maxFrameBytes - 2
    ) {
      chunk[start - 1] = COMMA;
      this.ends[last] = end;
      this.batches[last] = true;
      this.counts[last]!++;
      this.queuedBytes += end - start + 1;
      return;
    }
    this.push(chunk, start, end, false);
  }

  /** Queues one message given as JSON text (the host's own messages, or a backend's that arrived as an object), redacted. */
  enqueueText(text: string): void {
    if (this.broken) return;
    const json = this.redactor.json(text);
    const bytes = Buffer.from(json, 'utf8');
    if (bytes.length > this.maxFrameBytes) this.enqueueChunked(json);
    else this.push(bytes, 0, bytes.length, false);
  }

  /** Resolves once everything queued has been handed to the stream (or the stream failed or was closed). */
  whenIdle(): Promise<void> {
    if (isDestroyed(this.out)) this.closed();
    if (this.broken || (this.bytes.length === this.head && !this.blocked)) return Promise.resolve();
    if (!this.scheduled && !this.blocked) this.flush();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** True when the redactor knows secret values (refreshing their bytes when it learned more). */
  private knowsSecrets(): boolean {
    if (this.needlesGeneration !== this.redactor.generation) {
      this.needles = this.redactor.needles.map((n) => Buffer.from(n, 'utf8'));
      this.needlesGeneration = this.redactor.generation;
    }
    return this.needles.length > 0;
  }

  /** True when a known secret value (or its JSON-escaped form) is in the bytes of one message. */
  private holdsKnownSecret(parts: readonly Buffer[]): boolean {
    if (!this.knowsSecrets()) return false;
    // A message read in several pieces is joined first, so a value split between two reads is still found.
    const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    for (const needle of this.needles) if (whole.indexOf(needle) >= 0) return true;
    return false;
  }

  private enqueueChunked(json: string): void {
    this.stats.chunkedMessages++;
    for (const piece of splitIntoChunks(json, { maxFrameBytes: this.maxFrameBytes })) {
      const bytes = Buffer.from(piece, 'utf8');
      this.push(bytes, 0, bytes.length, false);
    }
  }

  private push(bytes: Buffer | Buffer[], start: number, end: number, batch: boolean): void {
    this.bytes.push(bytes);
    this.starts.push(start);
    this.ends.push(end);
    this.batches.push(batch);
    this.counts.push(1);
    this.queuedBytes += end - start;
    if (!this.pressured && this.queuedBytes > this.highWater) {
      this.pressured = true;
      this.options.onPressure?.(true);
    }
    if (!this.scheduled && !this.blocked) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = (): void => this.flush();

  private flush(): void {
    this.scheduled = false;
    if (isDestroyed(this.out)) {
      this.closed();
      return;
    }
    const { bytes, starts, ends } = this;
    while (this.head < bytes.length && !this.blocked && !this.broken) {
      if (this.lines) {
        this.flushLines();
        continue;
      }
      // Take as many messages as fit in one frame: `[` + each + `,` between + `]`.
      const first = this.head;
      let payload = ends[first]! - starts[first]! + 2;
      let end = first + 1;
      while (end < bytes.length && payload + 1 + ends[end]! - starts[end]! <= this.maxFrameBytes) {
        payload += 1 + ends[end]! - starts[end]!;
        end++;
      }
      const g = this.gather;
      if (end - first === 1 && !this.batches[first]) {
        g.uint32le(ends[first]! - starts[first]!);
        this.append(first);
      } else {
        g.uint32le(payload);
        g.byte(OPEN);
        for (let k = first; k < end; k++) {
          if (k > first) g.byte(COMMA);
          this.append(k);
        }
        g.byte(CLOSE);
        this.stats.batchedFrames++;
      }
      this.stats.frames++;
      for (let k = first; k < end; k++) {
        this.stats.messages += this.counts[k]!;
        this.queuedBytes -= ends[k]! - starts[k]!;
      }
      this.head = end;
      // Past Node's high-water mark, small frames stop here so the messages behind them coalesce into one frame;
      // large frames keep a few MiB in flight, because waiting for 'drain' after each would idle the pipe meanwhile.
      const written = g.bytes;
      if (
        !writeParts(this.out, g.take()) &&
        (written < LARGE_FRAME_BYTES || outLength(this.out) > OUT_HIGH_WATER_BYTES)
      ) {
        this.blocked = true;
      }
    }
    if (this.head === this.bytes.length) this.clearQueue();
    else if (this.head > 1024) {
      this.bytes = this.bytes.slice(this.head);
      this.starts = this.starts.slice(this.head);
      this.ends = this.ends.slice(this.head);
      this.batches = this.batches.slice(this.head);
      this.counts = this.counts.slice(this.head);
      this.head = 0;
    }
    if (this.pressured && this.queuedBytes < this.highWater / 4) {
      this.pressured = false;
      this.options.onPressure?.(false);
    }
    if (this.head === this.bytes.length && !this.blocked) this.resolveIdle();
  }

  /** Writes the queued messages as lines (a batch as a JSON array), gathered into one write of up to 256 KiB. */
  private flushLines(): void {
    const g = this.gather;
    while (this.head < this.bytes.length && g.bytes < LARGE_FRAME_BYTES) {
      const k = this.head++;
      if (this.batches[k]) g.byte(OPEN);
      this.append(k);
      if (this.batches[k]) g.byte(CLOSE);
      g.byte(NEWLINE);
      this.stats.messages += this.counts[k]!;
      this.queuedBytes -= this.ends[k]! - this.starts[k]!;
    }
    this.stats.frames++;
    if (!writeParts(this.out, g.take())) this.blocked = true;
  }

  /** Appends queued message `k` to the frame being built. */
  private append(k: number): void {
    const b = this.bytes[k]!;
    if (Array.isArray(b)) for (const part of b) this.gather.add(part);
    else this.gather.addRange(b, this.starts[k]!, this.ends[k]!);
  }

  private clearQueue(): void {
    this.bytes = [];
    this.starts = [];
    this.ends = [];
    this.batches = [];
    this.counts = [];
    this.head = 0;
  }

  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = true;
    this.clearQueue();
    this.queuedBytes = 0;
    this.resolveIdle();
    this.options.onError?.(error);
  }

  /** The stream is gone (closed or destroyed, maybe before this writer saw it): nothing more is written. */
  private closed(): void {
    if (this.broken) return;
    this.broken = true;
    this.blocked = false;
    this.clearQueue();
    this.queuedBytes = 0;
    this.resolveIdle();
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function isDestroyed(out: NodeJS.WritableStream): boolean {
  return 'destroyed' in out && out.destroyed === true;
}

function outLength(out: NodeJS.WritableStream): number {
  return (out as NodeJS.WritableStream & { writableLength?: number }).writableLength ?? Number.POSITIVE_INFINITY;
}

/** The bytes between the outer brackets of a JSON array; undefined when it is empty. */
function stripBrackets(whole: Buffer): Buffer | undefined {
  const inner = whole.subarray(whole.indexOf(OPEN) + 1, whole.lastIndexOf(CLOSE));
  if (inner.length < 64 && inner.toString('latin1').trim() === '') return undefined;
  return inner;
}
