/**
 * Installs pinned real agent CLIs (Codex, Copilot, Claude Code, Gemini CLI) for the real-agent tests into a cache folder outside the project's
 * dependencies (hundreds of MB each), once; later runs reuse it. The folder is `$TETHER_AGENTS_CACHE`, else
 * `$XDG_CACHE_HOME/tether-test-agents`, else `~/.cache/tether-test-agents`. A failed install throws: the tests that
 * need the agent fail with the reason, they are never skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findPreset } from '../../native-host/src/backends/presets';

/** A pinned npm package that carries an agent binary. */
export interface AgentPackage {
  readonly name: string;
  readonly version: string;
  /** The agent's native binary inside an install folder (platform packages differ), if present. */
  readonly binary: (installDir: string) => string | undefined;
}

/** The npm package of a known agent, from the host's table of agents (one spelling for install hints and tests). */
function npmOf(id: string): string {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no known agent "${id}" in native-host/src/backends/presets.ts`);
  return preset.npm;
}

/** OpenAI Codex CLI: `codex app-server`. */
export const CODEX_PACKAGE: AgentPackage = {
  name: npmOf('codex'),
  version: '0.171.0',
  binary: (dir) =>
    nativeIn(join(dir, 'node_modules/@openai'), 'codex-', (pkg) => vendorBinary(pkg, 'codex')) ?? shim(dir, 'codex'),
};

/** GitHub Copilot CLI: `copilot --acp`. */
export const COPILOT_PACKAGE: AgentPackage = {
  name: npmOf('copilot'),
  version: '1.0.102',
  binary: (dir) =>
    nativeIn(join(dir, 'node_modules/@github'), 'copilot-', (pkg) =>
      executable(join(pkg, process.platform === 'win32' ? 'copilot.exe' : 'copilot')),
    ) ?? shim(dir, 'copilot'),
};

/**
 * Claude Code behind Zed's ACP adapter: `claude-code-acp`. It brings Claude Code 2.1.44 itself through
 * `@anthropic-ai/claude-agent-sdk@0.2.44` (its `cli.js`, 77 MB, plus sharp's optional native packages): a Node script,
 * no per-platform binary.
 */
export const CLAUDE_CODE_ACP_PACKAGE: AgentPackage = {
  name: npmOf('claude'),
  version: '0.16.2',
  binary: (dir) => shim(dir, 'claude-code-acp'),
};

/** Google Gemini CLI: `gemini --acp`; one bundled Node script (no dependencies to install). */
export const GEMINI_PACKAGE: AgentPackage = {
  name: npmOf('gemini'),
  version: '0.61.0',
  binary: (dir) => shim(dir, 'gemini'),
};

/** An agent package could not be installed; says why and what to do. */
export class AgentInstallError extends Error {
  override name = 'AgentInstallError';
}

/** The cache folder. */
export function agentsCacheDir(): string {
  const env = process.env;
  if (env['TETHER_AGENTS_CACHE']) return env['TETHER_AGENTS_CACHE'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'tether-test-agents');
}

/** The install folder of a package version, e.g. `<cache>/@openai+codex@0.171.0`. */
export function installDirOf(pkg: AgentPackage): string {
  return join(agentsCacheDir(), `${pkg.name.replace('/', '+')}@${pkg.version}`);
}

/** Absolute path of the agent binary, installing the pinned package first when it is not in the cache. */
export async function ensureAgent(pkg: AgentPackage, opts: { timeoutMs?: number } = {}): Promise<string> {
  const dir = installDirOf(pkg);
  const marker = join(dir, '.tether-installed.json');
  const ready = (): string | undefined => {
    if (!existsSync(marker)) return undefined;
    const bin = pkg.binary(dir);
    return bin && runsVersion(bin) ? bin : undefined;
  };
  const cached = ready();
  if (cached) return cached;
  const release = await lock(`${dir}.lock`, opts.timeoutMs ?? 600_000);
  try {
    const again = ready();
    if (again) return again;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await npmInstall(pkg, dir, opts.timeoutMs ?? 600_000);
    const bin = pkg.binary(dir);
    if (!bin || !runsVersion(bin)) {
      throw new AgentInstallError(
        `${pkg.name}@${pkg.version} installed into ${dir} but its binary for ${process.platform}-${process.arch} is missing or does not run. Fix: check that the package supports this platform, then delete ${dir} and run the tests again.`,
      );
    }
    writeFileSync(
      marker,
      JSON.stringify({ name: pkg.name, version: pkg.version, binary: bin, installedAt: new Date().toISOString() }),
    );
    return bin;
  } finally {
    release();
  }
}

function npmInstall(pkg: AgentPackage, dir: string, timeoutMs: number): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    `${pkg.name}@${pkg.version}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const fail = (why: string, cause?: unknown) =>
      reject(
        new AgentInstallError(
          `Could not install ${pkg.name}@${pkg.version} into ${dir} for the real-agent tests: ${why}.\n${output.trim()}\nFix: make the npm registry reachable (or put a ready install at that path; TETHER_AGENTS_CACHE chooses the cache folder) and run the tests again.`,
          { cause },
        ),
      );
    child.once('error', (error) => {
      clearTimeout(timer);
      fail(`npm could not be started (${error.message})`, error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else fail(signal ? `npm was stopped by ${signal} (timeout ${timeoutMs} ms?)` : `npm exited with code ${code}`);
    });
  });
}

/** A cross-process lock: a directory that only one process can create. Stale locks (> 20 min) are broken. */
async function lock(path: string, timeoutMs: number): Promise<() => void> {
  mkdirSync(join(path, '..'), { recursive: true });
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'owner'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - statSafe(path);
      if (age > 20 * 60_000) rmSync(path, { recursive: true, force: true });
      else if (Date.now() > until)
        throw new AgentInstallError(
          `Timed out waiting for another install holding ${path}. Fix: if no install is running, delete that folder.`,
        );
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
}

function statSafe(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

function runsVersion(bin: string): boolean {
  const result = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    shell: process.platform === 'win32' && /\.(cmd|bat)$/i.test(bin),
  });
  return result.status === 0;
}

function nativeIn(scope: string, prefix: string, pick: (pkgDir: string) => string | undefined): string | undefined {
  if (!existsSync(scope)) return undefined;
  for (const name of readdirSync(scope)) {
    if (!name.startsWith(prefix)) continue;
    const found = pick(join(scope, name));
    if (found) return found;
  }
  return undefined;
}

function vendorBinary(pkgDir: string, name: string): string | undefined {
  const vendor = join(pkgDir, 'vendor');
  if (!existsSync(vendor)) return undefined;
  for (const triple of readdirSync(vendor)) {
    const bin = executable(join(vendor, triple, 'bin', process.platform === 'win32' ? `${name}.exe` : name));
    if (bin) return bin;
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    return statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

function shim(dir: string, name: string): string | undefined {
  return executable(join(dir, 'node_modules/.bin', process.platform === 'win32' ? `${name}.cmd` : name));
}

/** What the marker of an install says (for diagnostics). */
export function installInfo(pkg: AgentPackage): unknown {
  try {
    return JSON.parse(readFileSync(join(installDirOf(pkg), '.tether-installed.json'), 'utf8'));
  } catch {
    return undefined;
  }
}
