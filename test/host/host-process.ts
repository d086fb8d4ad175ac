/**
 * Drives a real `tether host` process the way a browser does: framed stdin, framed stdout, the caller origin as its
 * argument. Frames are split by the protocol's FrameSplitter, as the extension's peers do; JSON, batches and bridge/chunk
 * reassembly are read here.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChunkAssembler } from '@tether/protocol';
import { BROWSER_MAX_FRAME_BYTES, FrameSplitter, frameHeader } from '@tether/protocol/codec';
import { stopDaemonIn } from '../support/daemons';

/** Repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** What the tests run: the development entry (rebuilds the bundle when stale) unless TETHER_HOST_ENTRY says otherwise. */
export const HOST_ENTRY = process.env['TETHER_HOST_ENTRY'] ?? join(ROOT, 'native-host/bin/tether.mjs');
/** The development extension's origin, as Chrome passes it. */
export const DEV_ORIGIN = 'chrome-extension://gkplngjhinednckbmppipofijkaplcpm/';
/** What a `tether install --dev` launcher passes: the flag that allows the development extension, then Chrome's origin. */
export const DEV_ARGS: readonly string[] = ['--allow-dev-extension', DEV_ORIGIN];
/** The fake JSONL backend used to test crashes, garbage and floods. */
export const FAKE_BACKEND = join(ROOT, 'native-host/src/host/fixtures/fake-backend.mjs');

/** A JSON-RPC message as the tests see it. */
export type Msg = { id?: unknown; method?: string; params?: any; result?: any; error?: any };

/** One frame as it arrived. */
export interface Frame {
  readonly payload: Buffer;
  readonly at: number;
}

/** A running host and the means to talk to it. */
export interface HostProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly dir: string;
  /** Every frame received, in order. */
  readonly frames: Frame[];
  /** Every message received (batches split, chunks reassembled), in order. */
  readonly messages: Msg[];
  /** Messages reassembled from bridge/chunk pieces, as their exact JSON text. */
  readonly chunkedTexts: string[];
  send(message: unknown): void;
  sendRaw(bytes: Buffer): void;
  /** Sends a request with a fresh id and resolves with its response. */
  request(method: string, params?: unknown, timeoutMs?: number): Promise<Msg>;
  /** Resolves with the first message (received so far or later) after `from` matching `predicate`. */
  waitFor(predicate: (m: Msg) => boolean, timeoutMs?: number, from?: number): Promise<Msg>;
  closeInput(): void;
  readonly exited: Promise<{ code: number | null; signal: string | null; at: number }>;
  stderr(): string;
  /** Kills the host if still running and removes its temporary directory. */
  dispose(): Promise<void>;
}

/** Options of startHost. */
export interface StartHostOptions {
  /** Written as the config file (TETHER_CONFIG); default: none (embedded backend). */
  config?: unknown;
  /** Arguments after `host` (default: DEV_ARGS, as a development launcher started by Chrome). */
  args?: string[];
  env?: Record<string, string>;
  /** Runs this launcher (as a browser runs what the host manifest names) instead of `node HOST_ENTRY host`. */
  launcher?: string;
}

/** Encodes one native-messaging frame: a message, or a string as the exact payload text. */
export function frame(message: unknown): Buffer {
  const body = Buffer.from(typeof message === 'string' ? message : JSON.stringify(message), 'utf8');
  return Buffer.concat([frameHeader(body.length), body]);
}

