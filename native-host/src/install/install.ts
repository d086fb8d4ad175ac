/**
 * `tether install`: writes the launcher and, for each chosen browser, the host manifest (and on Windows the registry
 * key), then records all of it for `tether uninstall`. Plans first, so `--dry-run` prints exactly what a real run does.
 * Manifests allow only the ids given; `--dev` adds the development ids and points them at a launcher that tells the
 * host to allow them too. The launcher runs a copy of the host kept in Tether's own folder (host-copy.ts), except with
 * --dev, which runs the checkout's bundle.
 */
import type { Browser, BrowserId } from './browsers';
import { browserById, BROWSERS } from './browsers';
import { detectBrowsers, detectSandboxed, explainSandboxed } from './detect';
import { ConfigError } from '../config/config-error';
import type { HostConfig } from '../config/load';
import { readHostConfig } from './config-view';
import { allowedIds, chromeOrigin, isDevExtensionId, parseExtensionId, type AllowedIds } from './ids';
import { renderLauncher } from './launcher';
import { hostDir, installLocation, tetherPaths, type Location, type Scope, type TetherPaths } from './locations';
import { renderManifest } from './manifest';
import { type Action, fileStatus, InstallError, type Status } from './plan';
import type { FileEntry, InstallRecord, RecordEntry } from './record';
import { readRecord, serializeRecord, sha256 } from './record';
import { formatRegCommand, readRegistryValue, regAddArgs } from './registry';
import type { System } from './system';
import { pathFor, utf8 } from './system';
import { planHostCopy, staleHostFiles } from './host-copy';
import { errorMessage } from '@tether/protocol/errors';

export { type Action, InstallError, type Status } from './plan';

/** What to install. */
export interface InstallOptions {
  /** Browsers to install for; undefined means every browser found on the machine. */
  readonly browsers?: readonly BrowserId[];
  /** Extension ids to allow (never the development ids: `dev` allows those). */
  readonly extensionIds: readonly string[];
  /** `--dev`: also allow the development extension, whose key is public (`npm start` passes this). */
  readonly dev: boolean;
  readonly scope: Scope;
  /** Chrome family, Linux/macOS: write to `DIR/NativeMessagingHosts` instead of the browser's default location. */
  readonly userDataDir?: string;
  readonly dryRun: boolean;
  /** Absolute path of the bundled host (`native-host/dist/tether.mjs`); system scope runs a copy of it. */
  readonly hostScript: string;
  /** Builds `hostScript` when it is missing (user scope only). */
  readonly buildHost: () => Promise<void>;
  readonly tetherVersion: string;
  /** How the user runs `tether` (`tether`, `npx tether`, `npx tether-bridge`), for the commands install prints. */
  readonly command?: string;
  /** Where the report lines go. */
  readonly out: (line: string) => void;
}

const VERBS: Record<Status, [string, string]> = {
  create: ['would create', 'created'],
  update: ['would update', 'updated'],
  unchanged: ['unchanged', 'unchanged'],
};

async function chooseBrowsers(sys: System, options: InstallOptions): Promise<Browser[]> {
  if (options.browsers) return options.browsers.map(browserById);
  if (options.userDataDir !== undefined) return [browserById('chromium')];
  const found = await detectBrowsers(sys);
  if (found.length === 0) {
    const sandboxed = (await detectSandboxed(sys)).map((s) => ` ${explainSandboxed(s)}`).join('');
    throw new InstallError(
      'No supported browser found (looked for the profile folders and programs of ' +
        `${BROWSERS.map((b) => b.name).join(', ')}). Name one with --browser, e.g. \`tether install --browser chrome\`.` +
        sandboxed,
    );
  }
  return found.map((f) => f.browser);
}

