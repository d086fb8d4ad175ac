/**
 * What the daemon chaos soak (daemon-chaos.ts) checks once the chaos stops: each acknowledged item once in its
 * journal and in what a reconnecting client reads, streamed answers without gap or duplicate, each command run at
 * most once, every turn that did not finish marked so, no process left behind, and the daemon's memory.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { HostProcess, Msg } from '../host/host-process';

/** One journal record, as far as the checks read it. */
export interface JournalRecord {
  type: string;
  turn?: { id: string; status: string };
  item?: { id: string; type: string; status?: string; turnId?: string; content?: any };
}

/** The records of a journal file (a torn last line is skipped, as the store does). */
export function readJournal(file: string): JournalRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as JournalRecord];
      } catch {
        return [];
      }
    });
}

/** The answer `/stream N` writes, cut at `count` numbers: "1 2 3 ". */
export function streamText(count: number): string {
  let text = '';
  for (let i = 1; i <= count; i++) text += `${i} `;
  return text;
}

/** Whether `text` is the start of a `/stream` answer: consecutive numbers from 1, none missing, none repeated. */
export function isStreamPrefix(text: string): boolean {
  const words = text.split(' ');
  const last = words.pop();
  for (let i = 0; i < words.length; i++) if (words[i] !== String(i + 1)) return false;
  // A cut inside a number ("12 1") is a torn delta, never a whole one: the last word must be empty.
  return last === '';
}

/** Every item of a thread a client reads: `thread/read`'s page, then older pages; and the unfinished turns named. */
export async function readAllItems(
  h: HostProcess,
  threadId: string,
): Promise<{ items: Array<{ id: string; type: string; turnId?: string; content?: any }>; unfinished: Set<string> }> {
  const first = await h.request('thread/read', { threadId }, 30_000);
  if (first.error) throw new Error(`thread/read ${threadId}: ${first.error.message}`);
  const items = [...first.result.items];
  const unfinished = new Set<string>((first.result.unfinishedTurns ?? []).map((t: { id: string }) => t.id));
  let cursor: string | undefined = first.result.olderCursor ?? undefined;
  while (cursor) {
    const page: Msg = await h.request('thread/history/read', { threadId, cursor }, 30_000);
    if (page.error) throw new Error(`thread/history/read ${threadId}: ${page.error.message}`);
    items.unshift(...page.result.items);
    for (const t of page.result.unfinishedTurns ?? []) unfinished.add(t.id);
    cursor = page.result.olderCursor ?? undefined;
  }
  return { items, unfinished };
}

/** Ids that occur more than once in `ids`. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/**
 * Checks one thread after the chaos: `acked` (item id -> item, what clients saw completed) against its journal and
 * against `read` (what a reconnecting client reads). Returns the problems found, in words.
 */
export function checkThread(
  threadId: string,
  journal: JournalRecord[],
  read: { items: Array<{ id: string; type: string; turnId?: string; content?: any }>; unfinished: Set<string> },
  acked: ReadonlyMap<string, unknown>,
): string[] {
  const problems: string[] = [];
  const journalItems = journal.flatMap((r) => (r.type === 'item' && r.item ? [r.item] : []));
  const twiceInJournal = duplicates(journalItems.map((i) => i.id));
  if (twiceInJournal.length > 0) problems.push(`${threadId}: items twice in the journal: ${twiceInJournal.join(', ')}`);
  const twiceRead = duplicates(read.items.map((i) => i.id));
  if (twiceRead.length > 0) problems.push(`${threadId}: items twice in thread/read: ${twiceRead.join(', ')}`);
  const inJournal = new Set(journalItems.map((i) => i.id));
  const inRead = new Set(read.items.map((i) => i.id));
  for (const id of acked.keys()) {
    if (!inJournal.has(id)) problems.push(`${threadId}: acknowledged item ${id} missing from the journal`);
    if (!inRead.has(id)) problems.push(`${threadId}: acknowledged item ${id} missing from thread/read`);
  }
  for (const item of [...journalItems, ...read.items]) {
    const text = item.type === 'agentMessage' ? item.content?.text : undefined;
    if (typeof text === 'string' && /^1 /.test(text) && !isStreamPrefix(text))
      problems.push(`${threadId}: streamed answer ${item.id} has a gap or a duplicate: ${text.slice(0, 80)}...`);
  }
  // A turn that did not finish says so wherever it is shown: its items' turn is among the unfinished ones.
  const lastStatus = new Map<string, string>();
  for (const r of journal) if (r.type === 'turn' && r.turn) lastStatus.set(r.turn.id, r.turn.status);
  const turnsRead = new Set(read.items.flatMap((i) => (i.turnId ? [i.turnId] : [])));
  for (const [turnId, status] of lastStatus) {
    if (status === 'completed' || !turnsRead.has(turnId)) continue;
    if (!read.unfinished.has(turnId))
      problems.push(`${threadId}: turn ${turnId} (journal: ${status}) is read back without an unfinished mark`);
  }
  return problems;
}