/** Starts `tether host` with a fresh temporary config/state/data directory. */
export function startHost(options: StartHostOptions = {}): HostProcess {
  const dir = mkdtempSync(join(tmpdir(), 'tether-host-test-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    // A runtime folder of its own: with the relay on, this host's daemon is nobody else's.
    TETHER_RUNTIME_DIR: join(dir, 'run'),
    ...options.env,
  };
  delete env['TETHER_CONFIG'];
  if (options.config !== undefined) {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(options.config));
    env['TETHER_CONFIG'] = file;
  }
  const args = options.args ?? DEV_ARGS;
  const [file, argv] = options.launcher ? [options.launcher, args] : [process.execPath, [HOST_ENTRY, 'host', ...args]];
  const child = spawn(file, argv, {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const frames: Frame[] = [];
  const messages: Msg[] = [];
  const chunkedTexts: string[] = [];
  const assembler = new ChunkAssembler();
  let stderr = '';
  let waiters: Array<() => void> = [];
  const notify = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const accept = (m: Msg): void => {
    if (m.method === 'bridge/chunk') {
      const text = assembler.accept(m.params);
      if (text !== undefined) {
        chunkedTexts.push(text);
        messages.push(JSON.parse(text) as Msg);
      }
      return;
    }
    messages.push(m);
  };
  const received = (payload: Buffer): void => {
    frames.push({ payload, at: performance.now() });
    const value = JSON.parse(payload.toString('utf8')) as Msg | Msg[];
    if (Array.isArray(value)) value.forEach(accept);
    else accept(value);
  };
  // Read as the browser reads the host: frames of at most 1 MiB, and anything else is a test failure.
  const splitter = new FrameSplitter<Buffer>(
    {
      message: (chunk, start, end) => received(chunk.subarray(start, end)),
      messageParts: (parts, length) => received(Buffer.concat(parts, length)),
      error: (error) => {
        throw error;
      },
    },
    { maxFrameBytes: BROWSER_MAX_FRAME_BYTES },
  );
  child.stdout.on('data', (chunk: Buffer) => {
    splitter.push(chunk);
    notify();
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      notify();
      resolve({ code, signal, at: performance.now() });
    }),
  );
  let exitedFlag = false;
  void exited.then(() => (exitedFlag = true));

  const waitFor = (predicate: (m: Msg) => boolean, timeoutMs = 10_000, from = 0): Promise<Msg> =>
    new Promise((resolve, reject) => {
      let scanned = from;
      const timer = setTimeout(() => {
        reject(
          new Error(
            `timed out after ${timeoutMs} ms; last messages: ${JSON.stringify(messages.slice(-3)).slice(0, 600)}; stderr: ${stderr.slice(-400)}`,
          ),
        );
      }, timeoutMs);
      const check = (): void => {
        for (; scanned < messages.length; scanned++) {
          if (predicate(messages[scanned]!)) {
            clearTimeout(timer);
            resolve(messages[scanned]!);
            return;
          }
        }
        if (exitedFlag) {
          clearTimeout(timer);
          reject(new Error(`host exited before the expected message; stderr: ${stderr.slice(-400)}`));
          return;
        }
        waiters.push(check);
      };
      check();
    });

  let nextId = 1;
  const host: HostProcess = {
    child,
    dir,
    frames,
    messages,
    chunkedTexts,
    send: (message) => child.stdin.write(frame(message)),
    sendRaw: (bytes) => child.stdin.write(bytes),
    request: (method, params, timeoutMs) => {
      const id = nextId++;
      const from = messages.length;
      host.send(params === undefined ? { id, method } : { id, method, params });
      return waitFor((m) => m.id === id && m.method === undefined, timeoutMs, from);
    },
    waitFor,
    closeInput: () => child.stdin.end(),
    exited,
    stderr: () => stderr,
    dispose: async () => {
      if (!exitedFlag) {
        child.kill('SIGKILL');
        await exited;
      }
      // The daemon of its runtime folder goes with it (an empty TETHER_RUNTIME_DIR is the user's folder: untouched).
      if (env['TETHER_RUNTIME_DIR']) await stopDaemonIn(env['TETHER_RUNTIME_DIR']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return host;
}

/**
 * What was logged for this host: host.log, then daemon.log. Through the daemon, the host only relays frames (its log
 * has the frame errors) and the daemon serves the messages (its log has what they did); in-process, host.log has all.
 */
export function logsOf(h: Pick<HostProcess, 'dir'>): string {
  return ['host.log', 'daemon.log']
    .map((name) => {
      try {
        return readFileSync(join(h.dir, 'state/tether', name), 'utf8');
      } catch {
        return '';
      }
    })
    .join('');
}

/** The agentMessage deltas `h` received after message `from`, joined in order. */
export function deltaText(h: Pick<HostProcess, 'messages'>, from = 0): string {
  return h.messages
    .slice(from)
    .filter((m) => m.method === 'item/agentMessage/delta')
    .map((m) => m.params.delta as string)
    .join('');
}

/** A config whose default backend is the fake JSONL backend (plus the embedded one). */
export function fakeBackendConfig(extra: Record<string, unknown> = {}): unknown {
  return {
    defaultBackend: 'fake',
    backends: {
      fake: { kind: 'command', argv: [process.execPath, FAKE_BACKEND], description: 'test backend', ...extra },
    },
  };
}

/** Whether a process is alive (and not a zombie), read from /proc. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readProcStat(pid);
    return stat !== undefined && !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

function readProcStat(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}
