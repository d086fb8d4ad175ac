/**
 * Streamed items (agent messages, reasoning) journaled while they grow: a `stream` record when one starts, then `text`
 * records of what was sent, in chunks no secret can straddle (see PendingStream: journal lines are masked one at a time,
 * so a secret split across two deltas must not be split across two records), each written before the delta that
 * completes it is sent; the last few hundred characters sent may not be journaled yet. A process killed mid-answer
 * leaves no completed item; crash recovery (ThreadStore.recover) completes each stream still open from these records,
 * in the turn it marks interrupted. So the answer reads back as far as it was journaled, marked unfinished, exactly as
 * when a live server interrupts the turn (TurnRun.finish completes its open items): one way for a turn that did not
 * finish.
 */
import type { Item } from '@tether/protocol';
import { isItem } from './item-guard';
import { completedItem } from './items';

/** The open streamed items of a journal, folded from its records read oldest first. */
export class OpenStreams {
  private readonly open = new Map<string, { item: Item; text: string }>();

  /** Notes one journal record (records come oldest first). */
  note(record: unknown): void {
    if (typeof record !== 'object' || record === null) return;
    const r = record as { type?: unknown; item?: unknown; itemId?: unknown; text?: unknown };
    if (r.type === 'stream' && isItem(r.item)) this.open.set(r.item.id, { item: r.item, text: '' });
    else if (r.type === 'text' && typeof r.itemId === 'string' && typeof r.text === 'string') {
      const stream = this.open.get(r.itemId);
      if (stream) stream.text += r.text;
    } else if (r.type === 'item' && isItem(r.item)) this.open.delete(r.item.id);
  }

  /** The streams of turn `turnId` still open, completed with the text they had, as TurnRun completes them. */
  completed(turnId: string, completedAtMs: number): Item[] {
    return [...this.open.values()]
      .filter(({ item }) => item.turnId === turnId)
      .map(({ item, text }) =>
        completedItem({ ...item, content: { ...item.content, text } } as Item, 'completed', completedAtMs),
      );
  }
}
