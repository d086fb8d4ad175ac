import { describe, expect, it } from 'vitest';
import type { ViewEvent } from '../../shared/events';
import { EventRouter, threadIdOf, type RawNotification } from './event-router';

type View = string;

function setup(bindings: Record<string, View[]>) {
  const delivered: Array<{ view: View; events: Array<ViewEvent | { method: 'snapshot' }> }> = [];
  const broadcasts: ViewEvent[][] = [];
  const reactions: string[] = [];
  const rejected: Array<{ notification: RawNotification; known: boolean; why: string }> = [];
  const router = new EventRouter<View>({
    viewsForThread: (threadId) => bindings[threadId] ?? [],
    deliver: (view, events) => delivered.push({ view, events: [...events] }),
    broadcast: (events) => broadcasts.push(events),
    handlers: { 'turn/completed': (p) => reactions.push(`completed ${p.turn.threadId}`) },
    rejected: (notification, known, why) => rejected.push({ notification, known, why }),
  });
  return { router, delivered, broadcasts, reactions, rejected };
}

/** The deltas and snapshot markers a view was given, in order. */
function textsOf(
  delivered: Array<{ view: View; events: Array<ViewEvent | { method: 'snapshot' }> }>,
  view: View,
): string[] {
  return delivered
    .filter((d) => d.view === view)
    .flatMap((d) => d.events.map((e) => (e.method === 'item/agentMessage/delta' ? e.params.delta : e.method)));
}

const delta = (threadId: string, text: string): ViewEvent => ({
  method: 'item/agentMessage/delta',
  params: { threadId, turnId: 'u', itemId: 'i', delta: text },
});

describe('EventRouter', () => {
  it('delivers a host batch to each view of the thread as one message, in order', () => {
    const { router, delivered } = setup({ t1: ['panel-1', 'popup-1'], t2: ['panel-2'] });
    const batch = [delta('t1', 'a'), delta('t2', 'x'), delta('t1', 'b')];
    expect(router.routeBatch(batch)).toEqual([]);
    expect(delivered).toEqual([
      { view: 'panel-1', events: [batch[0], batch[2]] },
      { view: 'popup-1', events: [batch[0], batch[2]] },
      { view: 'panel-2', events: [batch[1]] },
    ]);
  });

  it('hands responses and server requests to the connection and runs worker reactions', () => {
    const { router, reactions, broadcasts } = setup({});
    const response = { id: 3, result: {} };
    const request = { id: 'a1', method: 'approval/request', params: { threadId: 't1' } };
    const completed = {
      method: 'turn/completed',
      params: { turn: { id: 'u', threadId: 't1', status: 'completed', input: [] } },
    };
    const exited = {
      method: 'bridge/backend/exited',
      params: { backend: 'x', code: 1, signal: null, stderrTail: [], message: 'The "x" backend exited.' },
    };
    expect(router.routeBatch([response, completed, request, exited])).toEqual([response, request]);
    expect(reactions).toEqual(['completed t1']);
    expect(broadcasts).toEqual([[exited]]);
  });

  it('gives a view joining mid-stream the snapshot, then exactly the events after it', () => {
    const { router, delivered } = setup({ t1: ['old', 'new'] });
    const ticket = router.beginSync('t1', ['new']);
    // Before the resume response: in the snapshot already, so not sent to the joining view.
    router.routeBatch([delta('t1', 'before')]);
    const resumeResponse = { id: 9, result: { thread: { id: 't1' }, items: [] } };
    expect(router.routeBatch([delta('t1', 'also-before'), resumeResponse, delta('t1', 'after')])).toEqual([
      resumeResponse,
    ]);
    const sent: string[] = [];
    router.finishSync(ticket, (view) => {
      sent.push(view);
      delivered.push({ view, events: [{ method: 'snapshot' }] });
    });
    router.routeBatch([delta('t1', 'live')]);
    expect(sent).toEqual(['new']);
    expect(textsOf(delivered, 'new')).toEqual(['snapshot', 'after', 'live']);
    expect(textsOf(delivered, 'old')).toEqual(['before', 'also-before', 'after', 'live']);
  });

  it('releases waiting views when the resume fails', () => {
    const { router, delivered } = setup({ t1: ['v'] });
    const ticket = router.beginSync('t1', ['v']);
    expect(router.cancelSync(ticket)).toEqual(['v']);
    router.routeBatch([delta('t1', 'x')]);
    expect(delivered).toEqual([{ view: 'v', events: [delta('t1', 'x')] }]);
  });

  it('reports a notification that does not fit its row instead of delivering it, and runs no reaction for it', () => {
    const { router, delivered, reactions, rejected } = setup({ t1: ['v'] });
    const broken = { method: 'turn/completed', params: { turn: { id: 'u', threadId: 't1' } } };
    const noText = { method: 'item/agentMessage/delta', params: { threadId: 't1', turnId: 'u', itemId: 'i' } };
    router.routeBatch([delta('t1', 'a'), broken, noText, delta('t1', 'b')]);
    expect(textsOf(delivered, 'v')).toEqual(['a', 'b']);
    expect(reactions).toEqual([]);
    expect(rejected.map((r) => [r.notification.method, r.known])).toEqual([
      ['turn/completed', true],
      ['item/agentMessage/delta', true],
    ]);
    expect(rejected[0]!.why).toMatch(/turn\.status/);
    expect(rejected[1]!.why).toMatch(/delta/);
  });

  it('passes on no notification the protocol does not define, and says it did not know it', () => {
    const { router, delivered, broadcasts, rejected } = setup({ t1: ['v'] });
    router.routeBatch([{ method: 'thread/tokenUsage/updated', params: { threadId: 't1' } }, { method: 'made/up' }]);
    expect(delivered).toEqual([]);
    expect(broadcasts).toEqual([]);
    expect(rejected.map((r) => [r.notification.method, r.known])).toEqual([
      ['thread/tokenUsage/updated', false],
      ['made/up', false],
    ]);
  });

  it('finds the thread of thread, turn and item notifications', () => {
    expect(threadIdOf({ threadId: 'a' })).toBe('a');
    expect(threadIdOf({ thread: { id: 'b' } })).toBe('b');
    expect(threadIdOf({ turn: { id: 'u', threadId: 'c' } })).toBe('c');
    expect(threadIdOf({ message: 'no thread' })).toBeUndefined();
    expect(threadIdOf(null)).toBeUndefined();
  });
});
