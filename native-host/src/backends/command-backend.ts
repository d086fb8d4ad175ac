/**
 * A backend of the protocol's own dialect started as a child process. Messages pass through as bytes: frames from the
 * browser become lines on the child's stdin, lines from its stdout become frames; nothing is parsed here.
 */
import type { CommandBackendConfig } from '../config/schema';
import { LineSplitter } from '@tether/protocol/codec';
import { Gather, writeParts } from '../bytes/gather';
import { type ChildHandle, exitReport, spawnBackend } from './spawn';
import type { Backend, BackendContext, BackendSink } from './types';

const NEWLINE = 0x0a;
/** Bytes queued for the child's stdin past which the host stops reading the browser. */
const INPUT_HIGH_WATER_BYTES = 4 * 1024 * 1024;

/** Passthrough backend over a child's stdin/stdout (JSONL). */
export class CommandBackend implements Backend {
  private handle: ChildHandle | undefined;
  private sink: BackendSink | undefined;
  private readonly gather = new Gather();
  private flushScheduled = false;
  private pressured = false;

  constructor(
    readonly id: string,
    readonly config: CommandBackendConfig,
    private readonly context: BackendContext,
  ) {}

  get pid(): number | undefined {
    return this.handle?.pid;
  }

  start(sink: BackendSink): void {
    this.sink = sink;
    const started = spawnBackend(this.id, this.config, {
      env: this.context.env ?? process.env,
      configFile: this.context.configFile,
      log: this.context.log,
    });
    if (!('child' in started)) {
      queueMicrotask(() => sink.exit(started));
      return;
    }
    this.handle = started;
    const { child } = started;
    const reader = new LineSplitter<Buffer>(
      {
        message: (chunk, start, end) => sink.message(chunk, start, end),
        messageParts: (parts, length) => sink.messageParts(parts, length),
        // The only error a LineSplitter reports is an over-long line, which it skips.
        error: (error) =>
          sink.problem(
            `The "${this.id}" backend wrote a line of more than ${this.context.maxLineBytes} bytes; it was dropped (${error.message})`,
          ),
      },
      { maxLineBytes: this.context.maxLineBytes },
    );
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    const outputEnded = new Promise<void>((resolve) => child.stdout.once('close', resolve));
    child.stdin.on('drain', () => {
      if (!this.pressured) return;
      this.pressured = false;
      sink.inputPressure(false);
    });
    void started.exited.then(async (ended) => {
      // Lines written just before exiting are still in the pipe: deliver them before saying it ended.
      await Promise.race([outputEnded, new Promise((r) => setTimeout(r, 250).unref())]);
      reader.end();
      if (this.pressured) {
        this.pressured = false;
        sink.inputPressure(false);
      }
      sink.exit(exitReport(this.id, started, ended));
    });
  }

  send(parts: readonly Buffer[]): void {
    if (!this.handle) return;
    for (const part of parts) this.gather.add(part);
    this.gather.byte(NEWLINE);
    this.scheduleFlush();
  }

  sendRange(chunk: Buffer, start: number, end: number): void {
    if (!this.handle) return;
    this.gather.addRange(chunk, start, end);
    this.gather.byte(NEWLINE);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    // Every frame of one stdin read is sent in one write, after the read has been split.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const stdin = this.handle?.child.stdin;
    const parts = this.gather.take();
    if (!stdin || stdin.destroyed || stdin.writableEnded || parts.length === 0) return;
    // Node's 16 KiB high-water mark would stop reading the browser after every large message, leaving both pipes
    // idle while the child catches up: keep a few MiB in flight and stop only past that.
    if (!writeParts(stdin, parts) && stdin.writableLength > INPUT_HIGH_WATER_BYTES && !this.pressured) {
      this.pressured = true;
      this.sink?.inputPressure(true);
    }
  };

  pauseOutput(paused: boolean): void {
    const stdout = this.handle?.child.stdout;
    if (!stdout) return;
    if (paused) stdout.pause();
    else stdout.resume();
  }

  async stop(): Promise<void> {
    if (this.flushScheduled) this.flush();
    await this.handle?.stop();
  }
}
