/**
 * The only place that calls `connectNative`. A MessageTransport over the native Port: host frames may carry one
 * message or a batch (JSON array); `bridge/chunk` pieces are reassembled into the message they split. Each frame's
 * messages pass through `onBatch` first, so notifications can be routed to pages as one batch, as the host sent them.
 * The browser's `lastError` text is kept as the close reason: it is what tells the user what is wrong.
 */
import {
  BRIDGE_CHUNK_METHOD,
  BridgeChunkNotification,
  ChunkAssembler,
  TransportError,
  TransportClosedError,
  errorMessage,
  type MessageTransport,
  type TransportHandlers,
} from '@tether/protocol';

/** Name of the native messaging host (see manifests/). */
export const NATIVE_HOST_NAME = 'dev.tether.bridge';

/** The part of chrome.runtime.Port this transport uses. */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: (port?: unknown) => void): void };
}

/** Why the native port closed, in the browser's words. */
export class NativePortClosedError extends TransportClosedError {
  override readonly name = 'NativePortClosedError';
}

/** Options of NativePortTransport. */
export interface NativePortTransportOptions {
  /** Reads `chrome.runtime.lastError?.message` inside onDisconnect. */
  readonly lastError: () => string | undefined;
  /** Sees each frame's messages in order and returns those the Connection should get. */
  readonly onBatch?: (messages: unknown[]) => unknown[];
}

/** A MessageTransport over a native messaging Port. */
export class NativePortTransport implements MessageTransport {
  private handlers: TransportHandlers | undefined;
  private readonly assembler = new ChunkAssembler({ maxPending: 8 });
  private closed = false;

  constructor(
    private readonly port: PortLike,
    private readonly options: NativePortTransportOptions,
  ) {}

  /** Starts delivery; listeners are attached here, right after the port was created. */
  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.port.onMessage.addListener((frame) => this.receive(frame));
    this.port.onDisconnect.addListener((port) => {
      // Chrome puts the reason in runtime.lastError; Firefox in the port's `error`.
      const firefoxError = errorMessageOf(port);
      const reason = this.options.lastError() ?? firefoxError ?? 'The Tether host closed the connection.';
      this.finish(new NativePortClosedError(reason));
    });
  }

  /** Posts one message (or batch); a message over the browser's 64 MiB limit throws TransportError (port stays open). */
  send(message: unknown): void {
    if (this.closed) throw new TransportClosedError('The native port is closed');
    try {
      this.port.postMessage(message);
    } catch (error) {
      const text = errorMessage(error);
      if (/exceeded maximum allowed size/i.test(text)) {
        throw new TransportError(`${text} Send less at once: the browser caps messages to the host at 64 MiB.`, {
          cause: error,
        });
      }
      throw new TransportClosedError(`Could not write to the native port: ${text}`, { cause: error });
    }
  }

  /** Disconnects the port; onClose fires once, without an error. */
  close(): void {
    if (this.closed) return;
    this.port.disconnect();
    this.finish(undefined);
  }

  private finish(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.assembler.clear();
    this.handlers?.onClose(error);
  }

  private receive(frame: unknown): void {
    if (this.closed || !this.handlers) return;
    const messages: unknown[] = [];
    for (const m of Array.isArray(frame) ? frame : [frame]) {
      if (!isChunk(m)) {
        messages.push(m);
        continue;
      }
      try {
        const text = this.assembler.accept(BridgeChunkNotification.parse(m.params));
        if (text === undefined) continue;
        const whole: unknown = JSON.parse(text);
        if (Array.isArray(whole)) messages.push(...whole);
        else messages.push(whole);
      } catch (error) {
        this.handlers.onDecodeError?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const forConnection = this.options.onBatch ? this.options.onBatch(messages) : messages;
    for (const m of forConnection) {
      if (this.closed) return;
      this.handlers.onMessage(m);
    }
  }
}

function isChunk(m: unknown): m is { method: string; params: unknown } {
  return typeof m === 'object' && m !== null && 'method' in m && m.method === BRIDGE_CHUNK_METHOD;
}

/** `port.error.message`, where Firefox says why a native port closed. */
function errorMessageOf(port: unknown): string | undefined {
  if (typeof port !== 'object' || port === null || !('error' in port)) return undefined;
  const { error } = port;
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string'
    ? error.message
    : undefined;
}

/** Opens the native port (the extension's one call to connectNative). */
export function connectNativeHost(): chrome.runtime.Port {
  return chrome.runtime.connectNative(NATIVE_HOST_NAME);
}
