/**
 * The requests a shared command backend makes of the browser (`approval/request`, `item/tool/call`), held for the
 * browser connections that subscribe to their thread. With none there, a page-tool call waits for one as long as the
 * embedded backend's would (the same ClientWaits, the same words when none comes); an approval waits until one comes.
 * A connection that goes away without answering leaves the request to the next one; the first answer is the only one
 * the backend gets, so a request is decided at most once.
 */
import { browserClosedToolText, ClientWaits } from '../app-server/client-wait';
import { asRecord, str } from './dialect-core';

/** A browser connection as the held requests see it. */
export interface RequestClient {
  /** Small number for logs. */
  readonly serial: number;
  /** Whether it follows `threadId` (any connection that finished `initialize` serves a request of no thread). */
  follows(threadId: string | undefined): boolean;
  /** Sends it a message (a server request under an id of its own). */
  deliver(message: Record<string, unknown>): void;
}

/** What HeldRequests needs of the shared backend. */
export interface HeldRequestsOptions {
  /** The connections now attached. */
  readonly clients: () => Iterable<RequestClient>;
  /** Answers the backend's request `upstreamId` (its id as the backend sent it). */
  readonly reply: (upstreamId: unknown, body: { result: unknown } | { error: unknown }) => void;
  /** How long a page-tool call waits for a connection (the daemon's pageToolWaitMs). */
  readonly pageToolWaitMs: number;
  readonly log: (line: string) => void;
}

interface Held {
  readonly upstreamId: unknown;
  readonly message: Record<string, unknown>;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly threadId: string | undefined;
  /** Connections that have the request, under the id each got it with. */
  readonly asked: Map<RequestClient, number>;
  /** Aborted once the request is answered or withdrawn: ends its wait. */
  readonly ended: AbortController;
  waiting: boolean;
}

/** The backend's open requests to the browser. */
export class HeldRequests {
  private readonly held = new Set<Held>();
  private readonly byId = new Map<number, Held>();
  private readonly waits = new ClientWaits();
  private nextId = 1;

  constructor(private readonly options: HeldRequestsOptions) {}

  /** Requests not answered yet. */
  get size(): number {
    return this.held.size;
  }

  /** A request from the backend: sent to the connections that follow its thread, or held until one does. */
  add(upstreamId: unknown, method: string, message: Record<string, unknown>): void {
    const params = asRecord(message.params);
    const entry: Held = {
      upstreamId,
      message,
      method,
      params,
      threadId: str(params.threadId),
      asked: new Map(),
      ended: new AbortController(),
      waiting: false,
    };
    this.held.add(entry);
    this.serve(entry);
  }

  /** An answer from `client` to the request it got as `id`: passed to the backend if nothing answered it before. */
  answer(client: RequestClient, id: unknown, body: { result: unknown } | { error: unknown }): void {
    const entry = typeof id === 'number' ? this.byId.get(id) : undefined;
    if (!entry || entry.asked.get(client) !== id) {
      this.options.log(`connection ${client.serial} answered request ${JSON.stringify(id)}, which is no longer open`);
      return;
    }
    this.finish(entry);
    this.options.reply(entry.upstreamId, body);
  }

  /** The backend withdrew or ended what matches (approval/resolved, item/tool/call/cancelled, turn/completed). */
  withdraw(match: (method: string, params: Record<string, unknown>) => boolean): void {
    for (const entry of [...this.held]) if (match(entry.method, entry.params)) this.finish(entry);
  }

  /** A connection subscribed to a thread or finished `initialize`: what it follows goes to it. */
  changed(): void {
    for (const entry of this.held) this.offer(entry);
    // The waits of what was just sent end here (their requests are asked; serve() then finds nothing to do).
    this.waits.changed();
  }

  /** A connection went away: what it had and did not answer goes to another, or waits again. */
  dropClient(client: RequestClient): void {
    for (const entry of [...this.held]) {
      const id = entry.asked.get(client);
      if (id === undefined) continue;
      entry.asked.delete(client);
      this.byId.delete(id);
      if (entry.asked.size === 0) this.serve(entry);
    }
  }

  /** The backend is gone: nothing is answered any more. */
  clear(): void {
    for (const entry of [...this.held]) this.finish(entry);
  }

  private serve(entry: Held): void {
    this.offer(entry);
    if (entry.asked.size > 0 || entry.waiting || !this.held.has(entry)) return;
    entry.waiting = true;
    const isTool = entry.method === 'item/tool/call';
    const thread = entry.threadId === undefined ? '' : ` of thread ${entry.threadId}`;
    this.options.log(
      `${entry.method}${thread} waits for a browser${isTool ? ` (at most ${this.options.pageToolWaitMs} ms)` : ''}`,
    );
    const found = () => (this.candidates(entry).length > 0 ? entry : undefined);
    const timeout = isTool ? this.options.pageToolWaitMs : Number.POSITIVE_INFINITY;
    void this.waits.wait(found, timeout, entry.ended.signal).then((served) => {
      entry.waiting = false;
      if (!this.held.has(entry)) return;
      if (served) this.serve(entry);
      else if (isTool) {
        this.finish(entry);
        const text = browserClosedToolText(str(entry.params.tool) ?? 'the page tool');
        this.options.reply(entry.upstreamId, { result: { success: false, content: [{ type: 'text', text }] } });
      }
    });
  }

  /** Sends the request to who follows its thread: an approval to each, a page-tool call to one only. */
  private offer(entry: Held): void {
    const once = entry.method === 'item/tool/call';
    for (const client of this.candidates(entry)) {
      if (entry.asked.has(client)) continue;
      if (once && entry.asked.size > 0) return;
      const id = this.nextId++;
      entry.asked.set(client, id);
      this.byId.set(id, entry);
      client.deliver({ ...entry.message, id });
    }
  }

  private candidates(entry: Held): RequestClient[] {
    return [...this.options.clients()].filter((c) => c.follows(entry.threadId));
  }

  private finish(entry: Held): void {
    if (!this.held.delete(entry)) return;
    for (const id of entry.asked.values()) this.byId.delete(id);
    entry.ended.abort();
  }
}
