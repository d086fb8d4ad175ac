/**
 * An in-memory `System` for tests: a file system, a Windows registry that understands the `reg.exe` commands Tether
 * issues, scripted commands and scripted child processes. Every registry command is kept in `regCalls`.
 */
import { encodeNativeFrame, NativeFrameDecoder } from '@tether/protocol/codec';
import type { ChildHandle, ExecResult, PathInfo, Platform, SpawnRequest, System, SystemFs } from './system';
import { fromUtf8, pathFor, utf8 } from './system';

type Node = { kind: 'file'; data: Uint8Array; mode: number } | { kind: 'dir' };

/** Options for `createMemorySystem`. */
export interface MemorySystemOptions {
  platform: Platform;
  homedir: string;
  env?: Record<string, string | undefined>;
  execPath?: string;
  /** Default: the home directory. */
  cwd?: string;
  /** Files to create (parents included); a string is UTF-8 text. Mode defaults to 0o644. */
  files?: Record<string, string | { text: string; mode: number }>;
  /** Directories to create. */
  dirs?: string[];
  /** Scripted commands by absolute file path. Unknown files fail as ENOENT. */
  commands?: Record<string, (args: readonly string[]) => ExecResult>;
  /** Folders where writes fail with EACCES (as /etc does for a normal user). */
  readOnly?: string[];
  /** Called for each `spawn`; default: the child fails to start with ENOENT. */
  spawn?: (request: SpawnRequest) => ChildHandle;
  /** Whether the process runs as root / an elevated administrator (default: no). */
  elevated?: boolean;
}

/** A `System` whose state tests can inspect. */
export interface MemorySystem extends System {
  /** Every `reg.exe` argument list, in order. */
  readonly regCalls: string[][];
  /** Every spawn request, in order. */
  readonly spawns: SpawnRequest[];
  /** The registry: upper-cased key path -> default value. */
  readonly registry: Map<string, string>;
  /** Absolute paths of every file, sorted. */
  listFiles(): string[];
  /** Absolute paths of every directory, sorted. */
  listDirs(): string[];
  /** A file's text; throws when it does not exist. */
  readText(path: string): string;
  /** A file's POSIX mode bits; throws when it does not exist. */
  modeOf(path: string): number;
}

