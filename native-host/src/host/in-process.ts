/**
 * `tether host` serving its browser in-process, as before the daemon: when TETHER_DAEMON=0 or the config file says
 * so, or when the daemon cannot run. One backend behind a Bridge; on stdin EOF (the extension disconnected) it stops
 * the backend and exits well inside the 2 s after which Chromium sends SIGKILL. Imported only then, so a relaying
 * host loads none of it (the Bridge, the backends, MCP, Zod).
 */
import type { Log } from '../log';
import { McpHub } from '../mcp/hub';
import { toolCacheFile } from '../mcp/tool-cache';
import { TETHER_VERSION } from '../version';
import type { Bridge, BridgeOptions } from './bridge';
import { readBrowserFrames } from './browser-input';
import { FrameWriter } from './frame-writer';
import type { LoadedConfig } from './host-config';
import { HostExit } from './host-exit';
import { createHostBridge } from './host-setup';
import { openStdout } from './stdio';

/** When the host opens its MCP socket for `tether mcp`, after start. */
const ANNOUNCE_DELAY_MS = 300;

/** Whole shutdown budget: Chromium kills the host 2 s after EOF. */
const SHUTDOWN_BUDGET_MS = 1600;

/** Serves the browser on stdin/stdout until it disconnects (or a signal); resolves with the exit code. */
export function serve(
  loaded: LoadedConfig,
  log: Log,
  browser: string,
  daemon: BridgeOptions['daemon'],
): Promise<number> {
  return new Promise((resolveExit) => {
    const mcp = new McpHub({ browser, log, toolCache: toolCacheFile() });
    const stdin = process.stdin;
    const stdout = openStdout();
    let bridge: Bridge | undefined;
    let finishing = false;

    const finish = (reason: string, code: number): void => {
      if (finishing) return;
      finishing = true;
      const t0 = performance.now();
      stdin.pause();
      stdin.removeAllListeners('data');
      log(`stopping: ${reason}`);
      const deadline = setTimeout(() => {
        log(`shutdown did not finish within ${SHUTDOWN_BUDGET_MS} ms; exiting anyway`);
        done(code);
      }, SHUTDOWN_BUDGET_MS);
      void (bridge?.shutdown() ?? Promise.resolve())
        .then(() => mcp.close())
        .catch((error: unknown) => log(`shutdown error: ${(error as Error).stack ?? String(error)}`))
        .then(() => new Promise<void>((resolve) => stdout.end(resolve)))
        .then(() => {
          clearTimeout(deadline);
          log(`shutdown took ${Math.round(performance.now() - t0)} ms`);
          done(code);
        });
    };
    const done = (code: number): void => {
      stdin.destroy();
      // Nothing may keep the process past the browser's kill window (a stuck child pipe, a timer in a backend).
      setTimeout(() => process.exit(code), 200).unref();
      resolveExit(code);
    };

    const writer = new FrameWriter(stdout, {
      onPressure: (high) => bridge?.outputPressure(high),
      onError: (error) => finish(`stdout failed (${error.message}): the browser closed the connection`, HostExit.Ok),
    });
    bridge = createHostBridge({
      ...loaded,
      writer,
      log,
      mcp,
      hostVersion: TETHER_VERSION,
      setInputPaused: (paused) => (paused ? stdin.pause() : stdin.resume()),
      ...(daemon ? { daemon } : {}),
    });

    readBrowserFrames(
      {
        message: (chunk, start, end) => bridge?.fromBrowserRange(chunk, start, end),
        messageParts: (parts, length) => bridge?.fromBrowser(parts, length),
      },
      writer,
      log,
      finish,
    );
    // Once the first answers are out (the socket, its files and the sweep of stale ones cost `initialize` 7 ms when
    // done at once): `tether mcp` can find this host from then on. An ACP agent's stdio entry opens it on demand.
    setTimeout(() => void mcp.announce(), ANNOUNCE_DELAY_MS).unref();
  });
}
