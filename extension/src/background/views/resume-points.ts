/**
 * Where each thread's pages can resume after the host connection comes back. With the daemon, turns outlive the
 * connection: a page that still shows a thread asks only for what came after the last finished item it has
 * (`thread/resume` with `afterItemId`) and keeps streaming the answer it was showing, instead of being rebuilt. A page
 * that never got the thread (opened while disconnected) needs the whole snapshot, and then so do the others.
 */
import type { Item, ThreadResumeResult } from '@tether/protocol';
import type { SeenTurn } from './persistent-state';

/** Per thread: the last finished item its pages hold, and which pages hold the thread's transcript. */
export class ResumePoints<V extends object> {
  private readonly lastDone = new Map<string, string>();
  private readonly holders = new Map<string, WeakSet<V>>();

  /**
   * `views` were sent `items` of `threadId`: all of its latest page (`replaced`, a snapshot) or what came after their
   * resume point. The last finished one becomes the thread's resume point.
   */
  sent(threadId: string, views: readonly V[], items: readonly Item[], replaced: boolean): void {
    const holders = (replaced ? undefined : this.holders.get(threadId)) ?? new WeakSet<V>();
    if (replaced) this.lastDone.delete(threadId);
    for (const view of views) holders.add(view);
    this.holders.set(threadId, holders);
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.status === 'inProgress') continue;
      this.lastDone.set(threadId, item.id);
      break;
    }
  }

  /** An item of `threadId` finished and was delivered to its pages: they now hold it. */
  completed(threadId: string, itemId: string): void {
    if (this.holders.has(threadId)) this.lastDone.set(threadId, itemId);
  }

  /** The last finished item of `threadId` its pages were sent. */
  lastFinished(threadId: string): string | undefined {
    return this.lastDone.get(threadId);
  }

  /** The item to resume `views` after: undefined (send a whole snapshot) unless every one of them holds the thread. */
  pointFor(threadId: string, views: readonly V[]): string | undefined {
    const holders = this.holders.get(threadId);
    if (!holders || views.length === 0 || !views.every((view) => holders.has(view))) return undefined;
    return this.lastDone.get(threadId);
  }
}

/**
 * The items of a `thread/resume {afterItemId: after}` answer that come after `after`. A backend that does not know
 * `afterItemId` answers with its latest page instead: what follows `after` there, or undefined (send the whole
 * snapshot) when that page has older items and does not reach back to it.
 */
export function itemsSince(answer: { items: Item[]; olderCursor?: string | null }, after: string): Item[] | undefined {
  const at = answer.items.findIndex((item) => item.id === after);
  if (at >= 0) return answer.items.slice(at + 1);
  return answer.olderCursor ? undefined : answer.items;
}

/** What a `thread/resume` answer says of a thread that the kept-working note needs. */
export type ResumedThread = Pick<ThreadResumeResult, 'thread' | 'activeTurn' | 'unfinishedTurns'>;

/**
 * Whether the agent worked in `since` (the items after the last one a browser saw finish) while the browser was away:
 * it finished one (of a turn that did not end unfinished), or its turn runs on and is not just waiting for the user
 * to answer an approval.
 */
export function workedSince(since: readonly Item[], read: ResumedThread): boolean {
  if (since.length === 0) return false;
  const cut = new Set((read.unfinishedTurns ?? []).map((turn) => turn.id));
  if (since.some((item) => item.status === 'completed' && !cut.has(item.turnId ?? ''))) return true;
  return read.activeTurn?.status === 'running' && read.thread.status !== 'waitingOnApproval';
}

/**
 * Where the agent's work while the browser was away begins in a thread's `items`, given the turn an earlier worker saw
 * running there: the item after the last one that worker saw finish (or the turn's first answer); undefined when the
 * agent did not work meanwhile (see workedSince).
 */
export function keptWorkingFrom(seen: SeenTurn, items: readonly Item[], read: ResumedThread): string | undefined {
  const at = seen.after === undefined ? -1 : items.findIndex((item) => item.id === seen.after);
  const since =
    at >= 0 ? items.slice(at + 1) : items.filter((item) => item.turnId === seen.turnId && item.type !== 'userMessage');
  return workedSince(since, read) ? since[0]?.id : undefined;
}
