/**
 * `tether host`: what the browser starts for each `connectNative`. Frames on stdin/stdout, logs to a file. It relays
 * to the per-user daemon (starting it when needed), which serves the connection and outlives it, unless hostMode()
 * says otherwise (`TETHER_DAEMON=0`, the config file's `"daemon": {"enabled": false}`) or the daemon cannot run; then
 * it serves in-process (in-process.ts). Only the relay is imported up front: it is what answers the browser's first
 * request on every connection, and Node parses every module a path imports before running any of it.
 */
import { readFileSync } from 'node:fs';
import { errorMessage } from '@tether/protocol/errors';
import { connectCurrentDaemon } from '../daemon/client';
import { daemonFiles } from '../daemon/paths';
import { createFileLog } from '../log';
import { logFile } from '../paths';
import { TETHER_VERSION } from '../version';
import type { BridgeOptions } from './bridge';
import { type Caller, checkCaller } from './caller';
import { loadHostConfig } from './host-config';
import { HostExit } from './host-exit';
import { hostMode, relay } from './relay';

/**
 * How long a host waits for a daemon it started before it serves in-process instead: a loaded machine can take
 * seconds to start Node twice, and the extension waits 20 s for bridge/hello (HANDSHAKE_TIMEOUT_MS), so 12 s still
 * leaves the in-process fallback time to answer.
 */
const DAEMON_START_TIMEOUT_MS = 12_000;

/** Runs the host with the browser's arguments; resolves with the exit code once it has stopped. */
export async function main(args: string[]): Promise<number> {
  // Date.now(), not performance.now(): the global `performance` loads perf_hooks, a few ms before the first answer.
  const started = Date.now();
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
      log(`stopped (exit ${code}) ${Date.now() - started} ms after start`);
      fileLog.close();
      return code;
    } catch (error) {
      // Nothing is worse than before: the host serves in-process and the panel can say why.
      daemon = { daemonUnavailable: errorMessage(error) };
      log(`serving in-process: ${errorMessage(error)}`);
    }
  }
  const { serve } = await import('./in-process');
  const code = await serve(loaded, log, browser, daemon);
  log(`stopped (exit ${code}) ${Date.now() - started} ms after start`);
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
