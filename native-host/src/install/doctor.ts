/**
 * `tether doctor`: checks every browser's registration, the launcher's Node, the config and the log, explains
 * Flatpak/Snap browsers, and starts the host as a browser would. Exit status 0 only when nothing failed.
 */
import { ConfigError } from '../config/config-error';
import { logFile } from '../paths';
import { readHostConfig } from './config-view';
import type { Browser, BrowserId } from './browsers';
import { browserById, BROWSERS } from './browsers';
import { detectBrowsers, detectSandboxed, explainSandboxed } from './detect';
import { checkBrowser } from './doctor-browser';
import { reportDaemon } from './doctor-daemon';
import { DoctorReport } from './doctor-report';
import { allowedIds, isDevExtensionId } from './ids';
import { parseLauncher } from './launcher';
import type { Scope } from './locations';
import { readRecord, type InstallRecord } from './record';
import type { System } from './system';
import { findOnPath, fromUtf8, pathFor } from './system';
import type { DaemonInspection } from '../daemon/inspect';
import { hostCommand } from '@tether/protocol';
import { errorMessage } from '@tether/protocol/errors';

/** A backend preset doctor looks for on PATH (the shape of `BACKEND_PRESETS` in backends/presets.ts). */
export interface PresetLike {
  readonly id: string;
  readonly label?: string;
  readonly argv: readonly string[];
  /** How to get the command when it is missing. */
  readonly install?: string;
  /** What the agent needs to sign in; `env` names where its variables go. */
  readonly signIn?: (env: string) => string;
}

/** What to check. */
export interface DoctorOptions {
  readonly browsers?: readonly BrowserId[];
  readonly userDataDir?: string;
  /** Ids the manifests must allow. */
  readonly extensionIds: readonly string[];
  /** How the user runs Tether (`tether`, `npx tether` in a checkout, `npx tether-bridge`), for the fix commands. */
  readonly command: string;
  readonly tetherVersion: string;
  /** How long the host may take to answer `initialize`. */
  readonly timeoutMs: number;
  /** How long to wait for the host to exit once stdin is closed (default: 3 s). */
  readonly exitWaitMs?: number;
  readonly presets: readonly PresetLike[];
  readonly out: (line: string) => void;
  /** Inspects the daemon, removing a stale pidfile or socket (inspectDaemon with its files); none: not reported. */
  readonly daemon?: { readonly socket: string; inspect(): Promise<DaemonInspection> };
}

/** Node versions older than this cannot run the host. */
export const MIN_NODE_MAJOR = 20;

async function records(sys: System, report: DoctorReport): Promise<InstallRecord[]> {
  const found: InstallRecord[] = [];
  for (const scope of ['user', 'system'] as Scope[]) {
    try {
      const record = await readRecord(sys, scope);
      if (record) found.push(record);
    } catch (error) {
      report.warn(errorMessage(error));
    }
  }
  return found;
}

async function chooseBrowsers(
  sys: System,
  options: DoctorOptions,
  installed: readonly InstallRecord[],
): Promise<Browser[]> {
  if (options.browsers) return options.browsers.map(browserById);
  if (options.userDataDir !== undefined) return [browserById('chromium')];
  const wanted = new Set<BrowserId>((await detectBrowsers(sys)).map((d) => d.browser.id));
  for (const record of installed) {
    for (const entry of record.entries) {
      if (entry.type !== 'manifest' || entry.userDataDir === undefined) for (const b of entry.browsers) wanted.add(b);
    }
  }
  return BROWSERS.filter((b) => wanted.has(b.id));
}

/** Checks a launcher; resolves with the extension ids it passes to the host (`--allow-extension`). */
async function checkLauncher(sys: System, report: DoctorReport, hostPath: string, fix: string): Promise<string[]> {
  report.section(`Launcher ${hostPath}`);
  const bytes = await sys.fs.readFile(hostPath);
  const launcher = bytes && parseLauncher(sys.platform, fromUtf8(bytes), sys.env);
  if (!launcher) {
    report.info('not a launcher written by `tether install`; Node and the host script cannot be checked');
    return [];
  }
  const { nodePath, hostScript } = launcher;
  if (launcher.allowDev)
    report.info(`passes --allow-dev-extension: the host allows the development extension (installed with --dev)`);
  if (!(await sys.fs.isExecutable(nodePath))) {
    report.fail(`Node ${nodePath} is missing or not executable (moved, or removed by a version manager such as nvm)`, {
      browserSays: 'Native host has exited.',
      fix: `run the install again with the Node you use now: ${fix}`,
    });
  } else {
    const version = await sys.exec(nodePath, ['--version'], { timeoutMs: 10_000 });
    const match = /^v(\d+)\.\d+\.\d+/.exec(version.stdout.trim());
    if (!match) {
      report.fail(
        `${nodePath} --version did not print a Node version (${(version.stderr || version.error?.message || version.stdout).trim()})`,
        {
          browserSays: 'Native host has exited.',
          fix,
        },
      );
    } else if (Number(match[1]) < MIN_NODE_MAJOR) {
      report.fail(`Node ${nodePath} is ${version.stdout.trim()}; Tether needs ${MIN_NODE_MAJOR} or newer`, {
        browserSays: 'Native host has exited.',
        fix: `install Node ${MIN_NODE_MAJOR}+, then run the install with it: ${fix}`,
      });
    } else {
      report.ok(`Node ${nodePath} ${version.stdout.trim()}`);
    }
  }
  if ((await sys.fs.stat(hostScript))?.kind === 'file') report.ok(`host script ${hostScript}`);
  else {
    report.fail(
      `host script ${hostScript} is missing (deleted, or a --dev install whose checkout moved or is not built)`,
      {
        browserSays: 'Native host has exited.',
        fix: `run the install again, which copies the host beside the launcher: ${fix}`,
      },
    );
  }
  return [...(launcher.allowIds ?? [])];
}

