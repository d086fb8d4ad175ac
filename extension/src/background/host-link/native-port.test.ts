import { splitIntoChunks, TransportClosedError } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { NativePortClosedError, NativePortTransport, type PortLike } from './native-port';

class FakePort implements PortLike {
  readonly posted: unknown[] = [];
  disconnected = false;
  private messageListener: ((m: unknown) => void) | undefined;
  private disconnectListener: (() => void) | undefined;
  throwOnPost: Error | undefined;
  readonly onMessage = { addListener: (l: (m: unknown) => void) => void (this.messageListener = l) };
  readonly onDisconnect = { addListener: (l: () => void) => void (this.disconnectListener = l) };
  postMessage(m: unknown): void {
    if (this.throwOnPost) throw this.throwOnPost;
    this.posted.push(m);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** What the browser does with a host frame: JSON-parse it and deliver the value. */
  deliver(frameJson: string): void {
    this.messageListener?.(JSON.parse(frameJson));
  }
  drop(): void {
    this.disconnectListener?.();
  }
}

function start(port: FakePort, lastError?: string, onBatch?: (m: unknown[]) => unknown[]) {
  const messages: unknown[] = [];
  const decodeErrors: Error[] = [];
  let closed: Error | undefined | 'open' = 'open';
  const transport = new NativePortTransport(port, { lastError: () => lastError, ...(onBatch ? { onBatch } : {}) });
  transport.start({
    onMessage: (m) => messages.push(m),
    onDecodeError: (e) => decodeErrors.push(e),
    onClose: (e) => (closed = e),
  });
  return { transport, messages, decodeErrors, closed: () => closed };
}

describe('NativePortTransport', () => {
  it('unpacks a batch frame into its messages, in order', () => {
    const port = new FakePort();
    const { messages } = start(port);
    port.deliver(JSON.stringify([{ method: 'a' }, { id: 1, result: {} }, { method: 'b' }]));
    expect(messages).toEqual([{ method: 'a' }, { id: 1, result: {} }, { method: 'b' }]);
  });

  it('reassembles a message split into bridge/chunk pieces and delivers it whole', () => {
    const port = new FakePort();
    const { messages } = start(port);
    const big = {
      method: 'item/agentMessage/delta',
      params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 'é'.repeat(1_500_000) },
    };
    const pieces = splitIntoChunks(JSON.stringify(big), { id: 'm1' });
    expect(pieces.length).toBeGreaterThan(2);
    port.deliver(JSON.stringify([{ method: 'before' }]));
    for (const piece of pieces) port.deliver(piece);
    port.deliver(JSON.stringify({ method: 'after' }));
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual(big);
    expect(messages.map((m) => (m as { method: string }).method)).toEqual([
      'before',
      'item/agentMessage/delta',
      'after',
    ]);
  });

  it('reports a gap in the pieces as a decode error and keeps going', () => {
    const port = new FakePort();
    const { messages, decodeErrors } = start(port);
    const pieces = splitIntoChunks(JSON.stringify({ method: 'x', params: { s: 'a'.repeat(3_000_000) } }), { id: 'm2' });
    port.deliver(pieces[0]!);
    port.deliver(pieces[2]!);
    port.deliver(JSON.stringify({ method: 'next' }));
    expect(decodeErrors).toHaveLength(1);
    expect(messages).toEqual([{ method: 'next' }]);
  });

  it('lets onBatch take notifications and passes the rest on', () => {
    const port = new FakePort();
    const seen: unknown[][] = [];
    const { messages } = start(port, undefined, (batch) => {
      seen.push(batch);
      return batch.filter((m) => 'id' in (m as object));
    });
    port.deliver(JSON.stringify([{ method: 'n1' }, { id: 1, result: {} }, { method: 'n2' }]));
    expect(seen).toEqual([[{ method: 'n1' }, { id: 1, result: {} }, { method: 'n2' }]]);
    expect(messages).toEqual([{ id: 1, result: {} }]);
  });

  it("closes with the browser's lastError text when the port disconnects", () => {
    const port = new FakePort();
    const { closed } = start(port, 'Specified native messaging host not found.');
    port.drop();
    const error = closed();
    expect(error).toBeInstanceOf(NativePortClosedError);
    expect((error as Error).message).toBe('Specified native messaging host not found.');
  });

  it('turns the 64 MiB postMessage failure into a transport error and stays open', () => {
    const port = new FakePort();
    const { transport, closed } = start(port);
    port.throwOnPost = new Error('Message exceeded maximum allowed size of 64MiB.');
    expect(() => transport.send({ method: 'x' })).toThrow(/64 MiB/);
    expect(closed()).toBe('open');
    transport.close();
    expect(port.disconnected).toBe(true);
    expect(closed()).toBeUndefined();
    expect(() => transport.send({})).toThrow(TransportClosedError);
  });
});