function sameTarget(sys: System, a: string, b: string): boolean {
  return sys.platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function locationKey(location: Location): string {
  return location.kind === 'registry' ? location.key.toLowerCase() : location.manifestPath;
}

/** Refuses to write a manifest that allows no extension: say which ids to give. */
function requireIds(browsers: readonly Browser[], ids: AllowedIds): void {
  const without = browsers.filter((b) => (b.family === 'chrome' ? ids.chrome : ids.firefox).length === 0);
  if (without.length === 0) return;
  throw new InstallError(
    `No extension to allow for ${without.map((b) => b.name).join(', ')}. Give the id of your Tether build with --extension-id ID ` +
      '(chrome://extensions shows it; for Firefox, the add-on id), or pass --dev to allow the development build in extension/dist. ' +
      'Its key is public (manifests/dev-key.json), so use --dev only on a machine where you develop Tether; `npm start` does it for you.',
  );
}

/**
 * Works out every step; reads the machine but changes nothing. `hostScript` is what the launcher runs; `hostCopy`
 * the steps that put it there (system scope).
 */
export async function planInstall(
  sys: System,
  options: InstallOptions,
  ids: AllowedIds,
  hostScript: string,
  hostCopy: readonly Action[] = [],
): Promise<Action[]> {
  const path = pathFor(sys.platform);
  const browsers = await chooseBrowsers(sys, options);
  requireIds(browsers, ids);
  const tether = tetherPaths(sys, options.scope);
  const launcher = options.dev ? tether.devLauncher : tether.launcher;
  const userDataDir = options.userDataDir === undefined ? undefined : path.resolve(sys.cwd, options.userDataDir);
  const launcherText = utf8(
    renderLauncher(
      sys.platform,
      {
        nodePath: sys.execPath,
        hostScript,
        allowDev: options.dev,
        allowIds: [...ids.chrome, ...ids.firefox].filter((id) => !isDevExtensionId(id)),
      },
      sys.env,
    ),
  );
  const actions: Action[] = [
    ...hostCopy,
    {
      kind: 'file',
      entry: { type: 'launcher', path: launcher, sha256: sha256(launcherText), browsers: [], createdDirs: [] },
      content: launcherText,
      mode: 0o755,
      status: await fileStatus(sys, launcher, launcherText, 0o755),
    },
  ];
  // Browsers sharing a location (Chrome, Brave and Vivaldi share a system dir and a registry key) share one manifest.
  const groups = new Map<string, { location: Location; browsers: Browser[] }>();
  for (const browser of browsers) {
    const location = installLocation(sys, browser, options.scope, userDataDir);
    const group = groups.get(locationKey(location)) ?? { location, browsers: [] };
    group.browsers.push(browser);
    groups.set(locationKey(location), group);
  }
  for (const { location, browsers: served } of groups.values()) {
    const family = served[0]!.family;
    const text = utf8(renderManifest(family, launcher, family === 'chrome' ? ids.chrome : ids.firefox));
    const servedIds = served.map((b) => b.id);
    const entry: FileEntry = {
      type: 'manifest',
      path: location.manifestPath,
      sha256: sha256(text),
      browsers: servedIds,
      createdDirs: [],
      ...(userDataDir !== undefined ? { userDataDir } : {}),
    };
    actions.push({
      kind: 'file',
      entry,
      content: text,
      mode: 0o644,
      status: await fileStatus(sys, entry.path, text, 0o644),
    });
    if (location.kind === 'registry') {
      const current = await readRegistryValue(sys, location.key);
      const status: Status =
        current === undefined ? 'create' : sameTarget(sys, current, location.manifestPath) ? 'unchanged' : 'update';
      actions.push({
        kind: 'registry',
        entry: { type: 'registry', key: location.key, value: location.manifestPath, browsers: servedIds },
        status,
      });
    }
  }
  return actions;
}

function describe(entry: RecordEntry, tether: TetherPaths): string {
  const names = entry.browsers.map((id) => browserById(id).name).join(', ');
  if (entry.type === 'launcher') {
    return entry.path === tether.devLauncher
      ? 'development launcher: the host also allows the development extension'
      : 'launcher';
  }
  if (entry.type === 'host') return 'host, copied for the launcher';
  if (entry.type === 'manifest') return `manifest for ${names}`;
  return `registry key for ${names}`;
}

function permissionHint(sys: System, scope: Scope, target: string): string {
  if (scope === 'system') {
    return sys.platform === 'win32'
      ? 'System scope writes HKLM and %ProgramData%: run it from an administrator prompt, or use --scope user.'
      : 'System scope writes machine-wide folders: run it as root (e.g. `sudo "$(command -v node)" native-host/dist/tether.mjs install --scope system`), or use --scope user.';
  }
  return `Check the owner and permissions of ${target} and its parent folders.`;
}

function mergeEntries(sys: System, previous: readonly RecordEntry[], written: readonly RecordEntry[]): RecordEntry[] {
  const result = [...previous];
  for (const entry of written) {
    const target = entry.type === 'registry' ? entry.key : entry.path;
    const index = result.findIndex(
      (e) => e.type === entry.type && sameTarget(sys, e.type === 'registry' ? e.key : e.path, target),
    );
    if (index < 0) {
      result.push(entry);
      continue;
    }
    const old = result[index]!;
    const browsers = [...new Set([...old.browsers, ...entry.browsers])];
    // Directories created by the first install stay attributed to the entry; a later run finds them existing.
    result[index] =
      entry.type === 'registry'
        ? { ...entry, browsers }
        : { ...entry, browsers, createdDirs: old.type === 'registry' ? [] : old.createdDirs };
  }
  return result;
}

/** Runs `tether install`; resolves with the plan it carried out (or only printed, with `dryRun`). Throws InstallError. */
export async function install(sys: System, options: InstallOptions): Promise<Action[]> {
  const path = pathFor(sys.platform);
  const { out } = options;
  const tether = tetherPaths(sys, options.scope);
  const previous = await readRecord(sys, options.scope);
  const devGiven = options.extensionIds.filter((raw) => isDevExtensionId(parseExtensionId(raw).id));
  if (devGiven.length > 0) {
    throw new InstallError(
      `${devGiven.join(', ')} is the development build's id, whose key is public: allow it with --dev ` +
        '(on a machine where you develop Tether), not with --extension-id.',
    );
  }
  // The host allows the config's ids too; its manifests must list them or the browser refuses before the host sees it.
  const config = await readHostConfig(sys);
  const configIds = config instanceof ConfigError ? [] : config.allowedExtensionIds;
  const requested = allowedIds([...options.extensionIds, ...configIds], options.dev);
  // Records of earlier versions list the development ids too: only --dev brings them back.
  const kept = {
    chrome: (previous?.allowedExtensionIds.chrome ?? []).filter((id) => !isDevExtensionId(id)),
    firefox: (previous?.allowedExtensionIds.firefox ?? []).filter((id) => !isDevExtensionId(id)),
  };
  const ids: AllowedIds = {
    chrome: [...new Set([...requested.chrome, ...kept.chrome])],
    firefox: [...new Set([...requested.firefox, ...kept.firefox])],
  };
  // Every install but --dev runs a copy of the bundle kept beside the launcher, so deleting or moving what it was
  // installed from (an npx cache, a checkout) leaves the browsers their host; --dev runs the checkout's bundle, rebuilt
  // in place by `npm run build`.
  const copyHost = options.scope === 'system' || !options.dev;
  const hostExists = (await sys.fs.stat(options.hostScript))?.kind === 'file';
  const tense = options.dryRun ? 0 : 1;

  out(`Tether install (${options.scope} scope${options.dryRun ? ', dry run: nothing is written' : ''})`);
  out(`  Node:  ${sys.execPath}`);
  if (!hostExists && options.scope === 'user') {
    out(`  host:  ${options.hostScript}${options.dryRun ? ' (missing: would build it)' : ' (missing: building it)'}`);
    if (!options.dryRun) {
      try {
        await options.buildHost();
      } catch (error) {
        throw new InstallError(
          `Could not build ${options.hostScript}: ${errorMessage(error)}. Run \`npm run build\` and retry.`,
          { cause: error },
        );
      }
    }
  }
  // A dry run cannot read a bundle that is not built yet: it shows where the copy would go.
  const copy =
    copyHost && (hostExists || !options.dryRun || options.scope === 'system')
      ? await planHostCopy(sys, options.hostScript, options.tetherVersion, options.scope, options.dryRun)
      : undefined;
  const hostScript = copyHost
    ? (copy?.hostScript ?? path.join(hostDir(sys, options.scope, options.tetherVersion), 'tether.mjs'))
    : options.hostScript;
  const actions = await planInstall(sys, options, ids, hostScript, copy?.actions);
  if (copyHost) out(`  host:  ${hostScript} (copied from ${options.hostScript})`);
  else if (hostExists) out(`  host:  ${hostScript}`);

  // The copied host is one line, not one per chunk.
  const copied = actions.filter((a) => a.kind === 'file' && a.entry.type === 'host');
  if (copied.length > 0) {
    const status: Status = copied.some((a) => a.status === 'create')
      ? 'create'
      : copied.some((a) => a.status === 'update')
        ? 'update'
        : 'unchanged';
    const describeCopy = options.scope === 'system' ? 'copied for every user' : 'copied for the launcher';
    out(
      `  ${VERBS[status][tense]!.padEnd(12)} ${path.dirname(hostScript)}${path.sep} (host: ${copied.length} file(s), ${describeCopy})`,
    );
  }
  const written: RecordEntry[] = [];
  let failure: unknown;
  for (const action of actions) {
    const verb = VERBS[action.status][tense]!.padEnd(12);
    if (action.kind === 'registry') {
      out(`  ${verb} ${action.entry.key} = ${action.entry.value} (${describe(action.entry, tether)})`);
      const args = regAddArgs(action.entry.key, action.entry.value);
      if (action.status !== 'unchanged') out(`  ${' '.repeat(12)} ${formatRegCommand(args)}`);
      if (options.dryRun) continue;
      if (action.status !== 'unchanged') {
        const result = await sys.reg(args);
        if (result.code !== 0) {
          failure = new InstallError(
            `${formatRegCommand(args)} failed: ${(result.stderr || result.stdout || result.error?.message || '').trim()}. ` +
              permissionHint(sys, options.scope, action.entry.key),
            { cause: result.error },
          );
          break;
        }
      }
      written.push(action.entry);
      continue;
    }
    if (action.entry.type !== 'host') out(`  ${verb} ${action.entry.path} (${describe(action.entry, tether)})`);
    if (options.dryRun) continue;
    try {
      const createdDirs = await sys.fs.mkdirp(path.dirname(action.entry.path));
      // A machine-wide folder must not be writable by other users, whatever root's umask is.
      if (options.scope === 'system') for (const dir of createdDirs) await sys.fs.chmod(dir, 0o755);
      if (action.status !== 'unchanged') await sys.fs.writeFile(action.entry.path, action.content, action.mode);
      written.push({ ...action.entry, createdDirs });
    } catch (error) {
      failure = new InstallError(
        `Could not write ${action.entry.path}: ${errorMessage(error)}. ${permissionHint(sys, options.scope, action.entry.path)}`,
        { cause: error },
      );
      break;
    }
  }

  // The launcher now runs the new copy: copies older than the previous one go (uninstall would remove them anyway).
  const stale = copyHost && !failure && !options.dryRun ? staleHostFiles(sys, previous, hostScript) : [];
  const removedStale = new Set<string>();
  for (const entry of stale) {
    const current = await sys.fs.readFile(entry.path);
    // A file changed since install is not ours to delete; it stays listed for uninstall to report.
    if (current !== undefined && sha256(current) !== entry.sha256) continue;
    if (current !== undefined) await sys.fs.removeFile(entry.path);
    removedStale.add(entry.path);
  }
  // Folders the removed copies' first install created (Tether's own folder among them) pass to the new copy, so
  // uninstall still removes them.
  const handedOn: string[] = [];
  if (removedStale.size > 0) {
    out(`  ${'removed'.padEnd(12)} ${removedStale.size} file(s) of an older host copy`);
    const copies = path.join(tether.root, 'host') + path.sep;
    const stalePaths = stale.filter((e) => removedStale.has(e.path));
    const dirs = [...new Set(stalePaths.flatMap((e) => [path.dirname(e.path), ...e.createdDirs]))];
    for (const dir of dirs.sort((a, b) => b.length - a.length)) {
      const gone = dir.startsWith(copies) && (await sys.fs.removeEmptyDir(dir));
      if (!gone && stalePaths.some((e) => e.createdDirs.includes(dir))) handedOn.unshift(dir);
    }
  }

  if (!options.dryRun && written.length > 0) {
    const survivors = (previous?.entries ?? []).filter((e) => e.type === 'registry' || !removedStale.has(e.path));
    const record: InstallRecord = {
      version: 1,
      scope: options.scope,
      tetherVersion: options.tetherVersion,
      updatedAt: new Date().toISOString(),
      nodePath: sys.execPath,
      hostScript,
      allowedExtensionIds: {
        chrome: ids.chrome.filter((id) => !isDevExtensionId(id)),
        firefox: ids.firefox.filter((id) => !isDevExtensionId(id)),
      },
      entries: mergeEntries(sys, survivors, written).map((e) =>
        e.type === 'host' && e.path === hostScript && handedOn.length > 0
          ? { ...e, createdDirs: [...new Set([...handedOn, ...e.createdDirs])] }
          : e,
      ),
    };
    await sys.fs.mkdirp(tether.root);
    const before = await sys.fs.readFile(tether.record);
    await sys.fs.writeFile(tether.record, serializeRecord(record), 0o644);
    out(
      `  ${(before ? 'updated' : 'created').padEnd(12)} ${tether.record} (install record: what \`tether uninstall\` removes)`,
    );
  }
  if (failure) throw failure;

  const keptChrome = kept.chrome.filter((id) => !requested.chrome.includes(id));
  const keptFirefox = kept.firefox.filter((id) => !requested.firefox.includes(id));
  out(
    `Allowed extensions: ${ids.chrome.map(chromeOrigin).join(' ') || 'none'} (Chrome family); ${ids.firefox.join(' ') || 'none'} (Firefox)`,
  );
  if (options.dev) {
    out(
      'Development extension allowed: yes (--dev). Its key is public (manifests/dev-key.json): any extension loaded with it ' +
        'can use the host and ask for command approvals. For everyday use, install your own build with --extension-id instead.',
    );
  }
  if (keptChrome.length + keptFirefox.length > 0) {
    out(
      `  kept from the previous install: ${[...keptChrome, ...keptFirefox].join(' ')} (\`tether uninstall\` then install again to drop them)`,
    );
  }
  noteConfigIds(config, out);
  for (const sandboxed of await detectSandboxed(sys)) out(`Note: ${explainSandboxed(sandboxed)}`);
  out(
    options.dryRun
      ? 'Dry run: nothing was written.'
      : `Done. Reload the extension, then check everything with \`${options.command ?? 'tether'} doctor\`.`,
  );
  return actions;
}

/** An invalid config hides its ids from install (the launcher's own ids still let the extensions in). */
function noteConfigIds(config: HostConfig | ConfigError, out: (line: string) => void): void {
  if (config instanceof ConfigError) {
    out(
      `Note: the config file ${config.file} is invalid, so its "allowedExtensionIds" were not read; run \`tether doctor\` for details.`,
    );
  }
}