async function checkConfig(
  sys: System,
  report: DoctorReport,
  manifestIds: ReadonlySet<string>,
  launcherIds: ReadonlySet<string>,
): Promise<void> {
  report.section('Config');
  const config = await readHostConfig(sys);
  if (config instanceof ConfigError) {
    report.fail(`config ${config.file} is invalid`, {
      details: config.message
        .split('\n')
        .slice(1)
        .map((line) => line.trim()),
      fix: 'correct the fields above; until then the host cannot start any backend',
    });
    return;
  }
  const where = config.source === 'file' ? config.file : `${config.file} (not present: built-in defaults)`;
  report.ok(`${where}: backends ${Object.keys(config.backends).join(', ')}; default ${config.defaultBackend}`);
  // The host checks its caller against the ids its launcher names and the config's list, not against the manifests.
  const refused = [...manifestIds].filter(
    (id) => !isDevExtensionId(id) && !launcherIds.has(id) && !config.allowedExtensionIds.includes(id),
  );
  if (refused.length > 0) {
    report.warn(
      `the manifests allow ${refused.join(', ')} but neither the launcher nor "allowedExtensionIds" in ${config.file} does, so the host will refuse ${refused.length > 1 ? 'them' : 'it'}`,
      `run the install again (launchers since 0.1.0 pass the ids they allow), or add ${refused.map((id) => `"${id}"`).join(', ')} to "allowedExtensionIds" in ${config.file}`,
    );
  }
}

async function checkPresets(sys: System, report: DoctorReport, presets: readonly PresetLike[]): Promise<void> {
  if (presets.length === 0) return;
  report.section('Agent backends on PATH');
  for (const preset of presets) {
    const command = preset.argv[0];
    if (!command) continue;
    const name = preset.label ? `${preset.id} - ${preset.label}` : preset.id;
    const found = await findOnPath(sys, command);
    if (found) {
      report.ok(`${name}: ${found}`);
      // An agent without credentials starts, then fails its first turn: say what it needs before that happens.
      if (preset.signIn) report.info(`${preset.id} signs in: ${preset.signIn(`backends.${preset.id}.env`)}`);
    } else
      report.info(`${name}: \`${command}\` not on PATH${preset.install ? `; install with \`${preset.install}\`` : ''}`);
  }
  // A browser started from the desktop may give the host a shorter PATH than this shell has.
  report.info(
    'a browser started from the desktop may pass a shorter PATH: give "argv" an absolute path in the config if the host cannot find a command',
  );
}

/** Runs `tether doctor`; resolves with the exit status. */
export async function doctor(sys: System, options: DoctorOptions): Promise<number> {
  const report = new DoctorReport(options.out);
  options.out(`Tether doctor ${options.tetherVersion} (${sys.platform}, Node ${sys.execPath})`);
  const installed = await records(sys, report);
  const ids = allowedIds(options.extensionIds, false);
  const udd =
    options.userDataDir === undefined ? undefined : pathFor(sys.platform).resolve(sys.cwd, options.userDataDir);
  const fixCommand = (browser: Browser) =>
    hostCommand(
      'install',
      { program: options.command },
      { browser: browser.id, ...(udd !== undefined ? { userDataDir: udd } : {}) },
    );
  const log = logFile({ platform: sys.platform, env: sys.env, homedir: sys.homedir });

  const browsers = await chooseBrowsers(sys, options, installed);
  if (browsers.length === 0) {
    report.section('Browsers');
    report.fail(`no supported browser found and nothing installed (${BROWSERS.map((b) => b.name).join(', ')})`, {
      fix: `${options.command} install --browser chrome (or chromium, edge, brave, vivaldi, firefox)`,
    });
  }
  const hostPaths = new Map<string, string>();
  const manifestIds = new Set<string>();
  for (const browser of browsers) {
    const { hostPath, allowedIds: allowed } = await checkBrowser(sys, report, browser, {
      userDataDir: udd,
      requiredIds: ids,
      fixCommand,
      timeoutMs: options.timeoutMs,
      ...(options.exitWaitMs !== undefined ? { exitWaitMs: options.exitWaitMs } : {}),
      tetherVersion: options.tetherVersion,
      logFile: log,
    });
    for (const id of allowed) manifestIds.add(id);
    if (hostPath && !hostPaths.has(hostPath)) hostPaths.set(hostPath, fixCommand(browser));
  }
  const launcherIds = new Set<string>();
  for (const [hostPath, fix] of hostPaths)
    for (const id of await checkLauncher(sys, report, hostPath, fix)) launcherIds.add(id);
  await checkConfig(sys, report, manifestIds, launcherIds);

  if (options.daemon) {
    const context = { command: options.command, tetherVersion: options.tetherVersion, socket: options.daemon.socket };
    reportDaemon(report, await options.daemon.inspect(), context);
  }

  report.section('Log');
  const logInfo = await sys.fs.stat(log);
  report.info(`host log: ${log}${logInfo?.kind === 'file' ? '' : ' (not written yet)'}`);

  const sandboxed = await detectSandboxed(sys);
  if (sandboxed.length > 0) {
    report.section('Sandboxed browsers');
    for (const s of sandboxed) report.warn(explainSandboxed(s));
  }
  await checkPresets(sys, report, options.presets);
  return report.finish();
}