function enoent(what: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, ${what}`), { code: 'ENOENT' });
}

/** Creates an in-memory Linux, macOS or Windows. */
export function createMemorySystem(options: MemorySystemOptions): MemorySystem {
  const path = pathFor(options.platform);
  const isWindows = options.platform === 'win32';
  const nodes = new Map<string, Node>();
  // Windows paths compare case-insensitively; the first spelling seen is kept for listings.
  const key = (p: string) => (isWindows ? path.normalize(p).toLowerCase() : path.normalize(p));
  const spelled = new Map<string, string>();
  const put = (p: string, node: Node) => {
    nodes.set(key(p), node);
    if (!spelled.has(key(p))) spelled.set(key(p), path.normalize(p));
  };
  const remove = (p: string) => {
    nodes.delete(key(p));
    spelled.delete(key(p));
  };
  const root = path.parse(options.homedir).root;
  const denied = (p: string) =>
    (options.readOnly ?? []).some(
      (dir) => key(p) === key(dir) || key(p).startsWith(key(dir).replace(/[\\/]$/, '') + path.sep),
    );
  const eacces = (what: string) => Object.assign(new Error(`EACCES: permission denied, ${what}`), { code: 'EACCES' });
  put(root, { kind: 'dir' });

  const fs: SystemFs = {
    async readFile(p) {
      const node = nodes.get(key(p));
      return node?.kind === 'file' ? node.data.slice() : undefined;
    },
    async writeFile(p, data, mode) {
      if (denied(p)) throw eacces(`open '${p}'`);
      const parent = nodes.get(key(path.dirname(p)));
      if (parent?.kind !== 'dir') throw enoent(`open '${p}'`);
      const existing = nodes.get(key(p));
      if (existing?.kind === 'dir') throw Object.assign(new Error(`EISDIR: '${p}'`), { code: 'EISDIR' });
      put(p, {
        kind: 'file',
        data: data.slice(),
        mode: isWindows ? 0 : (mode ?? (existing?.kind === 'file' ? existing.mode : 0o644)),
      });
    },
    async chmod(p, mode) {
      const node = nodes.get(key(p));
      if (!node) throw enoent(`chmod '${p}'`);
      if (node.kind === 'file' && !isWindows) node.mode = mode;
    },
    async mkdirp(p) {
      if (!path.isAbsolute(p)) throw new Error(`memory file system: relative path ${p}`);
      const missing: string[] = [];
      for (let dir = path.normalize(p); !nodes.has(key(dir)); dir = path.dirname(dir)) missing.unshift(dir);
      for (const dir of missing) {
        if (denied(dir)) throw eacces(`mkdir '${dir}'`);
        if (nodes.get(key(path.dirname(dir)))?.kind === 'file') throw enoent(`mkdir '${dir}'`);
        put(dir, { kind: 'dir' });
      }
      return missing;
    },
    async removeFile(p) {
      if (nodes.get(key(p))?.kind !== 'file') return false;
      remove(p);
      return true;
    },
    async removeEmptyDir(p) {
      if (nodes.get(key(p))?.kind !== 'dir') return false;
      const prefix = key(p).endsWith(path.sep) ? key(p) : key(p) + path.sep;
      if ([...nodes.keys()].some((k) => k.startsWith(prefix))) return false;
      remove(p);
      return true;
    },
    async stat(p): Promise<PathInfo | undefined> {
      const node = nodes.get(key(p));
      if (!node) return undefined;
      return node.kind === 'file'
        ? { kind: 'file', mode: node.mode }
        : { kind: 'directory', mode: isWindows ? 0 : 0o755 };
    },
    async listDir(p) {
      if (nodes.get(key(p))?.kind !== 'dir') return undefined;
      const prefix = key(p).endsWith(path.sep) ? key(p) : key(p) + path.sep;
      const names = [...nodes.keys()].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes(path.sep));
      return names.map((k) => path.basename(spelled.get(k) ?? k)).sort();
    },
    async isExecutable(p) {
      const node = nodes.get(key(p));
      if (node?.kind !== 'file') return false;
      if (isWindows) return /\.(cmd|bat|exe|com)$/i.test(p);
      return (node.mode & 0o111) !== 0;
    },
  };

  // The initial tree ignores `readOnly`: it is the machine as the test found it.
  const seedDir = (p: string) => {
    for (let dir = path.normalize(p); !nodes.has(key(dir)); dir = path.dirname(dir)) put(dir, { kind: 'dir' });
  };
  for (const dir of options.dirs ?? []) seedDir(dir);
  for (const [p, content] of Object.entries(options.files ?? {})) {
    seedDir(path.dirname(p));
    const { text, mode } = typeof content === 'string' ? { text: content, mode: 0o644 } : content;
    put(p, { kind: 'file', data: utf8(text), mode: isWindows ? 0 : mode });
  }

  const registry = new Map<string, string>();
  const regCalls: string[][] = [];
  const spawns: SpawnRequest[] = [];
  const fail = (stderr: string): ExecResult => ({ code: 1, stdout: '', stderr });

  function reg(args: readonly string[]): ExecResult {
    const [verb, regKey, ...rest] = args;
    if (!regKey) return fail('ERROR: Invalid syntax.\r\n');
    const k = regKey.toUpperCase();
    if (verb === 'add') {
      const d = rest.indexOf('/d');
      if (!rest.includes('/ve') || d < 0 || rest[d + 1] === undefined) return fail('ERROR: Invalid syntax.\r\n');
      registry.set(k, rest[d + 1]!);
      return { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
    }
    if (verb === 'delete') {
      if (!registry.delete(k))
        return fail('ERROR: The system was unable to find the specified registry key or value.\r\n');
      return { code: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
    }
    if (verb === 'query') {
      const value = registry.get(k);
      if (value === undefined)
        return fail('ERROR: The system was unable to find the specified registry key or value.\r\n');
      const full = regKey.replace(/^HKCU\\/i, 'HKEY_CURRENT_USER\\').replace(/^HKLM\\/i, 'HKEY_LOCAL_MACHINE\\');
      return { code: 0, stdout: `\r\n${full}\r\n    (Default)    REG_SZ    ${value}\r\n\r\n`, stderr: '' };
    }
    return fail('ERROR: Invalid syntax.\r\n');
  }

  const sortedPaths = (kind: Node['kind']) =>
    [...nodes.entries()]
      .filter(([, n]) => n.kind === kind)
      .map(([k]) => spelled.get(k) ?? k)
      .sort();

  return {
    platform: options.platform,
    env: options.env ?? {},
    homedir: options.homedir,
    cwd: options.cwd ?? options.homedir,
    execPath: options.execPath ?? (isWindows ? 'C:\\Program Files\\nodejs\\node.exe' : '/usr/bin/node'),
    fs,
    regCalls,
    spawns,
    registry,
    async reg(args) {
      regCalls.push([...args]);
      return reg(args);
    },
    async exec(file, args) {
      const command = options.commands?.[file];
      if (command) return command(args);
      return { code: null, stdout: '', stderr: '', error: enoent(`spawn ${file}`) };
    },
    spawn(request) {
      spawns.push(request);
      if (options.spawn) return options.spawn(request);
      return {
        write: () => {},
        endInput: () => {},
        onStdout: () => {},
        onStderr: () => {},
        exited: Promise.resolve({ code: null, signal: null, error: enoent(`spawn ${request.file}`) }),
        kill: () => {},
      };
    },
    isElevated: async () => options.elevated ?? false,
    listFiles: () => sortedPaths('file'),
    listDirs: () => sortedPaths('dir'),
    readText(p) {
      const node = nodes.get(key(p));
      if (node?.kind !== 'file') throw enoent(`open '${p}'`);
      return fromUtf8(node.data);
    },
    modeOf(p) {
      const node = nodes.get(key(p));
      if (node?.kind !== 'file') throw enoent(`stat '${p}'`);
      return node.mode;
    },
  };
}

/**
 * A fake native host: answers each framed request with `answer(message)` (undefined: no answer) and exits when its
 * stdin closes, as a well-behaved host does. `stderrText` is written to stderr at start.
 */
export function scriptedHost(
  answer: (message: { id?: unknown; method?: unknown }) => unknown,
  stderrText = '',
): ChildHandle {
  const stdout: ((chunk: Uint8Array) => void)[] = [];
  const stderr: ((chunk: Uint8Array) => void)[] = [];
  let finish: (result: { code: number | null; signal: string | null }) => void = () => {};
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => (finish = resolve));
  const reader = new NativeFrameDecoder({
    message: (message) => {
      const reply = answer(message as { id?: unknown; method?: unknown });
      if (reply === undefined) return;
      queueMicrotask(() => {
        for (const listener of stdout) listener(encodeNativeFrame(reply));
      });
    },
    error: (error) => {
      throw error;
    },
  });
  return {
    write: (data) => reader.push(data),
    endInput: () => queueMicrotask(() => finish({ code: 0, signal: null })),
    onStdout: (listener) => void stdout.push(listener),
    onStderr: (listener) => {
      stderr.push(listener);
      if (stderrText) queueMicrotask(() => listener(utf8(stderrText)));
    },
    exited,
    kill: () => finish({ code: null, signal: 'SIGKILL' }),
  };
}
