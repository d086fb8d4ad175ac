/**
 * The running hosts of this user, as their `host-PID.json` files in the runtime folder announce them (and the
 * daemon's browser connections theirs, `host-PID-N.json`). A host or daemon killed without its shutdown leaves its
 * files behind: an entry whose socket no longer answers is stale, and is removed by
 * whoever finds it (the next host to start, or `tether mcp`); one whose socket answers is never touched.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ANNOUNCEMENT_FILE } from './runtime-dir';

/** What a host publishes about itself in `host-PID.json`. */
export interface HostAnnouncement {
  readonly pid: number;
  /** The daemon's id of the browser connection this hub serves; absent for a host serving its browser in-process. */
  readonly connection?: number;
  /** The browser that started it, as `tether mcp --browser` names it. */
  readonly browser: string;
  readonly startedAtMs: number;
  readonly socket: string;
  /** The 0600 file holding the token for external clients. */
  readonly tokenFile?: string;
}

/** An announced host and the file that announced it. */
export type AnnouncedHost = HostAnnouncement & { readonly infoFile: string };

/** True when something answers at `path` (a live host), false when connecting fails (a stale socket, or none). */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Reads an announcement; undefined when the file is missing or is not one. */
export function readAnnouncement(file: string): HostAnnouncement | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v: Partial<Record<keyof HostAnnouncement, unknown>> = value;
  if (typeof v.socket !== 'string' || typeof v.browser !== 'string' || typeof v.pid !== 'number') return undefined;
  return {
    socket: v.socket,
    browser: v.browser,
    pid: v.pid,
    startedAtMs: typeof v.startedAtMs === 'number' ? v.startedAtMs : 0,
    ...(typeof v.tokenFile === 'string' ? { tokenFile: v.tokenFile } : {}),
    ...(typeof v.connection === 'number' ? { connection: v.connection } : {}),
  };
}

/**
 * The hosts in `dir` whose sockets answer, most recently started first; the files of the others are removed.
 * `except` (an announcement file) is skipped: the caller's own.
 */
export async function liveHosts(dir: string, except?: string): Promise<AnnouncedHost[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => ANNOUNCEMENT_FILE.test(name));
  } catch {
    return [];
  }
  const live: AnnouncedHost[] = [];
  for (const name of names) {
    const infoFile = join(dir, name);
    if (infoFile === except) continue;
    const info = readAnnouncement(infoFile);
    if (info && (await socketAnswers(info.socket))) live.push({ ...info, infoFile });
    else for (const file of [infoFile, info?.socket, info?.tokenFile]) if (file) removeQuietly(file);
  }
  return live.sort((a, b) => b.startedAtMs - a.startedAtMs);
}

/** Removes `file` if it exists. */
export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {}
}
