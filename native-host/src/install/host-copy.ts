/**
 * The host a launcher runs: a copy of the bundle (dist/tether.mjs and its chunks) in Tether's own folder, one folder
 * per version. A user's launcher then survives deleting or moving what it was installed from (an npx cache, a
 * checkout); a system-scope copy sits in a machine-wide folder only root or administrators can write, so no user's
 * checkout decides what every user's browser runs. Only `--dev` runs the checkout's bundle in place.
 */
import { hostDir, type Scope } from './locations';
import { type Action, fileStatus, InstallError } from './plan';
import type { FileEntry, InstallRecord } from './record';
import { sha256 } from './record';
import type { System } from './system';
import { fromUtf8, pathFor } from './system';

/** What install copies, and the script its launcher runs. */
export interface HostCopy {
  /** The copied `tether.mjs`, for the launcher. */
  readonly hostScript: string;
  readonly actions: Action[];
}

/** A chunk as the build's list names it; anything else makes the list untrusted. */
const CHUNK_PATH = /^chunks\/[\w.-]+\.mjs$/;

const SAFE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

/**
 * Checks that the copy can be made (the bundle is built; system scope: root or an elevated prompt unless `dryRun`)
 * and plans the copy of `bundle` (dist/tether.mjs) and `dist/chunks/*.mjs` into the scope's versioned host folder.
 */
export async function planHostCopy(
  sys: System,
  bundle: string,
  version: string,
  scope: Scope,
  dryRun: boolean,
): Promise<HostCopy> {
  const path = pathFor(sys.platform);
  if ((await sys.fs.stat(bundle))?.kind !== 'file') {
    throw new InstallError(
      scope === 'system'
        ? `The bundled host ${bundle} is missing. Run \`npm run build\` as yourself first, then the system install again: ` +
            'a system install copies the bundle and never builds it as root, which would leave root-owned files in your checkout.'
        : `The bundled host ${bundle} is missing: run \`npm run build\` in the checkout, or install from the package (\`npx tether-bridge install\`).`,
    );
  }
  if (scope === 'system' && !dryRun && !(await sys.isElevated())) {
    throw new InstallError(
      sys.platform === 'win32'
        ? 'System scope installs for every user of this machine: run it from an administrator prompt, or use --scope user.'
        : 'System scope installs for every user of this machine: run it as root (e.g. `sudo "$(command -v node)" ' +
            `${bundle} install --scope system\`), or use --scope user.`,
    );
  }
  if (!SAFE_VERSION.test(version))
    throw new InstallError(`Tether's version "${version}" cannot name a folder; rebuild the host from a release.`);
  const source = path.dirname(bundle);
  const target = hostDir(sys, scope, version);
  const names = [path.basename(bundle), ...(await bundleChunks(sys, source))];
  const actions: Action[] = [];
  // Chunks first, the entry last: a host started while the copy is under way finds every chunk its entry names.
  for (const name of [...names.slice(1), names[0]!]) {
    const content = await sys.fs.readFile(path.join(source, name));
    if (content === undefined) {
      throw new InstallError(
        `${path.join(source, name)} vanished while it was being read: is a build running? Retry once it is done.`,
      );
    }
    const file = path.join(target, name);
    const entry = { type: 'host' as const, path: file, sha256: sha256(content), browsers: [], createdDirs: [] };
    actions.push({ kind: 'file', entry, content, mode: 0o644, status: await fileStatus(sys, file, content, 0o644) });
  }
  return { hostScript: path.join(target, path.basename(bundle)), actions };
}

/**
 * The chunks of the bundle in `dist`, relative to it: the build's own list (scripts/build.mjs writes
 * tether.files.json), as dist/chunks also keeps chunks of earlier builds for hosts still running; every chunk when the
 * list is missing or unreadable.
 */
async function bundleChunks(sys: System, dist: string): Promise<string[]> {
  const path = pathFor(sys.platform);
  const list = await sys.fs.readFile(path.join(dist, 'tether.files.json'));
  if (list !== undefined) {
    let files: unknown;
    try {
      files = JSON.parse(fromUtf8(list));
    } catch {
      // An unreadable list (a build writing it right now) falls back to copying every chunk.
    }
    const chunk = (f: unknown): f is string => typeof f === 'string' && CHUNK_PATH.test(f);
    if (Array.isArray(files)) {
      const chunks = files.filter((f) => f !== 'tether.mjs');
      if (chunks.every(chunk)) return chunks.map((f) => path.join(...f.split('/')));
    }
  }
  const chunks = ((await sys.fs.listDir(path.join(dist, 'chunks'))) ?? []).filter((n) => n.endsWith('.mjs'));
  return chunks.map((n) => path.join('chunks', n));
}

/**
 * Host files of earlier installs that can go: every copied file outside the folder now installed and the one the
 * previous install ran (a host started before this install may still be loading its chunks from there).
 */
export function staleHostFiles(sys: System, previous: InstallRecord | undefined, hostScript: string): FileEntry[] {
  if (!previous) return [];
  const path = pathFor(sys.platform);
  const keep = new Set([path.dirname(hostScript), path.dirname(previous.hostScript)]);
  const folderOf = (file: string) => {
    const dir = path.dirname(file);
    return path.basename(dir) === 'chunks' ? path.dirname(dir) : dir;
  };
  return previous.entries.filter((e): e is FileEntry => e.type === 'host' && !keep.has(folderOf(e.path)));
}
