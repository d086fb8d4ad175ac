/**
 * The byte-level Backend interface over something that carries objects: a MessageTransport (a dialect adapter), or
 * an in-process server (the embedded app-server) through `connectInProcess`. Each message is parsed once on the way
 * in and serialised once on the way out.
 */
import type { MessageTransport, TransportHandlers } from '@tether/protocol';
import { parseJsonPayload } from '@tether/protocol/codec';
import { ErrorCode, TransportClosedError, errorMessage } from '@tether/protocol/errors';
import { secrets } from '../secrets';
import type { BackendSink } from './types';

const NEWLINE = 0x0a;

/** Connects `transport` to `sink`; returns the function that sends one JSON text to the transport. */
export function attachTransport(
  transport: MessageTransport,
  sink: BackendSink,
  onClose: (error?: Error) => void,
): (payload: Buffer) => void {
  const emit = (message: unknown): void => {
    // What an adapter says on an agent's behalf is the host's own message: redacted (see isStreamedDelta).
    const json = JSON.stringify(message);
    const bytes = Buffer.from(isStreamedDelta(message) ? json : secrets.json(json), 'utf8');
    sink.message(bytes, 0, bytes.length);
  };
  transport.start({
    onMessage: emit,
    onDecodeError: (error) => sink.problem(error.message),
    onClose,
  });
  return (payload) => {
    const message = parsePayload(payload, emit);
    if (message === undefined) return;
    try {
      transport.send(message);
    } catch {
      // Closed: the close is reported through onClose, and pending requests are failed by the bridge.
    }
  };
}

/** A server's transport that can also say when the host can take more output (see `Peer.flushed`). */
export interface InProcessServerTransport extends MessageTransport {
  /** Resolves at once, or, while the host's output to the browser is over its high-water mark, once it is not. */
  flushed(): Promise<void>;
}

/** The host's end of an in-process connection made by `connectInProcess`. */
export interface InProcessLink {
  /** The transport to start the in-process server on (its only consumer). */
  readonly server: InProcessServerTransport;
  /** Hands one message from the browser (the bytes of its JSON text) to the server, parsed once. */
  send(payload: Buffer): void;
  /** The browser is (true) or is no longer (false) behind: `server.flushed()` waits meanwhile. */
  pause(paused: boolean): void;
  /** Closes both ends: what the server sent so far still reaches the sink, then `onClose` fires once. */
  close(): void;
}

/**
 * Connects an in-process server (whose transport carries objects) to `sink` without cloning anything. What the server
 * sends is serialised at once, inside `send`, so a later change to the object cannot alter what was sent and the
 * server keeps ownership of its objects. The texts sent in one tick are encoded into one buffer, separated by
 * newlines, and handed to the sink as one range each, which the frame writer packs into one array frame without
 * copying a message (see `FrameWriter.enqueueRange`). Messages from the browser are parsed once and delivered on a
 * microtask, in order, as a pipe would; each parsed object is owned by the server from then on.
 */
export function connectInProcess(sink: BackendSink, onClose: (error?: Error) => void): InProcessLink {
  return new InProcessConnection(sink, onClose);
}

/** A message from the browser that could not be decoded; never confused with a message, which is plain JSON data. */
class Undecodable {
  constructor(readonly error: Error) {}
}

class InProcessConnection implements InProcessLink {
  readonly server: InProcessServerTransport = {
    start: (handlers) => {
      this.handlers = handlers;
      this.scheduleIn();
    },
    send: (message) => this.fromServer(message),
    close: () => this.close(),
    flushed: () =>
      !this.paused || this.closed ? Promise.resolve() : new Promise((resolve) => this.resumeWaiters.push(resolve)),
  };
  private handlers: TransportHandlers | undefined;
  private closed = false;
  // Server -> host: JSON texts of this tick, and how many UTF-16 units they hold (to find the ranges when all ASCII).
  private outTexts: string[] = [];
  private outUnits = 0;
  private outScheduled = false;
  // Host -> server: parsed messages (or what could not be decoded) not yet delivered.
  private inbox: unknown[] = [];
  private inScheduled = false;
  private paused = false;
  private resumeWaiters: Array<() => void> = [];
  private readonly deliverOut = (): void => this.flushOut();
  private readonly deliverIn = (): void => this.flushIn();

