/**
 * The install record: a JSON file beside the launcher listing every file, directory and registry key `tether install`
 * created, so `tether uninstall` removes exactly those and nothing else. It also lists the extension ids the install
 * allowed, so a later install keeps the ones added with --extension-id.
 */
import { createHash } from 'node:crypto';
import type { BrowserId } from './browsers';
import { isBrowserId } from './browsers';
import { tetherPaths, type Scope } from './locations';
import type { System } from './system';
import { fromUtf8, utf8 } from './system';
import { errorMessage } from '@tether/protocol/errors';

/** A file install wrote: a launcher, a manifest, or (system scope) a file of the host copied into the system folder. */
export interface FileEntry {
  readonly type: 'launcher' | 'manifest' | 'host';
  readonly path: string;
  /** sha256 (hex) of what install wrote; uninstall leaves a file that changed since. */
  readonly sha256: string;
  /** Browsers served (manifests; empty for the launcher). */
  readonly browsers: BrowserId[];
  readonly userDataDir?: string;
  /** Directories install created for this file, outermost first; removed on uninstall when empty. */
  readonly createdDirs: string[];
}

/** A Windows registry key install created; its default value is the manifest path. */
export interface RegistryEntry {
  readonly type: 'registry';
  readonly key: string;
  readonly value: string;
  readonly browsers: BrowserId[];
}

/** One thing install created. */
export type RecordEntry = FileEntry | RegistryEntry;

/** The whole record file. */
export interface InstallRecord {
  readonly version: 1;
  readonly scope: Scope;
  readonly tetherVersion: string;
  readonly updatedAt: string;
  readonly nodePath: string;
  readonly hostScript: string;
  /** Extension ids allowed by the manifests install wrote, kept for later installs (never the development ids). */
  readonly allowedExtensionIds: { readonly chrome: string[]; readonly firefox: string[] };
  readonly entries: RecordEntry[];
}

/** The record cannot be read: uninstall refuses to guess what to delete. */
export class InstallRecordError extends Error {
  override name = 'InstallRecordError';
  constructor(
    readonly file: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The install record ${file} is unreadable (${detail}), so \`tether uninstall\` cannot tell what install wrote. ` +
        'Remove the files it lists by hand, or delete it and run `tether install` again to rewrite it.',
      options,
    );
  }
}

/** sha256 of bytes, hex. */
export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function parseEntry(raw: unknown): RecordEntry | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as Record<string, unknown>;
  const browsers = strings(e.browsers).filter(isBrowserId);
  if (e.type === 'registry' && typeof e.key === 'string' && typeof e.value === 'string') {
    return { type: 'registry', key: e.key, value: e.value, browsers };
  }
  if (
    (e.type === 'launcher' || e.type === 'manifest' || e.type === 'host') &&
    typeof e.path === 'string' &&
    typeof e.sha256 === 'string'
  ) {
    const base: FileEntry = {
      type: e.type,
      path: e.path,
      sha256: e.sha256,
      browsers,
      createdDirs: strings(e.createdDirs),
    };
    return typeof e.userDataDir === 'string' ? { ...base, userDataDir: e.userDataDir } : base;
  }
  return undefined;
}

/** Parses record text; throws InstallRecordError on anything unexpected. */
export function parseRecord(file: string, text: string): InstallRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InstallRecordError(file, `not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
  if (typeof raw !== 'object' || raw === null) throw new InstallRecordError(file, 'not a JSON object');
  const r = raw as Record<string, unknown>;
  if (r.version !== 1) throw new InstallRecordError(file, `unknown version ${JSON.stringify(r.version)}`);
  if (!Array.isArray(r.entries)) throw new InstallRecordError(file, '"entries" is not a list');
  const entries = r.entries.map(parseEntry);
  if (entries.some((e) => e === undefined)) throw new InstallRecordError(file, 'an entry is malformed');
  const ids = (r.allowedExtensionIds ?? {}) as Record<string, unknown>;
  return {
    version: 1,
    scope: r.scope === 'system' ? 'system' : 'user',
    tetherVersion: typeof r.tetherVersion === 'string' ? r.tetherVersion : '',
    updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : '',
    nodePath: typeof r.nodePath === 'string' ? r.nodePath : '',
    hostScript: typeof r.hostScript === 'string' ? r.hostScript : '',
    allowedExtensionIds: { chrome: strings(ids.chrome), firefox: strings(ids.firefox) },
    entries: entries as RecordEntry[],
  };
}

/** Reads the record for a scope; undefined when there is none. Throws InstallRecordError when it is corrupt. */
export async function readRecord(sys: System, scope: Scope): Promise<InstallRecord | undefined> {
  const file = tetherPaths(sys, scope).record;
  const bytes = await sys.fs.readFile(file);
  return bytes === undefined ? undefined : parseRecord(file, fromUtf8(bytes));
}

/** The record's bytes as written (stable key order, two-space indent). */
export function serializeRecord(record: InstallRecord): Uint8Array {
  return utf8(`${JSON.stringify(record, null, 2)}\n`);
}
