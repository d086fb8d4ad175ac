/**
 * Starting child processes the way the host needs: commands resolved like a shell would, and children that die with
 * the host. On Linux a child is exec'ed through `setpriv --pdeathsig KILL`, so the kernel kills
 * it when the host dies, even by SIGKILL (Chromium's only signal). Other systems have no such signal: there a child
 * must notice its closed stdin or be stopped on shutdown.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];
let setprivPath: string | null | undefined;

/** True when `file` is a regular file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The setpriv binary used for the parent-death signal (Linux), or null when there is none. */
export function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = process.platform === 'linux' ? (SETPRIV_CANDIDATES.find(isExecutable) ?? null) : null;
  return setprivPath;
}

/** The file and arguments that run `file args` so that it is killed when this process dies (where the OS allows). */
export function diesWithParent(file: string, args: readonly string[]): [string, string[]] {
  const setpriv = findSetpriv();
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', file, ...args]] : [file, [...args]];
}

/** Resolves a command like a shell would (PATH lookup, or relative to cwd when it holds a slash). */
export function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (process.platform === 'win32') return command; // PATHEXT and .cmd shims: leave it to spawn.
  if (command.includes('/')) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutable(full) ? full : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, command);
    if (isExecutable(full)) return full;
  }
  return undefined;
}
