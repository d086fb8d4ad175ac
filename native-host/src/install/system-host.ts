/**
 * The host a system-scope install runs: a copy of the bundle (dist/tether.mjs and its chunks) in a machine-wide
 * folder only root or administrators can write. Pointing every user's launcher at a checkout would hand every
 * user's browser host to whoever can write that checkout.
 */
import { systemHostDir } from './locations';
import { type Action, fileStatus, InstallError } from './plan';
import { sha256 } from './record';
import type { System } from './system';
import { pathFor } from './system';

/** What a system-scope install copies, and the script its launcher runs. */
export interface HostCopy {
  /** The copied `tether.mjs`, for the launcher. */
  readonly hostScript: string;
  readonly actions: Action[];
}

const SAFE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;

/**
 * Checks that a system-scope install can run (the bundle is built; root or an elevated prompt unless `dryRun`) and
 * plans the copy of `bundle` (dist/tether.mjs) and `dist/chunks/*.mjs` into the versioned system folder.
 */
export async function planHostCopy(sys: System, bundle: string, version: string, dryRun: boolean): Promise<HostCopy> {
  const path = pathFor(sys.platform);
  if ((await sys.fs.stat(bundle))?.kind !== 'file') {
    throw new InstallError(
      `The bundled host ${bundle} is missing. Run \`npm run build\` as yourself first, then the system install again: ` +
        'a system install copies the bundle and never builds it as root, which would leave root-owned files in your checkout.',
    );
  }
  if (!dryRun && !(await sys.isElevated())) {
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
  const target = systemHostDir(sys, version);
  const chunks = ((await sys.fs.listDir(path.join(source, 'chunks'))) ?? []).filter((n) => n.endsWith('.mjs'));
  const names = [path.basename(bundle), ...chunks.map((n) => path.join('chunks', n))];
  const actions: Action[] = [];
  for (const name of names) {
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
