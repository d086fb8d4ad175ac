/**
 * The reference app-server inside the host process (no child), connected by `connectInProcess`: nothing is cloned,
 * each message is serialised once straight into the frame writer's input. It starts in microseconds and is what the
 * host serves when nothing else is configured.
 */
import type { AppServerSession } from '../app-server';
import type { EmbeddedBackendConfig } from '../config/schema';
import { connectInProcess, type InProcessLink } from './transport-backend';
import type { Backend, BackendContext, BackendSink, SharedEngine } from './types';
import { errorMessage } from '@tether/protocol/errors';

/** In-process backend running `startAppServer`. */
export class EmbeddedBackend implements Backend {
  readonly pid = undefined;
  private link: InProcessLink | undefined;
  private session: Promise<AppServerSession | undefined> = Promise.resolve(undefined);
  /** The daemon's engine it connected to (a restart replaces it), and its session on it once connected. */
  private shared: SharedEngine | undefined;
  private connected: AppServerSession | undefined;
  private stopping = false;

  constructor(
    readonly id: string,
    readonly config: EmbeddedBackendConfig,
    private readonly context: BackendContext,
  ) {}

  start(sink: BackendSink): void {
    const link = connectInProcess(sink, (error) => {
      const replaced = this.connected && this.shared?.endedBecause(this.connected);
      sink.exit({
        code: null,
        signal: null,
        stderrTail: [],
        message: this.stopping
          ? `The "${this.id}" backend was stopped`
          : replaced
            ? `The "${this.id}" backend (built into the host) was restarted for every browser (${replaced})`
            : `The "${this.id}" backend (built into the host) closed its connection${error ? `: ${error.message}` : ''}`,
      });
    });
    this.link = link;
    const log = this.context.log;
    // Imported on first use: a host serving a command backend never loads the app-server's modules.
    this.session = import('../app-server').then(
      ({ startAppServer }) => {
        if (this.stopping) return undefined;
        const options = {
          dataDir: this.config.dataDir === undefined ? this.context.dataDir : this.config.dataDir,
          ...(this.config.model ? { model: this.config.model } : {}),
          // The endpoint saved by the options page; TETHER_OPENAI_* fill what it leaves out.
          ...(this.config.openai ? { config: { openai: this.config.openai } } : {}),
          log: (line: string) => log(`embedded: ${line}`),
        };
        if (!this.context.sharedEngine) return startAppServer(link.server, options);
        this.shared = this.context.sharedEngine(options);
        this.connected = this.shared.connect(link.server);
        return this.connected;
      },
      (error: unknown) => {
        log(`backend ${this.id}: the built-in app-server failed to start: ${(error as Error).stack ?? String(error)}`);
        link.close();
        return undefined;
      },
    );
  }

  sendRange(chunk: Buffer, start: number, end: number): void {
    this.send([chunk.subarray(start, end)], end - start);
  }

  send(parts: readonly Buffer[], length: number): void {
    const payload = parts.length === 1 ? parts[0]! : Buffer.concat(parts as Buffer[], length);
    this.link?.send(payload);
  }

  pauseOutput(paused: boolean): void {
    // The app-server's fast streams await `flushed()` every few hundred deltas: that is where they wait.
    this.link?.pause(paused);
  }

  /**
   * A restart the user asked for: in the daemon, the shared engine is replaced by a fresh one (refused, with nothing
   * stopped, while turns run that this browser does not follow alone); in-process, stopping already ends the engine.
   */
  async stopProcess(reason: string): Promise<void> {
    await this.session;
    if (this.shared && this.connected && !this.stopping) await this.shared.replace(this.id, this.connected, reason);
    await this.stop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const session = await this.session;
    try {
      // Interrupts running turns and journals their end before the store closes.
      await session?.close();
    } catch (error) {
      this.context.log(`backend ${this.id}: error while closing the built-in app-server: ${errorMessage(error)}`);
    }
    this.link?.close();
  }
}
