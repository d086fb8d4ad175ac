import { TransportClosedError } from './errors';
import type { MessageTransport, TransportHandlers } from './transport';

/**
 * Two connected in-memory transports. Messages are structured-cloned and delivered asynchronously and in order,
 * as a real pipe would, so tests and the in-process backend see the same timing as over stdio.
 */
export function createMemoryTransportPair(): [MessageTransport, MessageTransport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
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

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.flushSoon();
  }

  send(message: unknown): void {
    if (this.closed) throw new TransportClosedError('In-memory transport is closed');
    this.peer?.receive(structuredClone(message));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers?.onClose();
    this.peer?.close();
  }

  private receive(message: unknown): void {
    if (this.closed) return;
    if (Array.isArray(message)) this.inbox.push(...message);
    else this.inbox.push(message);
    this.flushSoon();
  }

  private flushSoon(): void {
    if (this.scheduled || !this.handlers) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const batch = this.inbox;
      this.inbox = [];
      for (const m of batch) {
        if (this.closed) return;
        this.handlers?.onMessage(m);
      }
    });
  }
}
