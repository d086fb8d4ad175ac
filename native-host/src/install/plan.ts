/** The steps `tether install` plans before it writes anything, and the error it throws when it cannot go on. */
import type { FileEntry, RegistryEntry } from './record';
import { sha256 } from './record';
import type { System } from './system';

/** A step of the plan and whether it changes anything. */
export type Action =
  | {
      readonly kind: 'file';
      readonly entry: FileEntry;
      readonly content: Uint8Array;
      readonly mode: number;
      readonly status: Status;
    }
  | { readonly kind: 'registry'; readonly entry: RegistryEntry; readonly status: Status };
/** `create`: nothing there; `update`: different content there; `unchanged`: already as planned. */
export type Status = 'create' | 'update' | 'unchanged';

/** Install could not do what was asked; the message says why and what to do. */
export class InstallError extends Error {
  override name = 'InstallError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether writing `content` with `mode` at `path` creates, updates or leaves the file as it is. */
export async function fileStatus(sys: System, path: string, content: Uint8Array, mode: number): Promise<Status> {
  const existing = await sys.fs.readFile(path);
  if (existing === undefined) return 'create';
  if (sha256(existing) !== sha256(content)) return 'update';
  const info = await sys.fs.stat(path);
  return sys.platform !== 'win32' && info && (info.mode & 0o777) !== mode ? 'update' : 'unchanged';
}
