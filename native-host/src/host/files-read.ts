/**
 * `bridge/files/read`: files on this computer for a page upload the user approved in the browser. Only absolute
 * paths of regular files: each is opened without blocking (a FIFO would otherwise hang the host) and checked on the
 * open descriptor, so a symlink or a swap after the check cannot lead into a device, a pipe or a directory. Errors
 * say which path and what to do.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { BridgeFileInfo, BridgeFilesReadParams, BridgeFilesReadResult } from '@tether/protocol';
import { ErrorCode, RpcError } from '@tether/protocol/errors';

/** Most bytes one read returns (all files), mirrored from the protocol's FILES_READ_MAX_BYTES. */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

const TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  html: 'text/html',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** A file's MIME type from its extension, as a browser's file picker would give it. */
export function mimeTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return (Object.hasOwn(TYPES, ext) ? TYPES[ext] : undefined) ?? 'application/octet-stream';
}

function refuse(message: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message);
}

function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

/** Describes (and with `bytes`, reads) the files; rejects with an RpcError naming the first path that cannot be used. */
export async function readFiles(
  params: BridgeFilesReadParams,
  maxBytes = MAX_READ_BYTES,
): Promise<BridgeFilesReadResult> {
  const files: BridgeFileInfo[] = [];
  let total = 0;
  for (const path of params.paths) {
    if (!isAbsolute(path)) throw refuse(`"${path}" is not an absolute path; give the full path of the file.`);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
      if (code === 'ENOENT') throw refuse(`There is no file at ${path}; check the path.`);
      if (code === 'EACCES' || code === 'EPERM') throw refuse(`You may not read ${path} (permission denied).`);
      throw refuse(`${path} could not be opened (${code ?? String(error)}).`);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw refuse(`${path} is ${kindOf(stat)}, not a file; only regular files can be uploaded.`);
      total += stat.size;
      if (params.bytes === true && total > maxBytes)
        throw refuse(
          `The files come to more than ${Math.round(maxBytes / 1024 / 1024)} MiB, more than an upload without trusted input can carry; upload fewer or smaller files.`,
        );
      const name = basename(path);
      const info: BridgeFileInfo = { path, name, type: mimeTypeOf(name), size: stat.size };
      if (params.bytes === true) info.base64 = (await handle.readFile()).toString('base64');
      files.push(info);
    } finally {
      await handle.close();
    }
  }
  return { files };
}
