/** `thread/list`: newest first (by last activity), keyset cursor pagination, archived filter, search. */
import { ErrorCode, RpcError, type Thread, type ThreadListParams, type ThreadListResult } from '@tether/protocol';

/** Longest preview line a thread keeps. */
const PREVIEW_CHARS = 120;

/** Title of a thread started without one, until its first message names it. */
export const DEFAULT_TITLE = 'New thread';

/** A new thread's title from its first message: the first line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return DEFAULT_TITLE;
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** A thread's preview from a message: its first non-blank line, cut to PREVIEW_CHARS; undefined for blank text. */
export function previewLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return undefined;
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

/** Page size when the client gives no limit. */
export const DEFAULT_LIST_LIMIT = 50;

/** One page of `threads`, most recently updated first; the cursor names the last thread of the page. */
export function listThreads(threads: Iterable<Thread>, params: ThreadListParams): ThreadListResult {
  const archived = params.archived ?? false;
  const limit = params.limit ?? DEFAULT_LIST_LIMIT;
  const after = params.cursor ? decodeCursor(params.cursor) : undefined;
  const search = params.search?.trim().toLocaleLowerCase() ?? '';
  const matching: Thread[] = [];
  for (const t of threads) {
    if (t.archived !== archived || t.ephemeral) continue;
    if (search && !matchesSearch(t, search)) continue;
    if (after && !isAfter(t, after)) continue;
    matching.push(t);
  }
  matching.sort(compareNewestFirst);
  const page = matching.slice(0, limit);
  const last = page[page.length - 1];
  return matching.length > limit && last
    ? { threads: page, nextCursor: encodeCursor({ updatedAtMs: last.updatedAtMs, id: last.id }) }
    : { threads: page };
}

/** True when the thread's title or preview contains `search` (already lower case), ignoring case. */
function matchesSearch(t: Thread, search: string): boolean {
  return t.title.toLocaleLowerCase().includes(search) || (t.preview?.toLocaleLowerCase().includes(search) ?? false);
}

interface CursorKey {
  updatedAtMs: number;
  id: string;
}

function compareNewestFirst(a: CursorKey, b: CursorKey): number {
  return b.updatedAtMs - a.updatedAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function isAfter(t: CursorKey, cursor: CursorKey): boolean {
  return compareNewestFirst(cursor, t) < 0;
}

function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.updatedAtMs, key.id])).toString('base64url');
}

function decodeCursor(cursor: string): CursorKey {
  try {
    const [updatedAtMs, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof updatedAtMs === 'number' && typeof id === 'string') return { updatedAtMs, id };
  } catch {
    // Reported below.
  }
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for thread/list: cursor ${JSON.stringify(cursor)} is not one this server gave out`,
    {
      cursor,
    },
  );
}
