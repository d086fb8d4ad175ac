/**
 * A backend that speaks another dialect: its child process talks JSONL to a dialect adapter, and the adapter talks
 * Tether's protocol to the host. Messages are objects here, serialised once on the way to the browser.
 */
import type { MessageTransport } from '@tether/protocol';
import type { CommandBackendConfig } from '../config/schema';
import { type ForeignDialect, loadDialectAdapter } from './dialects';
import { type ChildHandle, exitReport, spawnBackend } from './spawn';
import { attachTransport } from './transport-backend';
import type { Backend, BackendContext, BackendSink } from './types';

/** Child process + dialect adapter. */
export class AdapterBackend implements Backend {
  private handle: ChildHandle | undefined;
  private adapter: MessageTransport | undefined;
  private sendToAdapter: ((payload: Buffer) => void) | undefined;
  private queued: Buffer[] = [];
  private stopped = false;

  constructor(
    readonly id: string,
    readonly config: CommandBackendConfig & { dialect: ForeignDialect },
    private readonly context: BackendContext,
  ) {}

  get pid(): number | undefined {
    return this.handle?.pid;
  }

  start(sink: BackendSink): void {
    void this.startAsync(sink);
  }

  private async startAsync(sink: BackendSink): Promise<void> {
    const { log } = this.context;
    const factory = await loadDialectAdapter(this.config.dialect).catch((error: unknown) => {
      log(
        `backend ${this.id}: loading the ${this.config.dialect} adapter failed: ${(error as Error).stack ?? String(error)}`,
      );
      return undefined;
    });
    if (!factory) {
      sink.exit({
        code: null,
        signal: null,
        stderrTail: [],
        failedToStart: true,
        message: `The "${this.id}" backend uses the "${this.config.dialect}" dialect, which this build of tether cannot translate. Fix: update tether, or change backends.${this.id}.dialect in ${this.context.configFile}`,
      });
      return;
    }
    if (this.stopped) return;
    const started = spawnBackend(this.id, this.config, {
      env: this.context.env ?? process.env,
      configFile: this.context.configFile,
      log,
    });
    if (!('child' in started)) {
      sink.exit(started);
      return;
    }
    this.handle = started;
    const { createJsonlTransport } = await import('../stdio-transport');
    const upstream = createJsonlTransport(started.child.stdout, started.child.stdin, {
      maxLineBytes: this.context.maxLineBytes,
      name: `${this.id} backend`,
    });
    const adapter = factory(upstream, {
      backendId: this.id,
      dataDir: this.context.dataDir,
      log: (line) => log(`${this.id}: ${line}`),
      backend: this.config,
      ...(this.context.mcp ? { mcp: this.context.mcp } : {}),
    });
    this.adapter = adapter;
    // An adapter that gives up (closes its side) leaves nothing to talk to: stop the agent, whose exit is reported.
    this.sendToAdapter = attachTransport(adapter, sink, () => void started.stop());
    for (const payload of this.queued) this.sendToAdapter(payload);
    this.queued = [];
    void started.exited.then((ended) => {
      adapter.close();
      sink.exit(exitReport(this.id, started, ended));
    });
  }

  sendRange(chunk: Buffer, start: number, end: number): void {
    this.send([chunk.subarray(start, end)], end - start);
  }

  send(parts: readonly Buffer[], length: number): void {
    const payload = parts.length === 1 ? parts[0]! : Buffer.concat(parts as Buffer[], length);
    if (this.sendToAdapter) this.sendToAdapter(payload);
    else this.queued.push(payload);
  }

  pauseOutput(paused: boolean): void {
    const stdout = this.handle?.child.stdout;
    if (paused) stdout?.pause();
    else stdout?.resume();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.adapter?.close();
    await this.handle?.stop();
  }
}
