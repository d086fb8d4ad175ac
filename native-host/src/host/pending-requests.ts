/**
 * The browser's requests in flight at the current backend, so that they can be failed with -32050 when the backend
 * goes away instead of leaving the extension waiting. Ids are tracked from scanned envelopes (never parsed messages),
 * and answers are looked for in the backend's output only while something is pending, which is rare during a stream
 * of deltas (turn/start is answered before its deltas start).
 */
import { RpcError } from '@tether/protocol/errors';
import type { BackendExit } from '../backends/types';
import { type Envelope, forEachBatchMember, scanEnvelope } from './envelope-scan';

/** Requests remembered at most; beyond, the oldest are forgotten (a backend that never answers must not grow us). */
export const MAX_PENDING = 100_000;

const OPEN_BRACE = 0x7b;

/** Writes an answer to the browser; `rawId` is the id's JSON text as it arrived (echoed byte for byte). */
export type ReplyError = (rawId: string, error: RpcError) => void;

/** Request ids sent to the current backend and not answered yet, with their methods. */
export class PendingRequests {
  /** Raw id text -> method. */
  private readonly pending = new Map<string, string>();

  /** How many requests are in flight (0 on the hot path: answers need no scan then). */
  get size(): number {
    return this.pending.size;
  }

  /** Remembers a request sent to the current backend; notifications and responses are ignored. */
  track(envelope: Envelope): void {
    if (envelope.id === undefined || envelope.method === undefined) return;
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(envelope.id, envelope.method);
  }

  /** Forgets the request that `envelope` (a message from the backend) answers, if it is a response. */
  settle(envelope: Envelope): void {
    if (envelope.isResponse && envelope.method === undefined && envelope.id !== undefined)
      this.pending.delete(envelope.id);
  }

  /** Forgets the requests answered by the members of a batch from the backend, scanned in place. */
  settleBatch(whole: Buffer): void {
    // A malformed batch is the browser's to reject: only well-formed object members are looked at.
    forEachBatchMember(whole, (start, end) => {
      if (whole[start] === OPEN_BRACE) this.settle(scanEnvelope(whole.subarray(start, end)));
    });
  }

  /** Answers every pending request with -32050 saying why (`reason`) and forgets them all. */
  failAll(backend: string, reason: string, exit: Pick<BackendExit, 'code' | 'signal'>, reply: ReplyError): void {
    for (const [rawId, method] of this.pending) {
      reply(
        rawId,
        RpcError.backendUnavailable(`${method} was not answered: ${reason}`, {
          backend,
          method,
          code: exit.code,
          signal: exit.signal,
        }),
      );
    }
    this.pending.clear();
  }
}