/** Checks the marker files of the commands: each written at most once; `ran` ones exactly once, `declined` none. */
export function checkMarkers(
  markerDir: string,
  outcomes: ReadonlyMap<string, 'ran' | 'declined'>,
): { problems: string[]; ran: number } {
  const problems: string[] = [];
  let ran = 0;
  const files = existsSync(markerDir) ? readdirSync(markerDir) : [];
  for (const name of files) {
    const lines = readFileSync(`${markerDir}/${name}`, 'utf8').split('\n').filter(Boolean).length;
    if (lines > 1) problems.push(`command ${name} ran ${lines} times`);
    if (lines >= 1) ran++;
  }
  for (const [name, outcome] of outcomes) {
    const lines = files.includes(name)
      ? readFileSync(`${markerDir}/${name}`, 'utf8').split('\n').filter(Boolean).length
      : 0;
    if (outcome === 'ran' && lines !== 1) problems.push(`command ${name} reported as run but ran ${lines} times`);
    if (outcome === 'declined' && lines !== 0) problems.push(`command ${name} declined but ran ${lines} times`);
  }
  return { problems, ran };
}

/** Live processes (zombies excluded) whose environment carries `marker` ("NAME=value"), as "pid command" lines. */
export function processesMarked(marker: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue;
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker)) continue;
      found.push(`${name} ${readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').join(' ').trim()}`);
    } catch {
      // Gone between readdir and read, or not ours to read.
    }
  }
  return found;
}

/** Polls until no process carries `marker`; resolves with those still alive after `deadlineMs` (empty: none). */
export async function orphansAfter(marker: string, deadlineMs = 15_000): Promise<string[]> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const alive = processesMarked(marker);
    if (alive.length === 0 || Date.now() > end) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resident set of `pid` in MB (Linux), or undefined. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** The daemon's memory over the soak: the longest-lived daemon's samples, median of its first and last thirds. */
export interface RssTrend {
  readonly pid: number | undefined;
  readonly samples: number;
  readonly firstThirdMb: number;
  readonly lastThirdMb: number;
}

/** The trend of the daemon that was sampled most often (restarts start a new daemon, with fresh memory). */
export function rssTrend(samples: ReadonlyArray<{ pid: number; mb: number }>): RssTrend {
  const byPid = new Map<number, number[]>();
  for (const s of samples) byPid.set(s.pid, [...(byPid.get(s.pid) ?? []), s.mb]);
  const [pid, mbs] = [...byPid].sort((a, b) => b[1].length - a[1].length)[0] ?? [undefined, []];
  const third = Math.max(1, Math.floor(mbs.length / 3));
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  return { pid, samples: mbs.length, firstThirdMb: med(mbs.slice(0, third)), lastThirdMb: med(mbs.slice(-third)) };
}
