/**
 * How the turns of a page ended, gathered while a journal is read backwards: the first record of a turn met from the
 * end is its latest (a turn is journaled when it starts and again when it ends). A reader shows the items of a turn
 * that did not complete as unfinished: without this, a partial answer reopened after a crash looks finished.
 */
import { Turn } from '@tether/protocol';

/** Turn statuses a reader must mark: the turn ended without completing. */
const UNFINISHED: ReadonlySet<Turn['status']> = new Set(['interrupted', 'failed']);

/** Collects turn records met while reading a journal backwards. */
export class TurnEnds {
  private readonly latest = new Map<string, Turn>();

  /** Notes `record` when it is a turn record newer than any of its turn seen so far (records come newest first). */
  note(record: unknown): void {
    if (typeof record !== 'object' || record === null || (record as { type?: unknown }).type !== 'turn') return;
    const turn = Turn.safeParse((record as { turn?: unknown }).turn);
    if (turn.success && !this.latest.has(turn.data.id)) this.latest.set(turn.data.id, turn.data);
  }

  /** The turns of `items` (oldest first) whose latest record says they ended without completing, in item order. */
  unfinished(items: readonly { turnId?: string | undefined }[]): Turn[] {
    const out = new Map<string, Turn>();
    for (const { turnId } of items) {
      const turn = turnId === undefined ? undefined : this.latest.get(turnId);
      if (turn && UNFINISHED.has(turn.status)) out.set(turn.id, turn);
    }
    return [...out.values()];
  }
}
