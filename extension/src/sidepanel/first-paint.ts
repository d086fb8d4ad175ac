/**
 * How much of a snapshot the transcript renders before its first paint, and how much more at a time as the reader
 * scrolls up. Measured (bench/long-thread.bench.mjs): rendering a whole 100-turn page of markdown answers took one
 * 240-740 ms task before the first paint; 12,000 characters first still had a 179 ms task on a cold page, 6,000
 * (about two screens of the panel) fit the 100 ms budget.
 */
import type { Item } from '@tether/protocol';

/** The budgets: characters before the first paint, at most that many items, and characters per later chunk. */
export const FIRST_PAINT = { chars: 6_000, items: 40, chunkChars: 12_000 } as const;

/** Characters an item costs to render (its text, or a fixed amount for a tool card or an error). */
function weight(item: Item): number {
  if (item.type === 'userMessage' || item.type === 'agentMessage' || item.type === 'reasoning')
    return item.content.text.length;
  return 500;
}

/** Where to split `items` so that what follows is about `budget` characters (at least one item, at most `max`). */
export function splitFromEnd(items: readonly Item[], budget: number, max: number): number {
  let at = items.length;
  let chars = 0;
  while (at > 0 && chars < budget && items.length - at < max) {
    const item = items[--at];
    if (item) chars += weight(item);
  }
  return at;
}
