/**
 * The two ends between an adapter and the host: like `createMemoryTransportPair` (in order, delivered on a microtask
 * so no call re-enters its caller) with two differences that make it a separate class, not a reuse:
 * - no structured cloning, because every message here is a fresh object that neither side changes after sending;
 *   cloning cost a third of the adapter's time on long streams (bench/agents);
 * - a close first delivers what was already sent, on both ends, where the memory pair drops it: an agent's last
 *   answers and its exit arrive together, and the host must still see those answers.
 * Should `createMemoryTransportPair` ever take options for both, this file can become a call to it.
 */
import { type MessageTransport, TransportClosedError, type TransportHandlers } from '@tether/protocol';

/** Two connected ends; closing one closes the other. */
export function createEndpointPair(): [MessageTransport, MessageTransport] {
  const a = new Endpoint();
  const b = new Endpoint();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class Endpoint implements MessageTransport {
  peer: Endpoint | undefined;
  private handlers: TransportHandlers | undefined;
  private inbox: unknown[] = [];
  private scheduled = false;
  private closed = false;

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.schedule();
  }

  send(message: unknown): void {
    if (this.closed) throw new TransportClosedError('The adapter endpoint is closed');
    this.peer?.receive(message);
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
