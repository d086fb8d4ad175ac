/** Helpers for this package's tests: a raw peer that sees and sends wire messages without a Connection; byte joining. */
import type { DecodeSink } from './codec/json-payload';
import { type PayloadSink, wholePayloads } from './codec/payload-sink';
import { Connection, clientInbound, serverInbound } from './connection';
import type { Side } from './connection-types';
import { createMemoryTransportPair } from './memory-transport';
import type { ApprovalRequestParams } from './schema/approval';
import type { MessageTransport, TransportHandlers } from './transport';

/** One end of a transport driven by hand: every received message is queued for `next()`. */
export interface RawPeer {
  readonly received: unknown[];
  /** Resolves with the next received message (in order). */
  next(): Promise<unknown>;
  send(message: unknown): void;
  close(): void;
}

/** Starts `transport` and records what arrives on it. */
export function rawPeer(transport: MessageTransport): RawPeer {
  const received: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  let read = 0;
  transport.start({
    onMessage: (m) => {
      received.push(m);
      const w = waiting.shift();
      if (w) w(received[read++]);
    },
    onClose: () => {},
  });
  return {
    received,
    next: () => (read < received.length ? Promise.resolve(received[read++]) : new Promise((r) => waiting.push(r))),
    send: (m) => transport.send(m),
    close: () => transport.close(),
  };
}

/** A transport whose handlers the test calls directly (decode errors, closes with an error). */
export class ScriptedTransport implements MessageTransport {
  handlers: TransportHandlers | undefined;
  readonly sent: unknown[] = [];
  closed = false;
  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }
  send(message: unknown): void {
    if (this.closed) throw new Error('scripted transport closed');
    this.sent.push(message);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.handlers?.onClose();
  }
}

/** A thread without its status (tests add the status they need). */
export const threadFields = {
  id: 'thread_1',
  title: 'Investigate repo',
  model: 'm',
  archived: false,
  ephemeral: false,
  createdAtMs: 1,
  updatedAtMs: 2,
};

/** The seed's approval request params. */
export const approval: ApprovalRequestParams = {
  threadId: 'thread_1',
  turnId: 'turn_1',
  requestId: 'approval_1',
  toolName: 'bash',
  preview: 'Run cargo test',
  choices: ['allow', 'deny'],
};
/** An idle thread. */
export const thread = { ...threadFields, status: 'idle' as const };

/** What the raw-peer pairs pass on to their Connection. */
interface PeerOptions {
  readonly jsonrpc?: boolean;
  readonly requestTimeoutMs?: number;
}

/** A Connection receiving `inbound` on one end of a memory transport, a raw peer on the other, and its log lines. */
function withRawPeer<In extends Side, Out extends Side>(inbound: In, outbound: Out, options: PeerOptions) {
  const [a, b] = createMemoryTransportPair();
  const logs: string[] = [];
  const connection = new Connection(a, { inbound, outbound, log: (l) => logs.push(l), ...options });
  return { connection, peer: rawPeer(b), logs };
}

/** A server-side Connection and a raw peer playing the client. */
export function serverWithRawClient(options: { jsonrpc?: boolean } = {}) {
  const { connection, peer, logs } = withRawPeer(serverInbound, clientInbound, options);
  return { server: connection, client: peer, logs };
}

/** A client-side Connection and a raw peer playing the server. */
export function clientWithRawServer(options: PeerOptions = {}) {
  const { connection, peer, logs } = withRawPeer(clientInbound, serverInbound, options);
  return { client: connection, server: peer, logs };
}

/** A decoder or splitter of the codec: fed chunks, then ended. */
interface ChunkDecoder {
  push(chunk: Uint8Array): void;
  end(): void;
}

/** Feeds `chunks` to the decoder `create` makes, then ends it; returns what it decoded and reported, in order. */
export function decodeChunks<D extends ChunkDecoder>(
  create: (sink: DecodeSink) => D,
  chunks: Iterable<Uint8Array>,
): { messages: unknown[]; errors: Error[]; decoder: D } {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const decoder = create({ message: (m) => messages.push(m), error: (e) => errors.push(e) });
  for (const c of chunks) decoder.push(c);
  decoder.end();
  return { messages, errors, decoder };
}

/** Feeds `chunks` to the splitter `create` makes, then ends it; returns its payloads as text and its errors, in order. */
export function splitChunks<D extends ChunkDecoder>(
  create: (sink: PayloadSink) => D,
  chunks: Iterable<Uint8Array>,
): { payloads: string[]; errors: Error[]; splitter: D } {
  const payloads: string[] = [];
  const errors: Error[] = [];
  const text = new TextDecoder();
  const splitter = create(
    wholePayloads(
      (p) => payloads.push(text.decode(p)),
      (e) => errors.push(e),
    ),
  );
  for (const c of chunks) splitter.push(c);
  splitter.end();
  return { payloads, errors, splitter };
}

/** The bytes of `parts`, one after the other, in a new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
