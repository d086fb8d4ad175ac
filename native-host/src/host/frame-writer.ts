/**
 * Writes messages to the browser as native-messaging frames. The browser pays about 50 microseconds per frame, so
 * messages that queue up (several in one tick, or while stdout is backpressured) are packed into one frame holding a
 * JSON array, by concatenating their bytes (`[` a `,` b `]`), never re-encoding them. A lone message is not delayed:
 * the queue is flushed on setImmediate, and again whenever stdout drains. Messages over the browser's 1 MiB frame
 * limit are sent as `bridge/chunk` pieces.
 */
import { BROWSER_MAX_FRAME_BYTES, splitIntoChunks } from '@tether/protocol/codec';
import { Gather, writeParts } from './gather';

interface Queued {
  /** The message's bytes; for a batch (a JSON array) only what lies between its brackets. */
  readonly parts: Buffer[];
  readonly length: number;
  readonly batch: boolean;
}

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

/** Coalescing, chunking frame writer over a byte stream (the host's stdout). */
export class FrameWriter {
  private readonly maxFrameBytes: number;
  private readonly highWater: number;
  private queue: Queued[] = [];
  private head = 0;
  private queuedBytes = 0;
  private scheduled = false;
  private blocked = false;
  private pressured = false;
  private broken = false;
  private readonly gather = new Gather();
  private idleWaiters: Array<() => void> = [];
  /** Frames and messages written so far. */
  readonly stats: FrameWriterStats = { frames: 0, messages: 0, batchedFrames: 0, chunkedMessages: 0 };

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly options: FrameWriterOptions = {},
  ) {
    this.maxFrameBytes = options.maxFrameBytes ?? BROWSER_MAX_FRAME_BYTES;
    this.highWater = options.highWaterBytes ?? 8 * 1024 * 1024;
    out.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
    out.on('error', (error: Error) => this.fail(error));
  }

  /** Bytes waiting to be written. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /**
   * Queues one message given as the bytes of its JSON text (the buffers must not be modified afterwards).
   * `batch` says the text is a JSON array of messages, which is merged into a neighbouring batch frame.
   */
  enqueue(parts: Buffer[], length: number, batch = false): void {
    if (this.broken) return;
    if (length > this.maxFrameBytes) {
      this.enqueueChunked(Buffer.concat(parts, length).toString('utf8'));
      return;
    }
    if (batch) {
      const inner = stripBrackets(parts, length);
      if (!inner) return;
      this.push({ parts: inner.parts, length: inner.length, batch: true });
    } else this.push({ parts, length, batch: false });
  }

  /** Queues one message given as JSON text (the host's own messages, or a backend's that arrived as an object). */
  enqueueText(json: string): void {
    if (this.broken) return;
    const bytes = Buffer.from(json, 'utf8');
    if (bytes.length > this.maxFrameBytes) this.enqueueChunked(json);
    else this.push({ parts: [bytes], length: bytes.length, batch: false });
  }

  /** Resolves once everything queued has been handed to the stream (or the stream failed). */
  whenIdle(): Promise<void> {
    if (this.broken || (this.queue.length === this.head && !this.blocked)) return Promise.resolve();
    if (!this.scheduled && !this.blocked) this.flush();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private enqueueChunked(json: string): void {
    this.stats.chunkedMessages++;
    for (const piece of splitIntoChunks(json, { maxFrameBytes: this.maxFrameBytes })) {
      const bytes = Buffer.from(piece, 'utf8');
      this.push({ parts: [bytes], length: bytes.length, batch: false });
    }
  }

  private push(item: Queued): void {
    this.queue.push(item);
    this.queuedBytes += item.length;
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
    const queue = this.queue;
    while (this.head < queue.length && !this.blocked && !this.broken) {
      // Take as many messages as fit in one frame: `[` + each + `,` between + `]`.
      const first = this.head;
      let payload = queue[first]!.length + 2;
      let end = first + 1;
      while (end < queue.length && payload + 1 + queue[end]!.length <= this.maxFrameBytes) {
        payload += 1 + queue[end]!.length;
        end++;
      }
      const g = this.gather;
      if (end - first === 1 && !queue[first]!.batch) {
        const m = queue[first]!;
        g.uint32le(m.length);
        for (const p of m.parts) g.add(p);
      } else {
        g.uint32le(payload);
        g.byte(OPEN);
        for (let k = first; k < end; k++) {
          if (k > first) g.byte(COMMA);
          for (const p of queue[k]!.parts) g.add(p);
        }
        g.byte(CLOSE);
        this.stats.batchedFrames++;
      }
      this.stats.frames++;
      this.stats.messages += end - first;
      for (let k = first; k < end; k++) this.queuedBytes -= queue[k]!.length;
      this.head = end;
      // Past Node's high-water mark, small frames stop here so the messages behind them coalesce into one frame;
      // large frames keep a few MiB in flight, because waiting for 'drain' after each would idle the pipe meanwhile.
      const written = g.bytes;
      if (!writeParts(this.out, g.take()) && (written < LARGE_FRAME_BYTES || outLength(this.out) > OUT_HIGH_WATER_BYTES)) {
        this.blocked = true;
      }
    }
    if (this.head === queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue = queue.slice(this.head);
      this.head = 0;
    }
    if (this.pressured && this.queuedBytes < this.highWater / 4) {
      this.pressured = false;
      this.options.onPressure?.(false);
    }
    if (this.head === this.queue.length && !this.blocked) this.resolveIdle();
  }

  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = true;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    this.resolveIdle();
    this.options.onError?.(error);
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function outLength(out: NodeJS.WritableStream): number {
  return (out as NodeJS.WritableStream & { writableLength?: number }).writableLength ?? Number.POSITIVE_INFINITY;
}

/** The bytes between the outer brackets of a JSON array; undefined when it is empty. */
function stripBrackets(parts: Buffer[], length: number): { parts: Buffer[]; length: number } | undefined {
  const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
  const open = whole.indexOf(OPEN);
  const close = whole.lastIndexOf(CLOSE);
  const inner = whole.subarray(open + 1, close);
  if (inner.length < 64 && inner.toString('latin1').trim() === '') return undefined;
  return { parts: [inner], length: inner.length };
}
