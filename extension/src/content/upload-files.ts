/**
 * Checks on files the worker hands the page for an upload, made before any is decoded: pure, so they are tested
 * without a page.
 */
import type { AgentFile } from '../shared/agent-contract';
import { UPLOAD_MAX_BYTES } from '../shared/upload-limits';
import { ActionError } from './action-error';

/** Decoded size of a base64 string, without decoding it. */
export function base64Size(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Checks files before any is decoded: at least one, names without folders, valid base64, all together at most
 * `max` bytes. Throws an ActionError saying which file and what to do.
 */
export function checkFiles(files: readonly AgentFile[], max = UPLOAD_MAX_BYTES): void {
  if (files.length === 0) throw new ActionError('No files were given to upload.');
  let total = 0;
  for (const file of files) {
    if (!file.name || /[/\\]/.test(file.name)) {
      throw new ActionError(`File name ${JSON.stringify(file.name)} must be a plain name without folders.`);
    }
    if (!BASE64.test(file.base64)) {
      throw new ActionError(`The bytes of ${JSON.stringify(file.name)} are not valid base64.`);
    }
    total += base64Size(file.base64);
  }
  if (total > max) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    throw new ActionError(`The files add up to ${mb(total)}; the page agent takes at most ${mb(max)} per upload.`);
  }
}

/** Whether a file of `type` named `name` matches an `accept` list (`.pdf`, `image/*`, `text/plain`). */
export function accepts(accept: string, name: string, type: string): boolean {
  const wanted = accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  if (wanted.length === 0) return true;
  const lower = name.toLowerCase();
  const mime = type.toLowerCase();
  return wanted.some((a) =>
    a.startsWith('.') ? lower.endsWith(a) : a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : mime === a,
  );
}
