/**
 * One relayed browser connection inside the daemon: what `tether host` did in-process for its browser (bridge/*
 * methods, the backend supervisor, the MCP hub), over JSON lines on the socket instead of frames on stdio. When the
 * relay goes away the connection's backend is stopped, but an embedded backend's engine is shared by the daemon, so
 * its running turns go on journaling and another connection can `thread/resume` them.
 */
import type { Socket } from 'node:net';
import { BROWSER_MAX_INBOUND_BYTES, LineSplitter } from '@tether/protocol/codec';
import { errorMessage } from '@tether/protocol/errors';
import type { AppServerHandle, AppServerOptions } from '../app-server';
import type { Bridge } from '../host/bridge';
import { FrameWriter } from '../host/frame-writer';
import { createHostBridge, loadHostConfig } from '../host/host-setup';
import type { Log } from '../log';
import { McpHub } from '../mcp/hub';
import { TETHER_VERSION } from '../version';
import type { DaemonHello } from './handshake';

/** Options of serveConnection. */
export interface ConnectionOptions {
  readonly socket: Socket;
  /** Bytes that arrived after the first line. */
  readonly rest: Buffer;
  readonly hello: DaemonHello;
  /** Tags this connection's log lines. */
  readonly id: number;
  readonly log: Log;
  readonly sharedEngine: (options: AppServerOptions) => AppServerHandle;
}

/** A connection being served. */
export interface DaemonConnection {
  /** Settles once the relay is gone and the connection's backend has stopped. */
  readonly closed: Promise<void>;
  /** Stops serving: the backend is stopped, queued output flushed, the socket ended. */
  close(reason: string): Promise<void>;
}

/** Serves one relayed browser connection until the relay goes away (or close()). */
export async function serveConnection(options: ConnectionOptions): Promise<DaemonConnection> {
  const { socket, hello, id } = options;
  const log: Log = (line) => options.log(`connection ${id}: ${line}`);
  const loaded = await loadHostConfig();
  if (loaded.configError) log(loaded.configError.message);
  const mcp = new McpHub({ browser: hello.browser ?? 'browser', log });
  let bridge: Bridge | undefined;
  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const close = (reason: string): Promise<void> => {
    closing ??= (async () => {
      log(`closing: ${reason}`);
      socket.pause();
      try {
        await bridge?.shutdown();
        await mcp.close();
      } catch (error) {
        log(`error while closing: ${errorMessage(error)}`);
      }
      socket.end();
      resolveClosed();
    })();
    return closing;
  };

  const writer = new FrameWriter(socket, {
    framing: 'lines',
    onPressure: (high) => bridge?.outputPressure(high),
    onError: (error) => void close(`the relay's socket failed: ${error.message}`),
  });
  bridge = createHostBridge({
    ...loaded,
    writer,
    log,
    mcp,
    hostVersion: hello.hostVersion ?? TETHER_VERSION,
    setInputPaused: (paused) => (paused ? socket.pause() : socket.resume()),
    daemon: { daemonVersion: TETHER_VERSION },
    sharedEngine: options.sharedEngine,
  });
  const lines = new LineSplitter<Buffer>(
    {
      message: (chunk, start, end) => bridge?.fromBrowserRange(chunk, start, end),
      messageParts: (parts, length) => bridge?.fromBrowser(parts, length),
      error: (error) => {
        log(error.message);
        writer.enqueueText(JSON.stringify({ method: 'error', params: { message: error.message, code: 'frameError' } }));
      },
    },
    { maxLineBytes: BROWSER_MAX_INBOUND_BYTES },
  );
  socket.on('data', (chunk: Buffer) => lines.push(chunk));
  socket.once('end', () => {
    lines.end();
    void close('the relay disconnected');
  });
  socket.once('error', (error) => void close(`socket error: ${error.message}`));
  socket.once('close', () => void close('the relay disconnected'));
  if (options.rest.length > 0) lines.push(options.rest);
  socket.resume();
  log(`serving ${hello.browser ?? 'a browser'} through tether host ${hello.hostVersion ?? '(unknown version)'}`);
  return { closed, close };
}
