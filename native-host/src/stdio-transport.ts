/**
 * JSONL over a pair of Node streams (a child's stdout/stdin, or our own stdin/stdout) as a MessageTransport.
 */
import {
  encodeJsonl,
  JsonlDecoder,
  TransportClosedError,
  TransportError,
  type MessageTransport,
  type TransportHandlers,
} from '@tether/protocol';

/** Options of createJsonlTransport. */
export interface JsonlTransportOptions {
  /** Longest line accepted from the readable, in bytes (default 64 MiB); longer lines are reported and skipped. */
  maxLineBytes?: number;
  /** End the writable when the transport closes (default true). */
  endWritable?: boolean;
  /** Names the peer in error messages, e.g. "codex app-server" (default "peer"). */
  name?: string;
}

/** A MessageTransport over Node streams, plus a way to wait until what was sent has left the process. */
export interface JsonlTransport extends MessageTransport {
  /** Resolves once everything sent so far has been flushed to the writable's underlying resource (or it failed). */
  flushed(): Promise<void>;
}

/**
 * JSONL transport over Node streams: decodes `readable` with JsonlDecoder and writes one line per message to
 * `writable` through one serialising writer that queues while `write()` returns false, so nothing is lost or
 * reordered and a slow peer never makes the writable buffer grow without bound. `onClose` fires once: when the
 * readable ends or fails, when the writable fails, or on close() (which ends the writable after queued data).
 */
export function createJsonlTransport(
  readable: NodeJS.ReadableStream,
  writable: NodeJS.WritableStream,
  opts: JsonlTransportOptions = {},
): JsonlTransport {
  return new StreamJsonlTransport(readable, writable, opts);
}

const encoder = new TextEncoder();

class StreamJsonlTransport implements JsonlTransport {
  private handlers: TransportHandlers | undefined;
  private decoder: JsonlDecoder | undefined;
  private closed = false;
  private readonly queue: Uint8Array[] = [];
  /** write() returned false: nothing more is written before 'drain'. */
  private waitingForDrain = false;
  private lastWrite: Promise<void> = Promise.resolve();
  private flushWaiters: (() => void)[] = [];
  private readonly name: string;

  constructor(
    private readonly readable: NodeJS.ReadableStream,
    private readonly writable: NodeJS.WritableStream,
    private readonly opts: JsonlTransportOptions,
  ) {
    this.name = opts.name ?? 'peer';
  }

  start(handlers: TransportHandlers): void {
    if (this.handlers) throw new Error('JSONL transport already started: start() is called once');
    this.handlers = handlers;
    this.decoder = new JsonlDecoder(
      {
        message: (m) => {
          if (!this.closed) handlers.onMessage(m);
        },
        error: (e) => {
          if (!this.closed) handlers.onDecodeError?.(e);
        },
      },
      this.opts.maxLineBytes === undefined ? {} : { maxLineBytes: this.opts.maxLineBytes },
    );
    this.readable.on('data', this.onData);
    this.readable.on('end', this.onEnd);
    this.readable.on('error', this.onReadError);
    this.readable.on('close', this.onReadClose);
    this.writable.on('error', this.onWriteError);
    this.writable.on('drain', this.onDrain);
  }

  send(message: unknown): void {
    if (this.closed) throw new TransportClosedError(`The connection to the ${this.name} is closed`);
    const line = encodeJsonl(message);
    if (this.waitingForDrain || this.queue.length > 0) this.queue.push(line);
    else this.write(line);
  }

  close(): void {
    this.finish();
  }

  flushed(): Promise<void> {
    if (this.queue.length === 0) return this.lastWrite;
    return new Promise<void>((resolve) => this.flushWaiters.push(resolve)).then(() => this.lastWrite);
  }

  private readonly onData = (chunk: Uint8Array | string): void => {
    if (this.closed) return;
    this.decoder?.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  };

  private readonly onEnd = (): void => {
    if (!this.closed) this.decoder?.end();
    this.finish();
  };

  private readonly onReadError = (cause: Error): void => {
    this.finish(new TransportError(`Reading from the ${this.name} failed: ${cause.message}`, { cause }));
  };

  private readonly onReadClose = (): void => {
    this.finish(new TransportClosedError(`The ${this.name}'s output closed before it ended`));
  };

  private readonly onWriteError = (cause: Error): void => {
    // Nothing queued can be delivered any more.
    this.queue.length = 0;
    this.resolveFlushWaiters();
    this.finish(new TransportError(`Writing to the ${this.name} failed: ${cause.message}`, { cause }));
  };

  private readonly onDrain = (): void => {
    this.waitingForDrain = false;
    this.flushQueue();
  };

  private write(line: Uint8Array): void {
    let ok = true;
    this.lastWrite = new Promise<void>((resolve) => {
      // A failed write resolves too: the failure itself reaches onClose through the 'error' event.
      ok = this.writable.write(line, () => resolve());
    });
    if (!ok) this.waitingForDrain = true;
  }

  private flushQueue(): void {
    // Corked, the queued lines leave in one writev instead of one system call each.
    const w = this.writable as NodeJS.WritableStream & { cork?: () => void; uncork?: () => void };
    const cork = this.queue.length > 1 && typeof w.cork === 'function' && typeof w.uncork === 'function';
    if (cork) w.cork!();
    let sent = 0;
    while (sent < this.queue.length && !this.waitingForDrain) this.write(this.queue[sent++]!);
    this.queue.splice(0, sent);
    if (cork) w.uncork!();
    if (this.queue.length > 0) return;
    this.resolveFlushWaiters();
    if (this.closed) {
      this.writable.removeListener('drain', this.onDrain);
      if (this.opts.endWritable !== false) this.writable.end();
    }
  }

  private resolveFlushWaiters(): void {
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const w of waiters) w();
  }

  /** Closes once: stops reading, ends the writable once the queue is written, tells the handlers. */
  private finish(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    const r = this.readable;
    r.removeListener('data', this.onData);
    r.removeListener('end', this.onEnd);
    r.removeListener('close', this.onReadClose);
    r.removeListener('error', this.onReadError);
    // A stream that fails after we stopped listening must not crash the process with an unhandled 'error'.
    r.on('error', ignore);
    r.pause();
    // onWriteError stays: queued lines are still being written, and a failure must release flushed() waiters.
    if (!this.waitingForDrain) this.flushQueue();
    this.handlers?.onClose(error);
  }
}

function ignore(): void {}
