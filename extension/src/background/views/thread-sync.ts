/**
 * Bringing a page up to date with its thread: the snapshot a page gets when it says hello or the host comes back,
 * resumed after the last finished item it has when it still shows the thread, so nothing arrives twice.
 */
import { ErrorCode, RpcError, type ThreadResumeResult, errorMessage } from '@tether/protocol';
import { homeTabOf } from '../tabs/task-pending';
import type { TetherWorker } from '../worker';
import { itemsSince, keptWorkingFrom, workedSince } from './resume-points';
import type { View } from './views';

/**
 * Sends `views` the current history of `threadId` (via `thread/resume`), then its live events. With `resume`, views
 * that still show the thread get only what came after the last finished item they have (see ResumePoints).
 */
export async function syncThread(
  w: TetherWorker,
  threadId: string,
  views: readonly View[],
  resume = false,
): Promise<void> {
  const client = w.link.client;
  if (!client) return; // onReady resyncs every bound thread.
  const after = resume ? w.resumePoints.pointFor(threadId, views) : undefined;
  const ticket = w.router.beginSync(threadId, views);
  try {
    const r = await client.threadResume({ threadId, ...(after === undefined ? {} : { afterItemId: after }) });
    const since = after === undefined ? undefined : itemsSince(r, after);
    w.resumePoints.sent(threadId, views, since ?? r.items, since === undefined);
    const running = r.activeTurn?.status === 'running';
    if (r.activeTurn && running) w.activeTurns.set(threadId, r.activeTurn.id);
    else w.activeTurns.delete(threadId);
    const awayFrom = await seenAgain(w, threadId, views, r, since === undefined);
    if (r.thread.status !== 'waitingOnApproval') {
      // Approvals this thread no longer waits on (answered or withdrawn while we were away).
      const stale = w.deps.state.pendingApprovals().filter((p) => p.threadId === threadId && p.source === 'server');
      for (const p of stale) await w.broker.withdraw({ threadId, requestId: p.requestId });
    }
    w.groups.noteTitle(threadId, r.thread.title);
    void w.pushTask(threadId, views);
    w.router.finishSync(ticket, (view) =>
      view.send({
        type: 'snapshot',
        thread: r.thread,
        items: since ?? r.items,
        ...(r.activeTurn ? { activeTurn: r.activeTurn } : {}),
        ...(r.olderCursor && !since ? { olderCursor: r.olderCursor } : {}),
        ...(r.unfinishedTurns ? { unfinishedTurns: r.unfinishedTurns } : {}),
        ...(awayFrom === undefined ? {} : { keptWorkingFrom: awayFrom }),
        ...(after === undefined || since === undefined
          ? {}
          : { resumeAfter: after, keptWorking: workedSince(since, r) }),
      }),
    );
  } catch (error) {
    const served = w.router.cancelSync(ticket);
    // The item is not there (another backend now, or its history was rewritten): send the whole snapshot.
    if (after !== undefined && error instanceof RpcError && error.code === ErrorCode.InvalidParams)
      return syncThread(w, threadId, served);
    if (error instanceof RpcError && error.code === ErrorCode.ThreadNotFound) {
      for (const tab of w.deps.state.tabsForThread(threadId)) await w.deps.state.setBinding(tab, undefined);
      for (const v of served) v.send({ type: 'snapshot', thread: null, items: [] });
      return;
    }
    w.deps.log(`thread/resume ${threadId} failed: ${errorMessage(error)}`);
    const message = `Could not load the conversation: ${errorMessage(error)}`;
    for (const v of served) v.send({ type: 'notice', notice: { kind: 'error', message } });
  }
}

/**
 * Keeps the turn the browser sees running on `threadId` for a later worker (see SeenTurn), and when an earlier one saw
 * it and `views` get the `whole` of `read`, says where the agent's work while the browser was away begins there.
 */
async function seenAgain(
  w: TetherWorker,
  threadId: string,
  views: readonly View[],
  read: ThreadResumeResult,
  whole: boolean,
): Promise<string | undefined> {
  const seen = w.deps.state.seenTurn(threadId);
  // No page shows the thread yet (a reconnect resyncing bound threads): the page that does later says it.
  if (seen?.left && views.length === 0) return undefined;
  const running = read.activeTurn?.status === 'running' ? read.activeTurn : undefined;
  const from = seen?.left && whole ? keptWorkingFrom(seen, read.items, read) : undefined;
  const after = w.resumePoints.lastFinished(threadId);
  if (running) await w.deps.state.setSeenTurn(threadId, { turnId: running.id, ...(after ? { after } : {}) });
  else if (seen) await w.deps.state.setSeenTurn(threadId, undefined);
  return from;
}

/** A page said hello: send it the state, its tab's approvals and its thread. */
export async function welcome(w: TetherWorker, view: View): Promise<void> {
  view.send({ type: 'state', state: w.workerState() });
  if (view.tabId === null || view.kind === 'options') return;
  // A tab of another tab's task shows that conversation's requests: the user answers where they are.
  const home = homeTabOf({ state: w.deps.state, groups: w.groups }, view.tabId);
  view.send({ type: 'approvals', approvals: w.broker.pendingForTab(home) });
  view.send({ type: 'handovers', handovers: w.handovers.pendingForTab(home) });
  await w.pushTab(view.tabId, [view]);
  const draft = w.drafts.get(view.tabId);
  if (draft !== undefined && view.kind === 'sidepanel') {
    w.drafts.delete(view.tabId);
    view.send({ type: 'draft', text: draft });
  }
  const binding = w.deps.state.binding(view.tabId);
  if (!binding) {
    view.send({ type: 'snapshot', thread: null, items: [] });
    // A tab of another tab's task: its panel says where the conversation and its approvals are.
    const task = w.groups.threadOf(view.tabId);
    if (task !== undefined) await w.pushTask(task, [view]);
    return;
  }
  await syncThread(w, binding.threadId, [view]);
}
