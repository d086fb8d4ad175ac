/**
 * Doctor's checks for one browser: find the manifest where the browser looks, check it as the browser does, then
 * start the host as the browser would and complete a framed `initialize`.
 */
import type { Browser } from './browsers';
import type { DoctorReport } from './doctor-report';
import { BROWSER_KILL_WINDOW_MS, probeHost } from './host-probe';
import { isDevExtensionId } from './ids';
import { browserErrorText, checkManifest, type FailureKind } from './manifest';
import { lookupLocations } from './locations';
import { readRegistryValue } from './registry';
import type { System } from './system';
import { fromUtf8, pathFor } from './system';

/** What a browser's checks share with the rest of doctor. */
export interface BrowserCheckContext {
  readonly userDataDir?: string;
  /** Ids the manifest must allow, per family. */
  readonly requiredIds: { readonly chrome: readonly string[]; readonly firefox: readonly string[] };
  /** The command that reinstalls for this browser. */
  readonly fixCommand: (browser: Browser) => string;
  readonly timeoutMs: number;
  readonly exitWaitMs?: number;
  readonly tetherVersion: string;
  readonly logFile: string;
}

/** Where the browser finds the manifest: its path, or undefined with the places looked at. */
async function findManifest(
  sys: System,
  browser: Browser,
  userDataDir: string | undefined,
): Promise<{ manifestPath?: string; via?: string; lookedAt: string[] }> {
  const lookedAt: string[] = [];
  for (const location of lookupLocations(sys, browser, userDataDir)) {
    if (location.kind === 'registry') {
      lookedAt.push(location.key);
      const value = await readRegistryValue(sys, location.key);
      if (value !== undefined) return { manifestPath: value, via: location.key, lookedAt };
      continue;
    }
    lookedAt.push(location.manifestPath);
    if ((await sys.fs.stat(location.manifestPath))?.kind === 'file')
      return { manifestPath: location.manifestPath, lookedAt };
  }
  return { lookedAt };
}

/** What doctor learned about one browser's registration. */
export interface BrowserCheckResult {
  /** The host the manifest names, when it exists. */
  readonly hostPath?: string;
  /** The ids the manifest allows. */
  readonly allowedIds: readonly string[];
}

