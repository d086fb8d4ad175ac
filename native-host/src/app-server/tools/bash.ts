/** The built-in `bash` tool: runs one shell command in the thread's working directory, with a timeout. */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { ToolSpec } from '../models/model';
import { diesWithParent, resolveCommand } from '../../child-process';
import { processReaper, type Reaper } from '../../reaper';
import { errorMessage } from '@tether/protocol/errors';

/** How the tool is offered to models. */
export const BASH_TOOL: ToolSpec = {
  name: 'bash',
  description:
    "Run a shell command in the thread's working directory. Returns its combined stdout and stderr and its exit code. " +
    "Every call needs the user's approval.",
  inputSchema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line, run by bash -c (sh -c when bash is absent).' },
    },
    required: ['command'],
    additionalProperties: false,
  },
};

/** What a command did. */
export interface BashResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** stdout and stderr interleaved as they arrived, cut at the output limit. */
  readonly output: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
}

/** Options of one run. */
export interface BashOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Aborting kills the command (its whole process group on POSIX). */
  readonly signal?: AbortSignal;
  readonly maxOutputBytes?: number;
  /** Who kills what the command leaves behind (default: the process's shared reaper). */
  readonly reaper?: Reaper;
}

/** How long output may still arrive after the shell exited, from a leftover that nothing could kill. */
const PIPE_GRACE_MS = 2000;

/** The tool failed to run at all (not a non-zero exit: that is a normal result). */
export class BashToolError extends Error {
  override name = 'BashToolError';
}

/** Extracts the command from model-provided arguments, or throws BashToolError saying what is wrong. */
export function bashCommandOf(args: unknown): string {
  const command = typeof args === 'object' && args !== null ? (args as { command?: unknown }).command : undefined;
  if (typeof command !== 'string' || command.trim() === '') {
    throw new BashToolError('The bash tool needs {"command": "<shell command>"}.');
  }
  return command;
}

/** Runs `command` and resolves with its output; rejects with BashToolError only when it cannot start. */
export async function runBash(command: string, options: BashOptions): Promise<BashResult> {
  // spawn reports a missing cwd as ENOENT on the shell, which would read as "bash is not installed".
  if (!statSync(options.cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new BashToolError(`Cannot run the command: working directory ${options.cwd} does not exist.`);
  }
  const noShell = (error: unknown): never => {
    throw new BashToolError(`Cannot run the command: no shell found (${errorMessage(error)}).`, { cause: error });
  };
  if (process.platform === 'win32') return spawnShell('cmd.exe', command, options).catch(noShell);
  // Resolved up front: through setpriv a missing shell is setpriv's exit code, not an ENOENT to fall back on.
  const shell = resolveCommand('bash', process.env, options.cwd) ?? resolveCommand('sh', process.env, options.cwd);
  if (!shell) return noShell(new Error(`neither bash nor sh is on PATH (${process.env.PATH ?? ''})`));
  return spawnShell(shell, command, options).catch(noShell);
}

function spawnShell(shell: string, command: string, options: BashOptions): Promise<BashResult> {
  const limit = options.maxOutputBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const args = shell === 'cmd.exe' ? ['/d', '/s', '/c', command] : ['-c', command];
    // A command must not outlive a host that the browser SIGKILLs in the middle of it: the shell has the parent-death
    // signal, its own process group, and the reaper's cookie for whatever leaves the group.
    const [file, argv] = diesWithParent(shell, args);
    const run = (options.reaper ?? processReaper()).enroll();
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: { ...process.env, ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    if (child.pid !== undefined && process.platform !== 'win32') run.group(child.pid);
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let timedOut = false;
    const collect = (chunk: Buffer): void => {
      if (size >= limit) {
        truncated = true;
        return;
      }
      const piece = size + chunk.length > limit ? chunk.subarray(0, limit - size) : chunk;
      if (piece !== chunk) truncated = true;
      chunks.push(piece);
      size += piece.length;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const kill = (): void => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      // The whole group and every process with the cookie, so `sleep 100 | cat`, background jobs and setsid'd
      // daemons die with the shell.
      if (process.platform !== 'win32') run.reap();
      else child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = (): void => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) kill();
    const cleanup = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      cleanup();
      run.reap();
      if (error.code === 'ENOENT') {
        reject(error);
      } else {
        reject(new BashToolError(`Cannot run the command: ${error.message}`, { cause: error }));
      }
    });
    // The command ends with its shell: what it left running (`(sleep 300 &)`, a daemon) is killed too, which also
    // closes the output pipes such a leftover holds, so the result is not held up until it exits. Where nothing could
    // find a leftover that left the group (no /proc), the pipes are let go after a grace instead.
    let letGo: NodeJS.Timeout | undefined;
    child.on('exit', () => {
      run.reap();
      letGo = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, PIPE_GRACE_MS).unref();
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(letGo);
      cleanup();
      resolve({ exitCode, signal, output: Buffer.concat(chunks).toString('utf8'), truncated, timedOut });
    });
  });
}

/** The text a model reads about a finished command. */
export function describeBashResult(result: BashResult, timeoutMs: number): string {
  const status = result.timedOut
    ? `timed out after ${timeoutMs} ms and was killed`
    : result.exitCode !== null
      ? `exited with code ${result.exitCode}`
      : `was killed by ${result.signal ?? 'a signal'}`;
  const more = result.truncated ? '\n[output truncated]' : '';
  return `The command ${status}.\n${result.output}${more}`;
}
