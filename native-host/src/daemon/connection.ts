/**
 * One relayed browser connection inside the daemon: what `tether host` did in-process for its browser (bridge/*
 * methods, the backend supervisor, the MCP hub), over JSON lines on the socket instead of frames on stdio. When the
 * relay goes away, running turns go on journaling and another connection can `thread/resume` them: the daemon shares
 * an embedded backend's engine and a command backend's process (backends/shared-command.ts) among its connections.
 */
import type { Socket } from 'node:net';
import { BROWSER_MAX_INBOUND_BYTES, LineSplitter } from '@tether/protocol/codec';
import { errorMessage } from '@tether/protocol/errors';
import type { AppServerOptions } from '../app-server';
import type { SharedCommands, SharedEngine } from '../backends/types';
import type { Bridge } from '../host/bridge';
import { FrameWriter } from '../host/frame-writer';
import { loadHostConfig } from '../host/host-config';
import { createHostBridge } from '../host/host-setup';
import type { Log } from '../log';
import { McpHub } from '../mcp/hub';
import { toolCacheFile } from '../mcp/tool-cache';
import { TETHER_VERSION } from '../version';
import { type DaemonClient, type DaemonHello, daemonVersion } from './handshake';

/** Options of serveConnection. */
export interface ConnectionOptions {
  readonly socket: Socket;
  /** Bytes that arrived after the first line. */
  readonly rest: Buffer;
  readonly hello: DaemonHello;
  /** Tags this connection's log lines. */
  readonly id: number;
  readonly log: Log;
  readonly sharedEngine: (options: AppServerOptions) => SharedEngine;
  readonly sharedCommands: SharedCommands;
}

/** A connection being served. */
export interface DaemonConnection {
  /** Settles once the relay is gone and the connection's backend has stopped. */
  readonly closed: Promise<void>;
  /** True until the relay goes away. */
  readonly attached: boolean;
  /** Which browser this is and where `tether mcp` reaches it, for the daemon's status. */
  readonly client: DaemonClient;
  /** Stops serving now: the backend is stopped (its running turns interrupted), the socket ended. */
  close(reason: string): Promise<void>;
}

/** Serves one relayed browser connection until the relay goes away (or close()). */
export async function serveConnection(options: ConnectionOptions): Promise<DaemonConnection> {
  const { socket, hello, id } = options;
  const log: Log = (line) => options.log(`connection ${id}: ${line}`);
  // Loaded for each connection, not cached: an edit of the config file (backends, model, presets, the options page's
  // save) applies to the next browser connection, with no mtime to trust (an editor that keeps it, two writes within
  // its granularity). It is cheap once the daemon has loaded Zod for the first connection: a read, a JSON parse and a
  // validation, 0.05 ms a connection (median of 2000 loads of a 4-backend config, p99 under 12 ms at load average 10)
  // against 175 ms for a relay's hello.
  const loaded = await loadHostConfig();
  if (loaded.configError) log(loaded.configError.message);
  // Its own MCP hub, announced as `host-DAEMONPID-ID`: `tether mcp` finds this browser as it finds an in-process host.
  const mcp = new McpHub({ browser: hello.browser ?? 'browser', log, connection: id, toolCache: toolCacheFile() });
  let bridge: Bridge | undefined;
  let attached = true;
  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  /** The relay went away: the backend's running turns go on in the daemon's shared engine or process. */
  const relayGone = (reason: string): Promise<void> => {
    if (!attached) return closing ?? Promise.resolve();
    attached = false;
    socket.pause();
    // No browser behind this hub any more: `tether mcp` must not pick it.
    void mcp.withdraw();
    return finish(reason);
  };
  const close = (reason: string): Promise<void> => {
    attached = false;
    return finish(reason);
  };
  const finish = (reason: string): Promise<void> => {
    closing ??= (async () => {
      log(`closing: ${reason}`);
      socket.pause();
      try {
        if ((await bounded(bridge?.shutdown(), BRIDGE_SHUTDOWN_MS)) === 'late')
          log(`the backend's shutdown took over ${BRIDGE_SHUTDOWN_MS} ms; closing without it`);
      } catch (error) {
        log(`error while closing: ${errorMessage(error)}`);
      } finally {
        // The MCP endpoint's listening socket would keep the daemon alive: it closes whatever became of the bridge.
        await mcp
          .close()
          .catch((error: unknown) => log(`error while closing the MCP endpoint: ${errorMessage(error)}`));
        socket.end();
        resolveClosed();
      }
    })();
    return closing;
  };

  const writer = new FrameWriter(socket, {
    framing: 'lines',
    onPressure: (high) => bridge?.outputPressure(high),
    onError: (error) => void relayGone(`the relay's socket failed: ${error.message}`),
  });
  bridge = createHostBridge({
    ...loaded,
    writer,
    log,
    mcp,
    hostVersion: hello.hostVersion ?? TETHER_VERSION,
    setInputPaused: (paused) => (paused ? socket.pause() : socket.resume()),
    daemon: { daemonVersion: daemonVersion() },
    sharedEngine: (engineOptions) => inGroup(options.sharedEngine(engineOptions), hello.browser),
    sharedCommands: options.sharedCommands,
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
    void relayGone('the relay disconnected');
  });
  socket.once('error', (error) => void relayGone(`socket error: ${error.message}`));
  socket.once('close', () => void relayGone('the relay disconnected'));
  if (options.rest.length > 0) lines.push(options.rest);
  // The relay may have gone while the config loaded, before these listeners were there to hear it.
  if (socket.destroyed || socket.readableEnded) void relayGone('the relay disconnected');
  socket.resume();
  let mcpSocket: string | undefined;
  if (attached) void mcp.announce().then((path) => (mcpSocket = path));
  log(`serving ${hello.browser ?? 'a browser'} through tether host ${hello.hostVersion ?? '(unknown version)'}`);
  return {
    closed,
    close,
    get attached() {
      return attached;
    },
    get client(): DaemonClient {
      return { id, browser: hello.browser ?? 'browser', ...(mcpSocket === undefined ? {} : { mcpSocket }) };
    },
  };
}

/**
 * How long closing a connection waits for its bridge (the backend's stop, the last messages to the relay) before it
 * closes the rest anyway; under the daemon's stop phase (server.ts), so a stuck bridge cannot hold the daemon.
 */
export const BRIDGE_SHUTDOWN_MS = 2_000;

/** Waits for `work`, at most `ms`: 'late' when it was cut short. */
async function bounded(work: Promise<void> | undefined, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([(work ?? Promise.resolve()).then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The engine, its connections named after the browser this relay serves (a page tool waits for that browser). */
function inGroup(engine: SharedEngine, browser: string | undefined): SharedEngine {
  return {
    connect: (transport, connectOptions) =>
      engine.connect(transport, { ...connectOptions, ...(browser === undefined ? {} : { group: browser }) }),
    close: () => engine.close(),
    get runningTurns() {
      return engine.runningTurns;
    },
    runningTurnsBeyond: (session) => engine.runningTurnsBeyond(session),
    replace: (backend, session, reason) => engine.replace(backend, session, reason),
    endedBecause: (session) => engine.endedBecause(session),
  };
}
