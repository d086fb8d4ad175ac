/**
 * A minimal JSON-RPC peer for dialect adapters. Unlike `Connection`, it settles responses through callbacks that run
 * synchronously when the response is read, so an adapter can answer its own client before it translates the next
 * message from the agent: order across the two wires is kept (e.g. the `turn/start` answer precedes `turn/started`).
 */
import { ErrorCode, ErrorObject, type MessageTransport, type RequestId, RpcError, TransportClosedError } from '@tether/protocol';

/** Settles one outgoing request: exactly one of the two is called, synchronously on the read of the response. */
export interface Settle {
  ok(result: unknown): void;
  fail(error: Error): void;
}

/** Answers one inbound request once; later calls are ignored. */
export interface Reply {
  readonly id: RequestId;
  ok(result: unknown): void;
  /** RpcError keeps its code; anything else becomes -32603 with its message. */
  fail(error: unknown): void;
}

/** What the owner of a peer handles. */
export interface PeerHandlers {
  onRequest(method: string, params: unknown, reply: Reply): void;
  onNotification(method: string, params: unknown): void;
  onClose(error?: Error): void;
}

/** Options of a peer. */
export interface PeerOptions {
  /** Emit `"jsonrpc":"2.0"` on every message (ACP and vv-agent require it). */
  readonly jsonrpc: boolean;
  /** Names the peer in log lines. */
  readonly name: string;
  readonly log: (line: string) => void;
}

/** One end of a JSON-RPC conversation over a MessageTransport. */
export class RpcPeer {
  private readonly pending = new Map<RequestId, { method: string; settle: Settle }>();
  private nextId = 1;
  private closed = false;
  private handlers: PeerHandlers | undefined;

  constructor(
    private readonly transport: MessageTransport,
    private readonly options: PeerOptions,
  ) {}

  /** Starts reading; call once. */
  start(handlers: PeerHandlers): void {
    this.handlers = handlers;
    this.transport.start({
      onMessage: (m) => this.receive(m),
      onDecodeError: (e) => this.options.log(`${this.options.name}: undecodable input ignored: ${e.message}`),
      onClose: (e) => this.shutdown(e),
    });
  }

  /** True once the transport closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends a request; `settle` runs synchronously when the answer is read. Returns the id used. */
  call(method: string, params: unknown, settle: Settle): RequestId {
    const id = this.nextId++;
    if (this.closed) {
      settle.fail(new TransportClosedError(`Cannot send ${method} to ${this.options.name}: the connection is closed`));
      return id;
    }
    this.pending.set(id, { method, settle });
    this.write(params === undefined ? { id, method } : { id, method, params });
    return id;
  }

  /** Promise form of `call`. */
  request(method: string, params?: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => this.call(method, params, { ok: resolve, fail: reject }));
  }

  /** Forgets a pending request: its answer, if one comes, is ignored. */
  forget(id: RequestId): void {
    this.pending.delete(id);
  }

  /** Sends a notification (dropped with a log line once closed). */
  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { method } : { method, params });
  }

  /** Closes the transport; pending requests fail with TransportClosedError. */
  close(): void {
    if (this.closed) return;
    this.transport.close();
    this.shutdown(undefined);
  }

  private write(message: Record<string, unknown>): void {
    if (this.closed) {
      this.options.log(`${this.options.name}: not sent (closed): ${String(message.method ?? `answer to ${JSON.stringify(message.id)}`)}`);
      return;
    }
    try {
      this.transport.send(this.options.jsonrpc ? { jsonrpc: '2.0', ...message } : message);
    } catch (error) {
      this.options.log(`${this.options.name}: send failed: ${String(error)}`);
    }
  }

  private answer(id: RequestId, body: { result: unknown } | { error: unknown }): void {
    this.write({ id, ...body });
  }

  private receive(message: unknown): void {
    if (Array.isArray(message)) {
      for (const m of message) this.receive(m);
      return;
    }
    if (typeof message !== 'object' || message === null) {
      this.options.log(`${this.options.name}: ignored a non-object message`);
      return;
    }
    const m = message as Record<string, unknown>;
    const id = m.id;
    if (typeof m.method === 'string') {
      // `id: 0` is a real id (Codex and ACP agents start their own requests at 0).
      if (id === undefined || id === null) this.handlers?.onNotification(m.method, m.params);
      else if (isRequestId(id)) this.handlers?.onRequest(m.method, m.params, this.replyFor(id, m.method));
      else this.write({ id: null, error: RpcError.invalidRequest('"id" must be an integer or a string').toJSON() });
      return;
    }
    if (!isRequestId(id)) {
      this.options.log(`${this.options.name}: message without a usable id ignored: ${JSON.stringify(m).slice(0, 300)}`);
      return;
    }
    const pending = this.pending.get(id);
    if (!pending) {
      this.options.log(`${this.options.name}: answer to unknown or forgotten request ${JSON.stringify(id)} ignored`);
      return;
    }
    this.pending.delete(id);
    if ('error' in m) {
      const e = ErrorObject.safeParse(m.error);
      pending.settle.fail(
        e.success ? RpcError.fromObject(e.data) : RpcError.internal(`malformed error answer to ${pending.method}: ${JSON.stringify(m.error)}`),
      );
    } else {
      pending.settle.ok(m.result);
    }
  }

  private replyFor(id: RequestId, method: string): Reply {
    let done = false;
    return {
      id,
      ok: (result) => {
        if (done) return;
        done = true;
        this.answer(id, { result: result === undefined ? {} : result });
      },
      fail: (error) => {
        if (done) return;
        done = true;
        const rpc =
          error instanceof RpcError
            ? error
            : new RpcError(ErrorCode.InternalError, `Internal error: ${method} failed: ${error instanceof Error ? error.message : String(error)}`);
        if (!(error instanceof RpcError)) this.options.log(`${this.options.name}: ${method} failed: ${String(error)}`);
        this.answer(id, { error: rpc.toJSON() });
      },
    };
  }

  private shutdown(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    const reason = new TransportClosedError(`${this.options.name} connection closed${error ? `: ${error.message}` : ''}`, { cause: error });
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.settle.fail(reason);
    this.handlers?.onClose(error);
  }
}

/** An integer or a string: what JSON-RPC ids may be here (checked by hand: this runs for every message). */
function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}
