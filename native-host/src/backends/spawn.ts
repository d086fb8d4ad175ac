/**
 * Starts a backend's child process so that it cannot outlive the host, and stops it within the browser's 2-second
 * window. On Linux the child is exec'ed through `setpriv --pdeathsig KILL`, so the kernel kills it when the host
 * dies, even by SIGKILL (Chromium's only signal); elsewhere the child sees EOF on stdin when the host dies, which
 * every JSONL app-server treats as "exit". The child leads its own process group so a stop reaches its helpers too,
 * and carries the reaper's cookie, so the commands an agent runs die with it or with a killed host even when they
 * left its group.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { secretsInEnv } from '@tether/protocol/redact';
import { backendEnvSecrets } from '../config/known-secrets';
import type { CommandBackendConfig } from '../config/schema';
import { diesWithParent, findSetpriv, resolveCommand } from '../child-process';
import { processReaper } from '../reaper';
import { secrets } from '../secrets';

export { findSetpriv, resolveCommand } from '../child-process';
import type { BackendExit } from './types';

/** Last stderr lines kept for `bridge/backend/exited`. */
const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 400;
/** Stderr lines of one run copied to the host's log. */
const STDERR_LOG_LINES = 500;
/** After closing its stdin, how long a backend may take to exit on its own before SIGTERM; then before SIGKILL. */
const EOF_GRACE_MS = 300;
const TERM_GRACE_MS = 600;

/** How a started child ended: its exit code or signal, or the error that kept it from starting. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly error?: Error;
}

/** A started child with its pipes, its stderr tail and its end. */
export interface ChildHandle {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number | undefined;
  /** Resolves once the process has exited (or failed to spawn). */
  readonly exited: Promise<ChildExit>;
  /** The last stderr lines, oldest first. */
  stderrTail(): string[];
  /** EOF, then SIGTERM, then SIGKILL; resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Spawns the backend command, or returns why it cannot be started. */
export function spawnBackend(
  id: string,
  config: CommandBackendConfig,
  options: { env: NodeJS.ProcessEnv; configFile: string; log: (line: string) => void },
): ChildHandle | BackendExit {
  const cwd = config.cwd ?? process.cwd();
  const env = { ...options.env, ...config.env };
  // A backend prints what it was given (a key in an error, its env on a crash): its secrets are masked wherever they go.
  secrets.learn([...secretsInEnv(options.env), ...backendEnvSecrets(config.env)]);
  const [command, ...args] = config.argv as [string, ...string[]];
  if (config.cwd) {
    let isDir = false;
    try {
      isDir = statSync(config.cwd).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      return failure(
        `The "${id}" backend's working directory ${config.cwd} does not exist. Fix: correct backends.${id}.cwd in ${options.configFile}`,
      );
    }
  }
  const executable = resolveCommand(command, env, cwd);
  if (!executable) {
    return failure(
      `The "${id}" backend's command "${command}" was not found ${command.includes('/') ? `(relative to ${cwd})` : `on PATH (${env['PATH'] ?? 'unset'})`}. ` +
        `Fix: install it, or put its absolute path in backends.${id}.argv[0] of ${options.configFile} ` +
        '(browsers started from a desktop often have a shorter PATH than your shell)',
    );
  }
  const setpriv = findSetpriv();
  const [file, argv] = diesWithParent(executable, args);
  const run = processReaper().enroll();
  const child = spawn(file, argv, {
    cwd,
    env: { ...env, ...run.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  if (child.pid !== undefined && process.platform !== 'win32') run.group(child.pid);
  options.log(
    `backend ${id}: started pid ${child.pid ?? '?'}: ${config.argv.join(' ')}${setpriv ? '' : ' (no parent-death signal on this OS)'}`,
  );

  const tail: string[] = [];
  let partial = '';
  let logged = 0;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!.slice(-STDERR_LINE_CHARS * 4);
    for (const line of lines) {
      // Redacted before it is cut, so a cut cannot leave half a key unrecognised.
      const clean = secrets.text(line.replace(/\r$/, ''));
      if (clean.trim() === '') continue;
      const kept = clean.length > STDERR_LINE_CHARS ? `${clean.slice(0, STDERR_LINE_CHARS)}...` : clean;
      tail.push(kept);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
      // The log keeps what a backend says on stderr (its own diagnostics), up to a cap per run.
      logged++;
      if (logged <= STDERR_LOG_LINES) options.log(`backend ${id} stderr: ${kept}`);
      else if (logged === STDERR_LOG_LINES + 1)
        options.log(
          `backend ${id}: more stderr lines are not logged (the last ${STDERR_TAIL_LINES} are reported when it exits)`,
        );
    }
  });
  // Writes to a dead child fail with EPIPE; the exit is reported through `exited`.
  child.stdin.on('error', () => undefined);

  let done = false;
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      done = true;
      // The agent's commands and helpers end with it, whether it crashed, exited or was stopped.
      run.reap();
      resolveExit({ code, signal });
    });
    child.once('error', (error) => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) return; // kill() failure
      done = true;
      run.reap();
      resolveExit({ code: null, signal: null, error });
    });
  });

  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const within = (ms: number): Promise<boolean> =>
    Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (!done) {
        child.stdin.end();
        if (!(await within(EOF_GRACE_MS))) {
          signalGroup('SIGTERM');
          if (!(await within(TERM_GRACE_MS))) {
            options.log(`backend ${id}: still running ${TERM_GRACE_MS} ms after SIGTERM; sending SIGKILL`);
            signalGroup('SIGKILL');
            await within(500);
          }
        }
      }
      // Helpers the backend started in its group must not outlive it either.
      signalGroup('SIGKILL');
    })());

  return {
    child,
    pid: child.pid,
    exited,
    stderrTail: () =>
      (partial.trim() ? [...tail, secrets.text(partial).slice(0, STDERR_LINE_CHARS)] : [...tail]).slice(
        -STDERR_TAIL_LINES,
      ),
    stop,
  };
}

/** Describes an exit for people: how it ended (code or signal); the bridge adds the stderr tail. */
export function describeExit(id: string, code: number | null, signal: string | null, error?: Error): string {
  const how = error
    ? `could not be started (${error.message})`
    : signal
      ? `was killed by ${signal}`
      : code === 0
        ? 'exited (code 0)'
        : `exited with code ${code}`;
  return `The "${id}" backend ${how}`;
}

/** What the bridge is told when a started backend ended: how, in words, and its stderr tail as it is now. */
export function exitReport(id: string, handle: ChildHandle, { code, signal, error }: ChildExit): BackendExit {
  return {
    code,
    signal,
    stderrTail: handle.stderrTail(),
    message: describeExit(id, code, signal, error),
    failedToStart: !!error,
  };
}

function failure(message: string): BackendExit {
  return { code: null, signal: null, stderrTail: [], message, failedToStart: true };
}