  constructor(
    private readonly sink: BackendSink,
    private readonly onClose: (error?: Error) => void,
  ) {}

  send(payload: Buffer): void {
    if (this.closed) return;
    let message: unknown;
    try {
      message = parseJsonPayload(payload, 'Message');
    } catch (error) {
      // Reported as the server's own transport would report it, in order: the app-server then answers -32700 and
      // logs it exactly as it does standalone (invalid UTF-8 included), instead of reading replacement characters.
      message = new Undecodable(error instanceof Error ? error : new Error(String(error)));
    }
    if (Array.isArray(message)) for (const item of message) this.inbox.push(item);
    else this.inbox.push(message);
    this.scheduleIn();
  }

  pause(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.resume();
  }

  close(): void {
    if (this.closed) return;
    this.flushOut();
    this.closed = true;
    this.inbox = [];
    this.resume();
    this.handlers?.onClose();
    this.onClose();
  }

  private fromServer(message: unknown): void {
    if (this.closed) throw new TransportClosedError('The in-process connection to the host is closed');
    const raw = JSON.stringify(message) as string | undefined;
    if (raw === undefined)
      throw new TypeError(`Cannot send ${String(message)} to the host: a message must be a JSON value`);
    const json = isStreamedDelta(message) ? raw : secrets.json(raw);
    this.outTexts.push(json);
    this.outUnits += json.length + 1;
    if (!this.outScheduled) {
      this.outScheduled = true;
      queueMicrotask(this.deliverOut);
    }
  }

  /** Hands the texts of this tick to the sink: one buffer, one range per message. */
  private flushOut(): void {
    this.outScheduled = false;
    const texts = this.outTexts;
    if (texts.length === 0 || this.closed) return;
    const units = this.outUnits;
    this.outTexts = [];
    this.outUnits = 0;
    const bytes = Buffer.from(texts.length === 1 ? texts[0]! : texts.join('\n'), 'utf8');
    if (bytes.length === units - 1) {
      // All ASCII (the usual case): byte offsets are the string offsets.
      let start = 0;
      for (const text of texts) {
        const end = start + text.length;
        this.sink.message(bytes, start, end);
        start = end + 1;
      }
      return;
    }
    // JSON text never holds a raw newline (JSON.stringify escapes it), so each newline ends one message.
    let start = 0;
    for (let k = 0; k < texts.length; k++) {
      const end = k === texts.length - 1 ? bytes.length : bytes.indexOf(NEWLINE, start);
      this.sink.message(bytes, start, end);
      start = end + 1;
    }
  }

  private scheduleIn(): void {
    if (this.inScheduled || !this.handlers || this.inbox.length === 0) return;
    this.inScheduled = true;
    queueMicrotask(this.deliverIn);
  }

  private flushIn(): void {
    this.inScheduled = false;
    const batch = this.inbox;
    this.inbox = [];
    for (const message of batch) {
      if (this.closed) return;
      if (!(message instanceof Undecodable)) this.handlers?.onMessage(message);
      else if (this.handlers?.onDecodeError) this.handlers.onDecodeError(message.error);
      else
        this.fromServer({
          id: null,
          error: { code: ErrorCode.ParseError, message: `Parse error: ${message.error.message}` },
        });
    }
  }

  private resume(): void {
    const waiters = this.resumeWaiters;
    this.resumeWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** The message in `payload` (strict UTF-8, as every peer reads it), or undefined after answering -32700 through `reply`. */
function parsePayload(payload: Buffer, reply: (error: unknown) => void): unknown {
  try {
    return parseJsonPayload(payload, 'Message');
  } catch (error) {
    reply({
      id: null,
      error: {
        code: ErrorCode.ParseError,
        message: `Parse error: ${errorMessage(error)}`,
      },
    });
    return undefined;
  }
}

const STREAMED_DELTAS: ReadonlySet<unknown> = new Set(['item/agentMessage/delta', 'item/reasoning/delta']);

/**
 * True for a streamed text delta. The embedded app-server's messages are the host's own and are redacted in full,
 * except these: they are the bulk of the traffic, where the full test (about 0.8 us for a 240-byte delta) would cost
 * as much as serialising them again. They still get the frame writer's search for known secret values, and the
 * completed item that follows them is redacted in full.
 */
function isStreamedDelta(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'method' in message && STREAMED_DELTAS.has(message.method);
}
