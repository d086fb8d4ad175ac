/**
 * `tether uninstall`: removes what the install record lists (for the chosen browsers), and nothing else. A file that
 * changed since install, or a registry key that now points elsewhere, is left in place and reported.
 */
import type { BrowserId } from './browsers';
import { browserById } from './browsers';
import { tetherPaths, type Scope } from './locations';
import type { FileEntry, InstallRecord, RecordEntry } from './record';
import { readRecord, serializeRecord, sha256 } from './record';
import { formatRegCommand, readRegistryValue, regDeleteArgs } from './registry';
import type { System } from './system';
import { pathFor } from './system';
import { errorMessage } from '@tether/protocol/errors';

/** What to uninstall. */
export interface UninstallOptions {
  /** Only these browsers; undefined means everything recorded (including `--user-data-dir` installs). */
  readonly browsers?: readonly BrowserId[];
  readonly scope: Scope;
  /** Only the manifest written for this user data dir. */
  readonly userDataDir?: string;
  readonly dryRun: boolean;
  readonly out: (line: string) => void;
}

/** Uninstall could not finish; the message says what is left and what to do. */
export class UninstallError extends Error {
  override name = 'UninstallError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

function names(browsers: readonly BrowserId[]): string {
  return browsers.map((id) => browserById(id).name).join(', ');
}

/** Which browsers of an entry this uninstall drops (empty: the entry is not concerned). */
function dropped(sys: System, entry: RecordEntry, options: UninstallOptions): BrowserId[] {
  if (entry.type === 'launcher' || entry.type === 'host') return [];
  const udd = entry.type === 'manifest' ? entry.userDataDir : undefined;
  if (options.userDataDir !== undefined) {
    const wanted = pathFor(sys.platform).resolve(sys.cwd, options.userDataDir);
    if (udd !== wanted) return [];
  } else if (udd !== undefined && options.browsers) {
    // A throwaway profile's manifest goes only with an explicit --user-data-dir or a full uninstall.
    return [];
  }
  return options.browsers ? entry.browsers.filter((b) => options.browsers!.includes(b)) : [...entry.browsers];
}

/** Runs `tether uninstall`; resolves with the paths and keys it removed (or would remove, with `dryRun`). */
export async function uninstall(sys: System, options: UninstallOptions): Promise<string[]> {
  const { out } = options;
  const path = pathFor(sys.platform);
  const tether = tetherPaths(sys, options.scope);
  const record = await readRecord(sys, options.scope);
  out(`Tether uninstall (${options.scope} scope${options.dryRun ? ', dry run: nothing is removed' : ''})`);
  if (!record) {
    out(`  Nothing to remove: no install record at ${tether.record}.`);
    if (options.scope === 'user') out('  (A machine-wide install is undone with `tether uninstall --scope system`.)');
    return [];
  }
  const verb = (word: string) => (options.dryRun ? `would ${word.replace(/d$/, '')}` : word).padEnd(15);
  const removed: string[] = [];
  const remaining: RecordEntry[] = [];
  const orphanDirs: string[] = [];

  async function removeFile(entry: FileEntry, what: string): Promise<void> {
    const current = await sys.fs.readFile(entry.path);
    if (current === undefined) {
      out(`  ${'already gone'.padEnd(15)} ${entry.path} (${what})`);
    } else if (sha256(current) !== entry.sha256) {
      out(
        `  ${'left in place'.padEnd(15)} ${entry.path} (${what}: changed since install; delete it yourself if unwanted)`,
      );
      return;
    } else {
      if (!options.dryRun) {
        try {
          await sys.fs.removeFile(entry.path);
        } catch (error) {
          const hint =
            options.scope === 'system'
              ? 'System scope needs root or an administrator prompt.'
              : 'Check the permissions of its folder.';
          throw new UninstallError(
            `Could not remove ${entry.path}: ${errorMessage(error)}. ${hint} Nothing after it was removed.`,
            {
              cause: error,
            },
          );
        }
      }
      out(`  ${verb('removed')} ${entry.path} (${what})`);
      removed.push(entry.path);
    }
    orphanDirs.push(...entry.createdDirs);
  }

  for (const entry of record.entries) {
    const drop = dropped(sys, entry, options);
    if (drop.length === 0) {
      remaining.push(entry);
      continue;
    }
    const left = entry.browsers.filter((b) => !drop.includes(b));
    const label = entry.type === 'registry' ? entry.key : entry.path;
    if (left.length > 0) {
      out(`  ${'kept'.padEnd(15)} ${label} (still used by ${names(left)})`);
      remaining.push({ ...entry, browsers: left });
      continue;
    }
    if (entry.type === 'registry') {
      const current = await readRegistryValue(sys, entry.key);
      if (current === undefined) out(`  ${'already gone'.padEnd(15)} ${entry.key}`);
      else if (current.toLowerCase() !== entry.value.toLowerCase()) {
        out(`  ${'left in place'.padEnd(15)} ${entry.key} (now points to ${current}, not to Tether's manifest)`);
      } else {
        const args = regDeleteArgs(entry.key);
        if (!options.dryRun) {
          const result = await sys.reg(args);
          if (result.code !== 0) {
            throw new UninstallError(
              `${formatRegCommand(args)} failed: ${(result.stderr || result.error?.message || '').trim()}. ` +
                (options.scope === 'system' ? 'Run it from an administrator prompt.' : 'Run the command by hand.'),
              { cause: result.error },
            );
          }
        }
        out(`  ${verb('removed')} ${entry.key} (registry key for ${names(entry.browsers)}; ${formatRegCommand(args)})`);
        removed.push(entry.key);
      }
      continue;
    }
    await removeFile(entry, `manifest for ${names(entry.browsers)}`);
  }

  // Launchers and the copied host serve every manifest: they go with the last one.
  const everythingGone = remaining.every((e) => e.type === 'launcher' || e.type === 'host');
  if (everythingGone) {
    for (const entry of remaining) if (entry.type === 'launcher') await removeFile(entry, 'launcher');
    for (const entry of remaining) if (entry.type === 'host') await removeFile(entry, 'host copied by install');
    if (!options.dryRun) await sys.fs.removeFile(tether.record);
    out(`  ${verb('removed')} ${tether.record} (install record)`);
    removed.push(tether.record);
  } else {
    const launcher = remaining.find((e): e is FileEntry => e.type === 'launcher');
    // Directories we could not remove yet (still holding other manifests) go with the launcher, removed last.
    const entries = remaining.map((e) =>
      e === launcher ? { ...launcher, createdDirs: [...launcher.createdDirs, ...orphanDirs] } : e,
    );
    const updated: InstallRecord = { ...record, updatedAt: new Date().toISOString(), entries };
    if (!options.dryRun) await sys.fs.writeFile(tether.record, serializeRecord(updated), 0o644);
    out(
      `  ${verb('updated')} ${tether.record} (install record: ${remaining.length - (launcher ? 1 : 0)} item(s) still installed)`,
    );
  }
  if (!options.dryRun) {
    // Deepest first, and only when empty: a folder that now holds anything else is not ours alone.
    const dirs = [...new Set(orphanDirs)].sort((a, b) => b.length - a.length);
    for (const dir of dirs) {
      if (await sys.fs.removeEmptyDir(dir))
        out(`  ${'removed'.padEnd(15)} ${dir}${path.sep} (empty folder created by install)`);
    }
  }
  out(options.dryRun ? 'Dry run: nothing was removed.' : 'Done.');
  return removed;
}
