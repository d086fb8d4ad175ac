import { TransportClosedError } from './errors';
import type { MessageTransport, TransportHandlers } from './transport';

/** Options of createMemoryTransportPair. */
export interface MemoryTransportOptions {
  /**
   * Structured-clone every message (default true), so neither side can see the other change an object after sending.
   * Turn it off where every message is a fresh object nobody touches again: cloning costs a third of a long stream.
   */
  readonly clone?: boolean;
}

/**
 * Two connected in-memory transports. Messages are delivered asynchronously (on a microtask, so no call re-enters its
 * caller) and in order, as a real pipe would, so tests and in-process backends see the same timing as over stdio.
 * Like a pipe, a close first delivers what was already sent, on both ends, then the close.
 */
export function createMemoryTransportPair(options: MemoryTransportOptions = {}): [MessageTransport, MessageTransport] {
  const clone = options.clone ?? true;
  const a = new MemoryTransport(clone);
  const b = new MemoryTransport(clone);
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class MemoryTransport implements MessageTransport {
  peer: MemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private inbox: unknown[] = [];
  private scheduled = false;
  private closed = false;

  constructor(private readonly clone: boolean) {}

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.schedule();
  }

  send(message: unknown): void {
    if (this.closed) throw new TransportClosedError('In-memory transport is closed');
    this.peer?.receive(this.clone ? structuredClone(message) : message);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    this.handlers?.onClose();
    this.peer?.closeFromPeer();
  }

  private closeFromPeer(): void {
    // What the peer sent before it closed is still delivered, then the close.
    queueMicrotask(() => this.close());
  }

  private receive(message: unknown): void {
    if (this.closed) return;
    if (Array.isArray(message)) this.inbox.push(...message);
    else this.inbox.push(message);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || !this.handlers) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.handlers) return;
    const batch = this.inbox;
    this.inbox = [];
    for (const m of batch) this.handlers.onMessage(m);
  }
}
