/** A client that speaks raw wire messages, for literal transcripts and malformed input. */
import { createMemoryTransportPair, type MessageTransport } from '@tether/protocol';

/** Whatever serves the other end: an app-server, or a test's own connection. */
export interface RawServer {
  connect(transport: MessageTransport): unknown;
}

/** Sends literal messages and reads what comes back, in order. */
export class RawClient {
  readonly received: Record<string, unknown>[] = [];
  private read = 0;
  private wake: (() => void) | undefined;
  private readonly transport: MessageTransport;

  constructor(server: RawServer) {
    const [clientSide, serverSide] = createMemoryTransportPair();
    server.connect(serverSide);
    this.transport = clientSide;
    clientSide.start({
      onMessage: (m) => {
        this.received.push(m as Record<string, unknown>);
        this.wake?.();
      },
      onClose: () => undefined,
    });
  }

  /** Sends one message (a JSON text is parsed first, so tests can paste seed lines). */
  send(message: string | object): void {
    this.transport.send(typeof message === 'string' ? JSON.parse(message) : message);
  }

  /** Resolves with the next message not yet taken. */
  async next(): Promise<Record<string, unknown>> {
    return (await this.take(() => true))[0]!;
  }

  /** Resolves with every message received since the last call, up to and including the first matching `until`. */
  async take(until: (m: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + timeoutMs;
    let scan = this.read;
    for (;;) {
      for (; scan < this.received.length; scan++) {
        if (!until(this.received[scan]!)) continue;
        const out = this.received.slice(this.read, scan + 1);
        this.read = scan + 1;
        return out;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `timed out; received since last take: ${JSON.stringify(this.received.slice(this.read)).slice(0, 2000)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Sends a request (JSON text or object) and resolves with everything received up to its response. */
  async call(
    message: string | { id: number | string; method: string; params?: unknown },
  ): Promise<Record<string, unknown>[]> {
    const m = typeof message === 'string' ? (JSON.parse(message) as { id: number | string }) : message;
    this.send(m);
    return this.take((r) => r.id === m.id && ('result' in r || 'error' in r));
  }

  close(): void {
    this.transport.close();
  }
}

/** Parses literal JSON lines. */
export function lines(...texts: string[]): unknown[] {
  return texts.map((t) => JSON.parse(t));
}
