/**
 * `tether host`: what the browser starts for each `connectNative`. Frames on stdin/stdout, logs to a file. It relays
 * to the per-user daemon (starting it when needed), which serves the connection and outlives it, unless hostMode()
 * says otherwise (`TETHER_DAEMON=0`, the config file's `"daemon": {"enabled": false}`) or the daemon cannot run; then
 * it serves in-process: one backend behind, and on stdin EOF (the extension disconnected) it stops the backend and
 * exits well inside the 2 s after which Chromium sends SIGKILL.
 */
import { readFileSync } from 'node:fs';
import { BROWSER_MAX_INBOUND_BYTES, FrameSplitter } from '@tether/protocol/codec';
import { errorMessage } from '@tether/protocol/errors';
import { connectCurrentDaemon } from '../daemon/client';
import { daemonFiles } from '../daemon/paths';
import { createFileLog, type Log } from '../log';
import { McpHub } from '../mcp/hub';
import { toolCacheFile } from '../mcp/tool-cache';
import { logFile } from '../paths';
import { TETHER_VERSION } from '../version';
import type { Bridge, BridgeOptions } from './bridge';
import { type Caller, checkCaller } from './caller';
import { FrameWriter } from './frame-writer';
import { createHostBridge, type LoadedConfig, loadHostConfig } from './host-setup';
import { hostMode, relay } from './relay';
import { openStdout } from './stdio';

/** Exit codes of `tether host`. */
export const HostExit = {
  /** Input ended (the browser disconnected) or SIGTERM. */
  Ok: 0,
  /** The caller is not an allowed extension (or there is no caller argument). */
  CallerRefused: 3,
  /** The input is not a native-messaging stream (oversized or zero length, truncated frame). */
  BadInput: 5,
} as const;

/** When the host opens its MCP socket for `tether mcp`, after start. */
const ANNOUNCE_DELAY_MS = 300;

/**
 * How long a host waits for a daemon it started before it serves in-process instead: a loaded machine can take
 * seconds to start Node twice, and the extension waits 20 s for bridge/hello (HANDSHAKE_TIMEOUT_MS), so 12 s still
 * leaves the in-process fallback time to answer.
 */
const DAEMON_START_TIMEOUT_MS = 12_000;

/** Whole shutdown budget: Chromium kills the host 2 s after EOF. */
const SHUTDOWN_BUDGET_MS = 1600;

/** Runs the host with the browser's arguments; resolves with the exit code once it has stopped. */
export async function main(args: string[]): Promise<number> {
  const started = performance.now();
  const loaded = await loadHostConfig();
  const { config, configError } = loaded;
  const fileLog = createFileLog({
    file: logFile(),
    maxBytes: config.logMaxBytes,
    mirrorToStderr: process.env['TETHER_LOG_STDERR'] === '1',
    tag: `host ${process.pid}`,
  });
  const log = fileLog.log;
  if (configError) log(configError.message);
  for (const note of config.notes ?? []) log(note);

  const check = checkCaller(args, config, configError?.file ?? config.file);
  if (!check.ok) {
    log(`refused to start: ${check.reason}`);
    process.stderr.write(`tether host: refused: ${check.reason}\n`);
    fileLog.close();
    return HostExit.CallerRefused;
  }
  const caller = check.caller;
  log(
    `started by ${caller.browser === 'chrome' ? caller.origin : `${caller.extensionId} (${caller.manifestPath})`}; ` +
      `tether ${TETHER_VERSION}, node ${process.version}, config ${config.file} (${config.source}), backend ${config.defaultBackend}` +
      (check.devAllowed ? '; development extension allowed (installed with --dev)' : ''),
  );
  const browser = browserName(caller);
  let daemon: BridgeOptions['daemon'];
  const mode = hostMode(config);
  if (!mode.relay) log(`serving in-process, without the daemon (${mode.why})`);
  else {
    try {
      const link = await connectCurrentDaemon(
        daemonFiles(),
        { hostVersion: TETHER_VERSION, browser },
        { start: true, startTimeoutMs: DAEMON_START_TIMEOUT_MS, log, version: TETHER_VERSION },
      );
      log(`relaying to the daemon (pid ${link.welcome.pid}, version ${link.welcome.daemonVersion})`);
      const code = await relay(link, log);
      log(`stopped (exit ${code}) ${Math.round(performance.now() - started)} ms after start`);
      fileLog.close();
      return code;
    } catch (error) {
      // Nothing is worse than before: the host serves in-process and the panel can say why.
      daemon = { daemonUnavailable: errorMessage(error) };
      log(`serving in-process: ${errorMessage(error)}`);
    }
  }
  const code = await serve(loaded, log, browser, daemon);
  log(`stopped (exit ${code}) ${Math.round(performance.now() - started)} ms after start`);
  fileLog.close();
  return code;
}

/**
 * The browser that started the host, as `tether mcp --browser` names it: the parent process's name where the system
 * tells it (chromium, chrome, brave, firefox-esr), else the browser family.
 */
function browserName(caller: Caller): string {
  try {
    const name = readFileSync(`/proc/${process.ppid}/comm`, 'utf8').trim();
    if (/^[A-Za-z][\w.-]{0,40}$/.test(name) && !/^(node|sh|bash|dash|tether)$/.test(name)) return name;
  } catch {}
  return caller.browser;
}

function serve(loaded: LoadedConfig, log: Log, browser: string, daemon: BridgeOptions['daemon']): Promise<number> {
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

    const frames = new FrameSplitter<Buffer>(
      {
        message: (chunk, start, end) => bridge?.fromBrowserRange(chunk, start, end),
        messageParts: (parts, length) => bridge?.fromBrowser(parts, length),
        error: (error) => {
          log(error.message);
          if (!frames.failed) {
            // The input ended inside a frame: the browser is gone, so nothing is sent back.
            finish('input ended inside a frame', HostExit.BadInput);
            return;
          }
          writer.enqueueText(
            JSON.stringify({ method: 'error', params: { message: error.message, code: 'frameError' } }),
          );
          finish('unreadable input', HostExit.BadInput);
        },
      },
      { maxFrameBytes: BROWSER_MAX_INBOUND_BYTES },
    );
    stdin.on('data', (chunk: Buffer) => frames.push(chunk));
    // Once the first answers are out (the socket, its files and the sweep of stale ones cost `initialize` 7 ms when
    // done at once): `tether mcp` can find this host from then on. An ACP agent's stdio entry opens it on demand.
    setTimeout(() => void mcp.announce(), ANNOUNCE_DELAY_MS).unref();
    stdin.once('end', () => {
      frames.end();
      finish('input ended (the extension disconnected)', HostExit.Ok);
    });
    stdin.once('error', (error) => finish(`stdin failed: ${error.message}`, HostExit.Ok));
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
      process.once(signal, () => finish(signal, HostExit.Ok));
  });
}