/** Runs every check for one browser. */
export async function checkBrowser(
  sys: System,
  report: DoctorReport,
  browser: Browser,
  ctx: BrowserCheckContext,
): Promise<BrowserCheckResult> {
  const path = pathFor(sys.platform);
  const says = (kind: FailureKind) => browserErrorText(browser.family, kind);
  const fix = ctx.fixCommand(browser);
  report.section(`${browser.name}${ctx.userDataDir !== undefined ? ` (user data dir ${ctx.userDataDir})` : ''}`);

  const found = await findManifest(sys, browser, ctx.userDataDir);
  if (!found.manifestPath) {
    const what = sys.platform === 'win32' ? 'no registry key' : 'no manifest';
    report.fail(`${what}: looked at ${found.lookedAt.join(', ')}`, { browserSays: says('notFound'), fix });
    return { allowedIds: [] };
  }
  if (found.via) report.ok(`registry key ${found.via} -> ${found.manifestPath}`);
  const bytes = await sys.fs.readFile(found.manifestPath);
  if (bytes === undefined) {
    report.fail(`the manifest ${found.manifestPath} does not exist`, { browserSays: says('notFound'), fix });
    return { allowedIds: [] };
  }
  const text = fromUtf8(bytes);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    report.fail(`${found.manifestPath} starts with a UTF-8 byte order mark, which browsers reject`, {
      browserSays: says('notFound'),
      fix,
    });
    return { allowedIds: [] };
  }
  const checked = checkManifest(text, path.basename(found.manifestPath), browser.family, sys.platform);
  for (const problem of checked.problems)
    report.fail(`${found.manifestPath}: ${problem.message}`, { browserSays: says(problem.kind), fix });
  if (checked.problems.length === 0) report.ok(`manifest ${found.manifestPath} (valid JSON, name matches the file)`);

  const required = browser.family === 'chrome' ? ctx.requiredIds.chrome : ctx.requiredIds.firefox;
  const missing = required.filter((id) => !checked.allowedIds.includes(id));
  const listName = browser.family === 'chrome' ? 'allowed_origins' : 'allowed_extensions';
  if (missing.length > 0) {
    report.fail(`${listName} lacks ${missing.join(', ')}`, {
      browserSays: says('forbidden'),
      fix: `${fix}${missing.map((id) => ` --extension-id ${id}`).join('')}`,
    });
  } else if (checked.allowedIds.length > 0) {
    report.ok(`${listName} allows ${checked.allowedIds.join(', ')}`);
  } else if (checked.problems.length === 0) {
    report.fail(`${listName} is empty: no extension may start the host`, {
      browserSays: says('forbidden'),
      fix: `${fix} --extension-id ID (or --dev)`,
    });
  }
  const dev = checked.allowedIds.filter(isDevExtensionId);
  if (dev.length > 0) {
    report.warn(
      `development extension allowed: yes (installed with --dev): ${dev.join(', ')} has a public key (manifests/dev-key.json), ` +
        'so any extension loaded with it can use the host and ask for command approvals',
      `on a machine where you do not develop Tether, reinstall without --dev: ${fix} --extension-id ID`,
    );
  } else {
    report.info('development extension allowed: no');
  }

  if (checked.hostPath === undefined) return { allowedIds: checked.allowedIds };
  const hostPath = path.resolve(path.dirname(found.manifestPath), checked.hostPath);
  const info = await sys.fs.stat(hostPath);
  if (info?.kind !== 'file') {
    report.fail(`the host ${hostPath} does not exist`, { browserSays: says('exited'), fix });
    return { allowedIds: checked.allowedIds };
  }
  if (!(await sys.fs.isExecutable(hostPath))) {
    const chmod =
      sys.platform === 'win32' ? 'a Windows host must be a .cmd, .bat or .exe file' : `chmod 755 "${hostPath}"`;
    report.fail(`the host ${hostPath} is not executable`, { browserSays: says('exited'), fix: `${chmod} (or ${fix})` });
    return { hostPath, allowedIds: checked.allowedIds };
  }
  report.ok(`host ${hostPath} exists and is executable`);
  if (checked.problems.length > 0 || missing.length > 0 || checked.allowedIds.length === 0)
    return { hostPath, allowedIds: checked.allowedIds };

  const probe = await probeHost(sys, {
    hostPath,
    browser,
    // As the extension the manifest allows first would (the development one, after --dev).
    extensionId: checked.allowedIds[0]!,
    manifestPath: found.manifestPath,
    timeoutMs: ctx.timeoutMs,
    ...(ctx.exitWaitMs !== undefined ? { exitWaitMs: ctx.exitWaitMs } : {}),
    clientVersion: ctx.tetherVersion,
  });
  if (probe.ok) {
    const server = probe.serverInfo ? ` from ${probe.serverInfo.name} ${probe.serverInfo.version}` : '';
    report.ok(
      `started as ${browser.name} would (${probe.commandLine}): initialize answered in ${probe.initializeMs} ms${server}`,
    );
    if (probe.exitMs === undefined || probe.exitMs > BROWSER_KILL_WINDOW_MS) {
      const when = probe.exitMs === undefined ? 'had not exited' : `exited only ${probe.exitMs} ms`;
      report.fail(
        `the host ${when} after stdin closed: ${browser.name} kills it after 2000 ms, stranding its backend`,
        {
          fix: `see ${ctx.logFile} for what it was waiting on`,
        },
      );
    } else {
      report.ok(`the host exited ${probe.exitMs} ms after stdin closed (browsers allow 2000 ms)`);
    }
  } else {
    report.fail(`started as ${browser.name} would (${probe.commandLine}): ${probe.message}`, {
      ...(probe.kind ? { browserSays: says(probe.kind) } : {}),
      details: [
        ...(probe.details ?? []),
        ...(probe.stderrTail.length > 0 ? ['host stderr:', ...probe.stderrTail] : []),
      ],
      fix: `read ${ctx.logFile} and the Launcher checks below; reinstall with ${fix}`,
    });
  }
  return { hostPath, allowedIds: checked.allowedIds };
}
