/** The real `System`: this machine's file system, registry and processes. */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { isRunnableFile } from '../command-lookup';
import type { ChildHandle, ExecResult, PathInfo, SpawnRequest, System, SystemFs } from './system';
import { pathFor, supportedPlatform } from './system';

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** Runs `remove`: true when it removed something, false when it failed with one of the `nothingToRemove` codes. */
async function removal(remove: () => Promise<void>, nothingToRemove: readonly string[]): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (error) {
    if (nothingToRemove.includes(errnoCode(error) ?? '')) return false;
    throw error;
  }
}

function createNodeFs(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SystemFs {
  const isWindows = platform === 'win32';
  return {
    async readFile(path) {
      try {
        return new Uint8Array(await readFile(path));
      } catch (error) {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
        throw error;
      }
    },
    async writeFile(path, data, mode) {
      // Written beside the target, then renamed over it: a browser starting the launcher, or a running host loading
      // a chunk, sees the old file or the new one, never half of one.
      const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        await writeFile(temp, data, mode === undefined ? undefined : { mode });
        // writeFile's mode is filtered by the umask; the file must end with exactly these bits.
        if (mode !== undefined && !isWindows) await chmod(temp, mode);
        await rename(temp, path);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
    },
    async chmod(path, mode) {
      if (!isWindows) await chmod(path, mode);
    },
    async mkdirp(path) {
      const missing: string[] = [];
      for (let dir = path; ; dir = dirname(dir)) {
        if ((await this.stat(dir)) !== undefined) break;
        missing.unshift(dir);
        if (dirname(dir) === dir) break;
      }
      if (missing.length > 0) await mkdir(path, { recursive: true });
      return missing;
    },
    removeFile: (path) => removal(() => unlink(path), ['ENOENT']),
    // A folder that is gone, holds something or is not a folder is left as it is.
    removeEmptyDir: (path) => removal(() => rmdir(path), ['ENOENT', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR']),
    async stat(path): Promise<PathInfo | undefined> {
      try {
        const info = await stat(path);
        const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
        return { kind, mode: isWindows ? 0 : info.mode & 0o7777 };
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
        throw error;
      }
    },
    async listDir(path) {
      try {
        return (await readdir(path)).sort();
      } catch (error) {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
        throw error;
      }
    },
    async isExecutable(path) {
      return isRunnableFile(path, platform, env);
    },
  };
}

function run(file: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { timeout: timeoutMs, windowsHide: true, encoding: 'utf8', env },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr });
        const code = typeof error.code === 'number' ? error.code : null;
        // A numeric code means the command ran and failed; anything else (ENOENT, EACCES, a timeout kill) means it did not.
        resolve(code === null ? { code, stdout, stderr, error } : { code, stdout, stderr });
      },
    );
  });
}

function spawnChild(request: SpawnRequest, env: NodeJS.ProcessEnv): ChildHandle {
  const child = spawn(request.file, [...request.args], {
    cwd: request.cwd,
    env: request.env ? { ...env, ...request.env } : env,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    windowsVerbatimArguments: request.verbatimArguments ?? false,
  });
  // A host that exits early closes the pipe under our writes; that is reported through `exited`, not as a crash.
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    write: (data) => void child.stdin.write(data),
    endInput: () => void child.stdin.end(),
    onStdout: (listener) => void child.stdout.on('data', (chunk: Buffer) => listener(new Uint8Array(chunk))),
    onStderr: (listener) => void child.stderr.on('data', (chunk: Buffer) => listener(new Uint8Array(chunk))),
    exited,
    kill: () => void child.kill('SIGKILL'),
  };
}

/** The real machine, optionally with a different environment or home directory (tests use a temporary HOME). */
export function createNodeSystem(overrides: { env?: NodeJS.ProcessEnv; homedir?: string } = {}): System {
  const platform = supportedPlatform(process.platform);
  const env = overrides.env ?? process.env;
  const regExe = pathFor(platform).join(env.SystemRoot ?? 'C:\\Windows', 'System32', 'reg.exe');
  return {
    platform,
    env,
    homedir: overrides.homedir ?? (platform === 'win32' ? env.USERPROFILE : env.HOME) ?? homedir(),
    cwd: process.cwd(),
    execPath: process.execPath,
    fs: createNodeFs(process.platform, env),
    reg: (args) => run(regExe, args, 15_000, env),
    exec: (file, args, options) => run(file, args, options?.timeoutMs ?? 10_000, env),
    // The browser passes its own environment to the host; ours stands in for it.
    spawn: (request) => spawnChild(request, env),
    async isElevated() {
      if (platform !== 'win32') return process.getuid?.() === 0;
      // fltmc needs an elevated token and no service (unlike `net session`): exit 0 means administrator.
      const result = await run(
        pathFor(platform).join(env.SystemRoot ?? 'C:\\Windows', 'System32', 'fltmc.exe'),
        [],
        10_000,
        env,
      );
      return result.code === 0;
    },
  };
}
