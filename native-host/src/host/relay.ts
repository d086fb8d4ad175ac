/**
 * `tether host` as a relay to the daemon: native-messaging frames on stdin become JSON lines on the daemon's socket,
 * and the daemon's lines become frames on stdout, packed and split over 1 MiB by the one FrameWriter, as when the
 * host served in-process. Nothing is parsed here: the daemon serves the connection (bridge/*, the backend, MCP).
 * When the browser disconnects the relay ends its side of the socket and exits at once; the daemon and its turns go
 * on.
 */
import { BROWSER_MAX_FRAME_BYTES, LineSplitter } from '@tether/protocol/codec';
import type { HostConfig } from '../config/defaults';
import type { DaemonLink } from '../daemon/client';
import type { Log } from '../log';
import { MAX_BACKEND_LINE_BYTES } from './bridge-hello';
import { readBrowserFrames } from './browser-input';
import { forEachBatchMember, shapeOf, shapeOfParts } from './envelope-scan';
import { FrameWriter } from './frame-writer';
import { HostExit } from './host-exit';
import { openStdout } from './stdio';

const NEWLINE = Buffer.from('\n');

/** Relays stdin/stdout to the daemon connection until either side ends; resolves with the exit code. */
export function relay(link: DaemonLink, log: Log): Promise<number> {
  return new Promise((resolveExit) => {
    const { socket } = link;
    const stdin = process.stdin;
    const stdout = openStdout();
    let finishing = false;

    const finish = (reason: string, code: number): void => {
      if (finishing) return;
      finishing = true;
      log(`relay stopping: ${reason}`);
      stdin.pause();
      stdin.removeAllListeners('data');
      socket.end();
      const deadline = setTimeout(() => done(code), 1000);
      void writer
        .whenIdle()
        .then(() => new Promise<void>((resolve) => stdout.end(resolve)))
        .then(() => {
          clearTimeout(deadline);
          done(code);
        });
    };
    const done = (code: number): void => {
      stdin.destroy();
      socket.destroy();
      setTimeout(() => process.exit(code), 200).unref();
      resolveExit(code);
    };

    const writer = new FrameWriter(stdout, {
      onPressure: (high) => (high ? socket.pause() : socket.resume()),
      onError: (error) => finish(`stdout failed (${error.message}): the browser closed the connection`, HostExit.Ok),
    });
    const lines = new LineSplitter<Buffer>(
      {
        message: (chunk, start, end) => {
          if (shapeOf(chunk, start, end) !== 'array') writer.enqueueRange(chunk, start, end);
          else toBrowserBatch(chunk.subarray(start, end));
        },
        messageParts: (parts, length) => {
          if (shapeOfParts(parts, length) !== 'array') writer.enqueue(parts, length, false);
          else toBrowserBatch(Buffer.concat(parts, length));
        },
        error: (error) => log(`the daemon sent a line the relay dropped: ${error.message}`),
      },
      { maxLineBytes: MAX_BACKEND_LINE_BYTES },
    );
    // The daemon joins the messages queued meanwhile into one array line, however long; a frame to the browser holds
    // at most 1 MiB, and a chunked array is not a message the extension reassembles: past that, each member goes on
    // its own and the writer packs them into frames again.
    const toBrowserBatch = (batch: Buffer): void => {
      if (batch.length <= BROWSER_MAX_FRAME_BYTES) writer.enqueue([batch], batch.length, true);
      else forEachBatchMember(batch, (s, e) => void writer.enqueueRange(batch, s, e));
    };
    if (link.rest.length > 0) lines.push(link.rest);
    socket.on('data', (chunk: Buffer) => lines.push(chunk));
    socket.once('close', () => {
      if (finishing) return;
      writer.enqueueText(
        JSON.stringify({
          method: 'error',
          params: { message: 'The Tether daemon stopped; reconnect to start it again.', code: 'daemonGone' },
        }),
      );
      finish('the daemon closed the connection', HostExit.Ok);
    });
    socket.on('error', (error) => log(`daemon socket: ${error.message}`));
    socket.resume();

    const toDaemon = (payload: Buffer): void => {
      socket.write(oneLine(payload));
      if (!socket.write(NEWLINE)) {
        stdin.pause();
        socket.once('drain', () => stdin.resume());
      }
    };
    readBrowserFrames(
      {
        message: (chunk, start, end) => toDaemon(chunk.subarray(start, end)),
        messageParts: (parts, length) => toDaemon(Buffer.concat(parts, length)),
      },
      writer,
      log,
      finish,
    );
  });
}

/** Whether `tether host` relays to the daemon when neither TETHER_DAEMON nor the config file's `daemon.enabled` says. */
export const DAEMON_BY_DEFAULT = true;

/** The variable that picks how the host serves: `0` in-process, `1` through the daemon (over the config file). */
export const DAEMON_ENV = 'TETHER_DAEMON';

/** How `tether host` serves its browser, and what decided it (for host.log). */
export interface HostMode {
  readonly relay: boolean;
  readonly why: string;
}

/** TETHER_DAEMON=0 or 1 if set, else the config file's `daemon.enabled`, else DAEMON_BY_DEFAULT. */
export function hostMode(config: Pick<HostConfig, 'daemonEnabled' | 'file'>, env = process.env): HostMode {
  const value = env[DAEMON_ENV];
  if (value === '0' || value === '1') return { relay: value === '1', why: `${DAEMON_ENV}=${value}` };
  if (config.daemonEnabled !== undefined)
    return { relay: config.daemonEnabled, why: `"daemon": {"enabled": ${config.daemonEnabled}} in ${config.file}` };
  return { relay: DAEMON_BY_DEFAULT, why: 'the default' };
}

/** The payload without raw newlines: JSON escapes them inside strings, so one is whitespace, and a space will do. */
function oneLine(payload: Buffer): Buffer {
  if (!payload.includes(0x0a)) return payload;
  const copy = Buffer.from(payload);
  for (let i = copy.indexOf(0x0a); i !== -1; i = copy.indexOf(0x0a, i + 1)) copy[i] = 0x20;
  return copy;
}
