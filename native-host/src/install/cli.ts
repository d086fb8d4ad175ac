/**
 * Entry points for `tether install`, `tether uninstall` and `tether doctor` on the real machine: parse the arguments,
 * build the real System, find the bundled host, run the command and turn errors into messages and exit codes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HOST_PACKAGE } from '@tether/protocol';
import { BACKEND_PRESETS } from '../backends/presets';
import { inspectDaemon } from '../daemon/inspect';
import { daemonFiles } from '../daemon/paths';
import { TETHER_VERSION } from '../version';
import { parseInstallArgs, UsageError, type CommandName } from './args';
import { doctor as runDoctor } from './doctor';
import { InvalidExtensionIdError } from './ids';
import { install as runInstall, InstallError } from './install';
import { LauncherPathError } from './launcher';
import { createNodeSystem } from './node-system';
import type { System } from './system';
import { findOnPath, UnsupportedPlatformError } from './system';
import { InstallRecordError } from './record';
import { uninstall as runUninstall, UninstallError } from './uninstall';

const USAGE: Record<CommandName, string> = {
  install: [
    'Usage: tether install [--browser chrome|chromium|edge|brave|vivaldi|firefox|all] [--extension-id ID]... [--dev]',
    '                      [--scope user|system] [--user-data-dir DIR] [--dry-run]',
    'Registers the native messaging host with every browser found (or the ones named), for the extensions named with',
    '--extension-id (the id chrome://extensions shows, or a Firefox add-on id). --dev also allows the development build',
    '(extension/dist; its key is public, so only on a machine where you develop Tether: `npm start` does this).',
    "The launcher runs a copy of the host kept in Tether's data folder (with --dev: the checkout's dist/ in place);",
    'run install again to upgrade. --scope system installs for every user: run as root or administrator after',
    '`npm run build`; the host is copied to a machine-wide folder. --user-data-dir DIR registers it for a Chromium',
    'started with --user-data-dir=DIR.',
    '--dry-run prints the plan and writes nothing.',
  ].join('\n'),
  uninstall: [
    'Usage: tether uninstall [--browser NAME|all] [--scope user|system] [--user-data-dir DIR] [--dry-run]',
    'Removes exactly what `tether install` wrote (files and registry keys), as listed in its install record.',
  ].join('\n'),
  doctor: [
    'Usage: tether doctor [--browser NAME|all] [--user-data-dir DIR] [--extension-id ID]...',
    "Checks each browser's host manifest, the launcher's Node, the config and the log, then starts the host as the",
    "browser would and completes a framed initialize. Each failure shows the browser's error text and the fix.",
  ].join('\n'),
};

/** Where this `tether` runs from: a checkout's native-host workspace, or the published package. */
interface HostPackage {
  /** The folder holding dist/ (and, in a checkout, scripts/). */
  readonly root: string;
  readonly kind: 'checkout' | 'package';
}

/**
 * The folder of this command's package, found from this module's location; undefined for the copy install made
 * beside the launcher (which can run doctor and uninstall, but installs only from a package or a checkout).
 */
function hostPackage(): HostPackage | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    const name = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name : undefined;
    if (name === '@tether/native-host') return { root: dir, kind: 'checkout' };
    if (name === HOST_PACKAGE) return { root: dir, kind: 'package' };
    if (dirname(dir) === dir) return undefined;
  }
}

async function buildHost(from: HostPackage): Promise<void> {
  // The published package ships its bundle; only a checkout can (and may need to) build one.
  if (from.kind === 'package')
    throw new Error(`the package is missing ${join(from.root, 'dist', 'tether.mjs')}; reinstall it`);
  const script = pathToFileURL(join(from.root, 'scripts', 'build.mjs')).href;
  const build = (await import(/* @vite-ignore */ script)) as { buildHost: (o: { quiet: boolean }) => Promise<void> };
  await build.buildHost({ quiet: true });
}

/**
 * How the user runs `tether`, for the commands doctor and install print: `tether` when it is on PATH for good (a
 * global install, or a checkout's linked bin), `npx tether` in a checkout, else the package through npx, which works
 * for anyone (npx's own copy is on PATH only while npx runs).
 */
async function commandName(sys: System, from: HostPackage | undefined): Promise<string> {
  const onPath = await findOnPath(sys, 'tether');
  if (onPath && !onPath.split(/[\\/]/).includes('_npx')) return 'tether';
  return from?.kind === 'checkout' ? 'npx tether' : `npx ${HOST_PACKAGE}`;
}

const EXPECTED_ERRORS = [
  LauncherPathError,
  InstallError,
  UninstallError,
  InstallRecordError,
  InvalidExtensionIdError,
  UnsupportedPlatformError,
];

async function main(command: CommandName, args: string[], run: (sys: System) => Promise<number>): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const sys = createNodeSystem();
    const parsed = parseInstallArgs(command, args, sys.platform);
    if (parsed.help) {
      out(USAGE[command]);
      return 0;
    }
    return await run(sys);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`tether ${command}: ${error.message}\n\n${USAGE[command]}\n`);
      return 2;
    }
    // Our own errors already say what happened and what to do; anything else is a bug worth its stack.
    const known = EXPECTED_ERRORS.some((type) => error instanceof type);
    process.stderr.write(
      `tether ${command}: ${error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
    );
    return 1;
  }
}

/** `tether install [...]`; resolves with the exit code. */
export function install(args: string[]): Promise<number> {
  return main('install', args, async (sys) => {
    const parsed = parseInstallArgs('install', args, sys.platform);
    const from = hostPackage();
    if (!from)
      throw new InstallError(
        `tether install runs from the ${HOST_PACKAGE} package (\`npx ${HOST_PACKAGE} install\`) or a checkout, not from ${fileURLToPath(import.meta.url)}.`,
      );
    await runInstall(sys, {
      ...parsed,
      hostScript: join(from.root, 'dist', 'tether.mjs'),
      buildHost: () => buildHost(from),
      command: await commandName(sys, from),
      tetherVersion: TETHER_VERSION,
      out: (line) => process.stdout.write(`${line}\n`),
    });
    return 0;
  });
}

/** `tether uninstall [...]`; resolves with the exit code. */
export function uninstall(args: string[]): Promise<number> {
  return main('uninstall', args, async (sys) => {
    const parsed = parseInstallArgs('uninstall', args, sys.platform);
    await runUninstall(sys, { ...parsed, out: (line) => process.stdout.write(`${line}\n`) });
    return 0;
  });
}

/** `tether doctor [...]`; resolves with 0 when every check passed, 1 otherwise. */
export function doctor(args: string[]): Promise<number> {
  return main('doctor', args, async (sys) => {
    const parsed = parseInstallArgs('doctor', args, sys.platform);
    const files = daemonFiles();
    return runDoctor(sys, {
      ...parsed,
      command: await commandName(sys, hostPackage()),
      tetherVersion: TETHER_VERSION,
      timeoutMs: 15_000,
      presets: BACKEND_PRESETS,
      out: (line) => process.stdout.write(`${line}\n`),
      daemon: {
        socket: files.socket,
        inspect: () => inspectDaemon(files, { fix: true, version: TETHER_VERSION }),
      },
    });
  });
}
