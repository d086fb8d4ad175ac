/**
 * Starting child processes the way the host needs: commands resolved like a shell would, and children that die with
 * the host. On Linux a child is exec'ed through `setpriv --pdeathsig KILL`, so the kernel kills
 * it when the host dies, even by SIGKILL (Chromium's only signal). Other systems have no such signal: there a child
 * must notice its closed stdin or be stopped on shutdown.
 */
import { findCommand, isRunnableFile } from './command-lookup';

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];
let setprivPath: string | null | undefined;

/** The setpriv binary used for the parent-death signal (Linux), or null when there is none. */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath =
    process.platform === 'linux'
      ? (SETPRIV_CANDIDATES.find((file) => isRunnableFile(file, 'linux', process.env)) ?? null)
      : null;
  return setprivPath;
}

/** The file and arguments that run `file args` so that it is killed when this process dies (where the OS allows). */
export function diesWithParent(file: string, args: readonly string[]): [string, string[]] {
  const setpriv = findSetpriv();
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, [...args]];
}

/** Resolves a command like a shell would (PATH lookup, or relative to cwd when it holds a slash). */
export function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  // A .cmd shim found through PATHEXT cannot be spawned without a shell: on Windows spawn does its own search.
  if (process.platform === 'win32') return command;
  return findCommand(command, { env, cwd });
}
