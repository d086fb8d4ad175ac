/**
 * One browser connection's Backend over a shared command backend (shared-command.ts): starting it joins the shared
 * process, stopping it leaves it (the process and its turns go on for the others, or until the turns end).
 */
import type { RequestClient } from './held-requests';
import type { SharedCommand } from './shared-command';
import type { Backend, BackendSink } from './types';

let nextClient = 1;

/** A connection's handle on a shared command backend. */
export class SharedCommandClient implements Backend, RequestClient {
  readonly serial = nextClient++;
  sink: BackendSink | undefined;
  /** True once its `initialize` was answered: requests of no thread may go to it. */
  ready = false;
  private readonly threads = new Set<string>();

  constructor(
    private readonly shared: SharedCommand,
    private readonly log: (line: string) => void,
  ) {}

  get id(): string {
    return this.shared.backend.id;
  }

  get config() {
    return this.shared.backend.config;
  }

  get pid(): number | undefined {
    return this.shared.backend.pid;
  }

  start(sink: BackendSink): void {
    this.sink = sink;
    this.shared.attach(this);
  }

  send(parts: readonly Buffer[], length: number): void {
    this.shared.fromClient(this, parts.length === 1 ? parts[0]! : Buffer.concat(parts as Buffer[], length));
  }

  sendRange(chunk: Buffer, start: number, end: number): void {
    this.shared.fromClient(this, chunk.subarray(start, end));
  }

  pauseOutput(paused: boolean): void {
    this.shared.pauseOutput(this, paused);
  }

  /** Leaves the shared backend; it stops only when nobody uses it and no turn runs. */
  async stop(): Promise<void> {
    this.shared.detach(this);
  }

  /**
   * Stops the shared process itself (a restart): every connection sees it end, and the next start makes a new one.
   * Refused (RestartRefused), with nothing stopped, while turns run that this connection does not follow alone.
   */
  async stopProcess(reason: string): Promise<void> {
    await this.shared.restart(this, reason);
  }

  follows(threadId: string | undefined): boolean {
    return threadId === undefined ? this.ready : this.threads.has(threadId);
  }

  /** From now on the thread's notifications and requests come to this connection too. */
  follow(threadId: string): void {
    if (this.threads.has(threadId)) return;
    this.threads.add(threadId);
    this.log(`follows thread ${threadId} of the shared "${this.shared.backend.id}" backend`);
    this.shared.held.changed();
  }

  unfollow(threadId: string): void {
    this.threads.delete(threadId);
  }

  deliver(message: Record<string, unknown>): void {
    const bytes = Buffer.from(JSON.stringify(message));
    this.sink?.message(bytes, 0, bytes.length);
  }
}
