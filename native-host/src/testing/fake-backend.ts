/** A backend for the host's tests: records its life and what it receives, and lets the test answer, stop or crash it. */
import type { Backend, BackendExit, BackendSink } from '../backends/types';
import { type HostConfig, loadConfig } from '../config/load';
import type { BackendConfig } from '../config/schema';

/** A `Backend` with no process behind it; the test drives its output and its exit. */
export class FakeBackend implements Backend {
  readonly pid = undefined;
  readonly received: unknown[] = [];
  sink!: BackendSink;
  stopped = false;
  /** Set by a held `stop()`: exits the backend and resolves the stop. */
  finishStop: (() => void) | undefined;
  constructor(
    readonly id: string,
    readonly config: BackendConfig,
    /** When true, `stop()` waits until the test calls `finishStop` (a backend slow to exit). */
    private readonly holdStop = false,
  ) {}
  start(sink: BackendSink): void {
    this.sink = sink;
  }
  send(parts: readonly Buffer[]): void {
    this.received.push(JSON.parse(Buffer.concat(parts).toString()));
  }
  sendRange(chunk: Buffer, start: number, end: number): void {
    this.received.push(JSON.parse(chunk.toString('utf8', start, end)));
  }
  pauseOutput(): void {}
  stop(): Promise<void> {
    this.stopped = true;
    const exit = (): void => this.sink.exit({ code: 0, signal: null, stderrTail: [], message: 'stopped' });
    if (!this.holdStop) {
      exit();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.finishStop = () => {
        exit();
        resolve();
      };
    });
  }
  /** Emits one message from inside a larger chunk, as a backend's line arrives. */
  emit(message: unknown): void {
    const bytes = Buffer.from(`xx${JSON.stringify(message)}\n`);
    this.sink.message(bytes, 2, bytes.length - 1);
  }
  /** Exits with code 1 (and `info` over the defaults). */
  crash(info: Partial<BackendExit> = {}): void {
    this.sink.exit({
      code: 1,
      signal: null,
      stderrTail: ['boom'],
      message: `The "${this.id}" backend exited with code 1`,
      ...info,
    });
  }
}

/** A Linux config with two command backends, `a` (the default) and `b`. */
export function twoBackendConfig(): HostConfig {
  return loadConfig({
    platform: 'linux',
    homedir: '/home/u',
    env: {},
    readFile: () =>
      JSON.stringify({
        defaultBackend: 'a',
        backends: { a: { kind: 'command', argv: ['a'] }, b: { kind: 'command', argv: ['b'] } },
      }),
  });
}
