/**
 * Items as a turn builds them, shared by every backend that builds its own (the app-server's TurnRun and the ACP
 * adapter's AcpTurn), so both journal and send the same fields in the same order. Whoever completes an item journals
 * it before announcing it: an item a client saw completed must survive a crash.
 */
import type { Item, ItemStatus } from '@tether/protocol';

/** A new item of turn `turnId`, in progress. `content` must be the content shape of `type`. */
export function startedItem(
  id: string,
  type: Item['type'],
  content: Record<string, unknown>,
  turnId: string,
  createdAtMs: number,
): Item {
  return { id, type, status: 'inProgress', createdAtMs, content, turnId } as Item;
}

/** The completed copy of `open`: a new object whose keys are in the seeds' wire order (completedAtMs before content). */
export function completedItem(open: Item, status: ItemStatus, completedAtMs: number): Item {
  const { id, type, createdAtMs, content, turnId } = open;
  return { id, type, status, createdAtMs, completedAtMs, content, ...(turnId === undefined ? {} : { turnId }) } as Item;
}
