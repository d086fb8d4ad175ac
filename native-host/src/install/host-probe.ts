/**
 * Starts the installed host exactly as a browser does (the manifest's path, the browser's arguments, the host's folder
 * as working directory, framed stdio) and completes a framed `initialize`, then closes stdin and times the exit.
 */
import { BROWSER_MAX_FRAME_BYTES, encodeNativeFrame, NativeFrameDecoder } from '@tether/protocol/codec';
import type { Browser } from './browsers';
import { chromeOrigin } from './ids';
import type { FailureKind } from './manifest';
import type { SpawnRequest, System } from './system';
import { fromUtf8, pathFor } from './system';

/** Chromium kills a host this long after its stdin closed. */
export const BROWSER_KILL_WINDOW_MS = 2_000;

/** What the probe saw. */
export interface ProbeResult {
  readonly ok: boolean;
  /** On failure: what the browser would report; undefined when the browser reports nothing (an error answer). */
  readonly kind?: FailureKind;
  /** One line: what happened. */
  readonly message: string;
  /** More lines about it (e.g. the rest of a multi-line error message). */
  readonly details?: readonly string[];
  readonly initializeMs?: number;
  /** Time from closing stdin to the host's exit; undefined when it had to be killed. */
  readonly exitMs?: number;
  readonly serverInfo?: { name: string; version: string };
  /** The last lines the host wrote to stderr. */
  readonly stderrTail: string[];
  /** The command line used, for the report. */
  readonly commandLine: string;
}

/** The arguments a browser passes to the host for `extensionId` (origin; or manifest path and add-on id for Firefox). */
export function browserArgs(
  browser: Browser,
  manifestPath: string,
  platform: System['platform'],
  extensionId: string,
): string[] {
  if (browser.family === 'firefox') return [manifestPath, extensionId];
  // Chrome on Windows adds the caller's window handle; 0 when the caller is a service worker.
  return platform === 'win32' ? [chromeOrigin(extensionId), '--parent-window=0'] : [chromeOrigin(extensionId)];
}

/** How the browser starts `hostPath`: directly on Linux/macOS, through `cmd.exe /d /s /c` on Windows. */
export function browserSpawnRequest(sys: System, hostPath: string, args: readonly string[]): SpawnRequest {
  const cwd = pathFor(sys.platform).dirname(hostPath);
  if (sys.platform !== 'win32') return { file: hostPath, args, cwd };
  const comspec = sys.env.ComSpec ?? sys.env.COMSPEC ?? 'C:\\Windows\\System32\\cmd.exe';
  const line = [`"${hostPath}"`, ...args.map((a) => (/\s/.test(a) ? `"${a}"` : a))].join(' ');
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], cwd, verbatimArguments: true };
}

function tail(text: string, lines = 8): string[] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(-lines);
}

/** Runs the probe; never throws (every failure is a result). */
export async function probeHost(
  sys: System,
  options: {
    hostPath: string;
    browser: Browser;
    /** The extension the probe poses as (one the manifest allows). */
    extensionId: string;
    manifestPath: string;
    /** How long the host may take to answer `initialize`. */
    timeoutMs: number;
    /** How long to wait for the exit after closing stdin before killing it (default: the kill window plus 1 s). */
    exitWaitMs?: number;
    clientVersion: string;
  },
): Promise<ProbeResult> {
  const args = browserArgs(options.browser, options.manifestPath, sys.platform, options.extensionId);
  // In-process: the probe checks the host the browser starts, and must neither start the user's daemon nor show up
  // as one of its browsers (doctor's daemon section reports the daemon).
  const request = { ...browserSpawnRequest(sys, options.hostPath, args), env: { TETHER_DAEMON: '0' } };
  const commandLine = [options.hostPath, ...args].map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ');
  const started = performance.now();
  const child = sys.spawn(request);
  let stderr = '';
  child.onStderr((chunk) => {
    stderr = (stderr + fromUtf8(chunk)).slice(-8192);
  });

  type Outcome =
    | { type: 'answer'; message: Record<string, unknown> }
    | { type: 'exit'; code: number | null; signal: string | null; error?: Error }
    | { type: 'garbage'; error: Error }
    | { type: 'timeout' };
  let settle: (outcome: Outcome) => void = () => {};
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  // Read as the browser reads the host: frames of at most 1 MiB; anything it would refuse is garbage.
  const reader = new NativeFrameDecoder(
    {
      message: (message) => {
        if (typeof message === 'object' && message !== null && (message as { id?: unknown }).id === 1) {
          settle({ type: 'answer', message: message as Record<string, unknown> });
        }
      },
      error: (error) => settle({ type: 'garbage', error }),
    },
    { maxFrameBytes: BROWSER_MAX_FRAME_BYTES },
  );
  child.onStdout((chunk) => reader.push(chunk));
  void child.exited.then((exit) => settle({ type: 'exit', ...exit }));
  const timer = setTimeout(() => settle({ type: 'timeout' }), options.timeoutMs);
  child.write(
    encodeNativeFrame({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'tether-doctor', title: 'tether doctor', version: options.clientVersion } },
    }),
  );
  const result = await outcome;
  clearTimeout(timer);
  const initializeMs = Math.round(performance.now() - started);
  const fail = (kind: FailureKind, message: string): ProbeResult => ({
    ok: false,
    kind,
    message,
    stderrTail: tail(stderr),
    commandLine,
  });

  if (result.type !== 'answer') {
    child.kill();
    if (result.type === 'timeout') return fail('exited', `no answer to initialize within ${options.timeoutMs} ms`);
    if (result.type === 'garbage')
      return fail('communication', `the host wrote something that is not a valid frame: ${result.error.message}`);
    if (result.error) return fail('exited', `the host could not be started: ${result.error.message}`);
    const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    return fail('exited', `the host ${how} before answering initialize`);
  }

  // A well-behaved host exits soon after stdin closes; Chromium SIGKILLs it (and strands its children) after 2 s.
  const closing = performance.now();
  child.endInput();
  let exitTimer: ReturnType<typeof setTimeout> | undefined;
  const exited = await Promise.race([
    child.exited.then(() => true),
    new Promise<false>(
      (resolve) => (exitTimer = setTimeout(() => resolve(false), options.exitWaitMs ?? BROWSER_KILL_WINDOW_MS + 1_000)),
    ),
  ]);
  clearTimeout(exitTimer);
  if (!exited) child.kill();
  const exitMs = exited ? Math.round(performance.now() - closing) : undefined;
  const error = result.message.error as { code?: unknown; message?: unknown } | undefined;
  if (error) {
    // The port stays open and the extension receives this error, so there is no browser message to quote.
    const [first = '', ...rest] = String(error.message).split('\n');
    return {
      ok: false,
      message: `the host answered initialize with error ${String(error.code)}: ${first}`,
      details: rest,
      stderrTail: tail(stderr),
      commandLine,
      initializeMs,
      exitMs,
    };
  }
  const info = (result.message.result as { serverInfo?: { name?: unknown; version?: unknown } } | undefined)
    ?.serverInfo;
  const serverInfo =
    info && typeof info.name === 'string' && typeof info.version === 'string'
      ? { name: info.name, version: info.version }
      : undefined;
  return {
    ok: true,
    message: 'answered initialize',
    initializeMs,
    exitMs,
    serverInfo,
    stderrTail: tail(stderr),
    commandLine,
  };
}
