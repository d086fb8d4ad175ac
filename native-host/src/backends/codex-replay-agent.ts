/**
 * Test support: plays the agent's side of a transcript recorded from a real agent (JSONL lines
 * `{"dir":"out"|"in","msg":...}`, "out" = what the client sent). When the adapter under test sends a request, the
 * agent answers with the recorded answer to the next recorded request of that method and then replays what the agent
 * sent after it, up to the next thing the client has to do. Used for the codex and acp adapters alike.
 */
import { readFileSync } from 'node:fs';
import { ErrorCode, type MessageTransport, type RequestId } from '@tether/protocol';

/** One line of a transcript. */
export interface TranscriptEntry {
  readonly dir: 'in' | 'out' | 'restart';
  readonly msg?: Record<string, unknown>;
}

/** Reads a transcript file. */
export function readTranscript(file: string | URL): TranscriptEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as TranscriptEntry);
}

/** The fixture folder of the repository (`test/fixtures`). */
export const FIXTURES = new URL('../../../test/fixtures/', import.meta.url);

/** A scripted agent replaying a transcript on the upstream end of an adapter. */
export class ReplayAgent {
  /** Everything the adapter sent, in order. */
  readonly received: Record<string, unknown>[] = [];
  /** Answers the adapter gave to the agent's requests, by recorded request id. */
  readonly answers = new Map<RequestId, unknown>();
  private cursor = 0;
  /** Recorded request id -> the id the adapter used for the same request. */
  private readonly matched = new Map<RequestId, RequestId>();
  private waitingFor: RequestId | undefined;
  private readonly jsonrpc: boolean;

  constructor(
    private readonly entries: TranscriptEntry[],
    private readonly transport: MessageTransport,
    options: { jsonrpc?: boolean } = {},
  ) {
    this.jsonrpc = options.jsonrpc ?? false;
    transport.start({ onMessage: (m) => this.onMessage(m as Record<string, unknown>), onClose: () => undefined });
  }

  /** Sends a message as the agent (for injecting unknown notifications and the like). */
  inject(message: Record<string, unknown>): void {
    this.transport.send(message);
  }

  /** Replays what the agent sent from the cursor on, without a request to trigger it. */
  flush(): void {
    this.pump();
  }

  private onMessage(m: Record<string, unknown>): void {
    this.received.push(m);
    if (typeof m.method !== 'string') {
      // The adapter answered a server request.
      if (this.waitingFor !== undefined && m.id !== undefined) {
        this.answers.set(this.waitingFor, 'result' in m ? m.result : { error: m.error });
        this.waitingFor = undefined;
        this.pump();
      }
      return;
    }
    if (m.id === undefined) return;
    const index = this.entries.findIndex(
      (e, i) =>
        i >= this.cursor &&
        e.dir === 'out' &&
        e.msg?.method === m.method &&
        e.msg?.id !== undefined &&
        !this.matched.has(e.msg.id as RequestId),
    );
    if (index < 0) {
      this.transport.send(
        this.frame({
          id: m.id,
          error: { code: ErrorCode.InternalError, message: `replay has no further ${String(m.method)}` },
        }),
      );
      return;
    }
    this.matched.set(this.entries[index]!.msg!.id as RequestId, m.id as RequestId);
    // Requests the adapter skipped are passed over with everything recorded before this one.
    if (this.waitingFor === undefined) this.cursor = Math.max(this.cursor, index);
    this.pump();
  }

  /** Sends recorded agent messages until the client has to act: a request of its own not sent yet, or an answer. */
  private pump(): void {
    while (this.waitingFor === undefined && this.cursor < this.entries.length) {
      const e = this.entries[this.cursor]!;
      const msg = e.msg;
      if (e.dir !== 'in' || !msg) {
        const isRequest = e.dir === 'out' && msg && msg.id !== undefined && typeof msg.method === 'string';
        if (isRequest && !this.matched.has(msg.id as RequestId)) return;
        this.cursor++;
        continue;
      }
      this.cursor++;
      if (msg.method === undefined) {
        // An answer: it goes out under the id the adapter used; answers to requests it never sent are dropped.
        const id = this.matched.get(msg.id as RequestId);
        if (id !== undefined) this.transport.send({ ...msg, id });
        continue;
      }
      this.transport.send(msg);
      if (msg.id !== undefined) this.waitingFor = msg.id as RequestId;
    }
  }

  private frame(m: Record<string, unknown>): Record<string, unknown> {
    return this.jsonrpc ? { jsonrpc: '2.0', ...m } : m;
  }
}
