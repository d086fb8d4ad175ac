import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { itemsSince, keptWorkingFrom, ResumePoints, type ResumedThread } from './resume-points';

const item = (id: string, status: Item['status'] = 'completed'): Item => ({
  id,
  type: 'agentMessage',
  status,
  createdAtMs: 1,
  content: { text: id },
});

describe('where a thread’s pages resume after a reconnect', () => {
  it('resumes pages that hold the thread after the last finished item they were sent, not an open one', () => {
    const points = new ResumePoints<object>();
    const panel = {};
    points.sent('t1', [panel], [item('a'), item('b'), item('c', 'inProgress')], true);
    expect(points.pointFor('t1', [panel])).toBe('b');
  });

  it('moves the point with each item that finishes, and with what a resume sent', () => {
    const points = new ResumePoints<object>();
    const panel = {};
    points.sent('t1', [panel], [item('a')], true);
    points.completed('t1', 'c');
    expect(points.pointFor('t1', [panel])).toBe('c');
    points.sent('t1', [panel], [item('d'), item('e', 'inProgress')], false);
    expect(points.pointFor('t1', [panel])).toBe('d');
    points.sent('t1', [panel], [item('e', 'inProgress')], false);
    expect(points.pointFor('t1', [panel])).toBe('d');
  });

  it('sends a whole snapshot when a page never got the thread, or the thread has no finished item yet', () => {
    const points = new ResumePoints<object>();
    const shown = {};
    const opened = {};
    points.sent('t1', [shown], [item('a')], true);
    expect(points.pointFor('t1', [shown, opened])).toBeUndefined();
    expect(points.pointFor('t1', [])).toBeUndefined();
    expect(points.pointFor('t2', [shown])).toBeUndefined();
    points.sent('t3', [shown], [], true);
    expect(points.pointFor('t3', [shown])).toBeUndefined();
  });

  it('starts over when a page is sent a whole snapshot: only its pages hold the thread, from its items', () => {
    const points = new ResumePoints<object>();
    const first = {};
    const second = {};
    points.sent('t1', [first], [item('a'), item('b')], true);
    points.sent('t1', [second], [item('a')], true);
    expect(points.pointFor('t1', [second])).toBe('a');
    expect(points.pointFor('t1', [first, second])).toBeUndefined();
  });

  it('ignores items finishing in a thread no page holds', () => {
    const points = new ResumePoints<object>();
    points.completed('t1', 'x');
    expect(points.pointFor('t1', [{}])).toBeUndefined();
  });
});

describe('the items a resume answer adds', () => {
  it('are all of them when the backend honoured afterItemId', () => {
    expect(itemsSince({ items: [item('c'), item('d', 'inProgress')] }, 'b')?.map((i) => i.id)).toEqual(['c', 'd']);
  });

  it('are those after the item when the backend answered with its latest page instead', () => {
    const page = { items: [item('a'), item('b'), item('c')], olderCursor: 'older' };
    expect(itemsSince(page, 'b')?.map((i) => i.id)).toEqual(['c']);
    expect(itemsSince(page, 'c')).toEqual([]);
  });

  it('are unknown (send the whole snapshot) when such a page does not reach back to the item', () => {
    expect(itemsSince({ items: [item('x')], olderCursor: 'older' }, 'b')).toBeUndefined();
  });
});

describe('where the work the agent did while the browser was away begins', () => {
  const thread = (status: ResumedThread['thread']['status']): ResumedThread['thread'] => ({
    id: 't1',
    title: 'T',
    model: 'm',
    status,
    archived: false,
    ephemeral: false,
    createdAtMs: 1,
    updatedAtMs: 1,
  });
  const turn = { id: 'u1', threadId: 't1', status: 'running' as const, input: [], startedAtMs: 1 };
  const ofTurn = (id: string, status: Item['status'] = 'completed'): Item => ({ ...item(id, status), turnId: 'u1' });

  it('is the item after the last one the browser saw finish, when the turn still runs', () => {
    const items = [ofTurn('a'), ofTurn('b', 'inProgress')];
    const read = { thread: thread('running'), activeTurn: turn };
    expect(keptWorkingFrom({ turnId: 'u1', after: 'a' }, items, read)).toBe('b');
  });

  it("is the turn's first answer when the browser saw none of its items finish, and the turn ended meanwhile", () => {
    const user: Item = {
      id: 'q',
      type: 'userMessage',
      status: 'completed',
      createdAtMs: 1,
      turnId: 'u1',
      content: { text: 'go' },
    };
    const items = [user, ofTurn('a'), ofTurn('b')];
    expect(keptWorkingFrom({ turnId: 'u1' }, items, { thread: thread('idle') })).toBe('a');
  });

  it('is nowhere when nothing came after, the turn ended unfinished, or it only waits for an approval', () => {
    const items = [ofTurn('a'), ofTurn('b', 'inProgress')];
    expect(keptWorkingFrom({ turnId: 'u1', after: 'b' }, items, { thread: thread('running'), activeTurn: turn })).toBe(
      undefined,
    );
    const cut = { ...turn, status: 'interrupted' as const };
    const unfinished = { thread: thread('idle'), unfinishedTurns: [cut] };
    expect(keptWorkingFrom({ turnId: 'u1', after: 'a' }, [...items, ofTurn('c')], unfinished)).toBeUndefined();
    const waiting = { thread: thread('waitingOnApproval'), activeTurn: turn };
    expect(keptWorkingFrom({ turnId: 'u1', after: 'a' }, items, waiting)).toBeUndefined();
  });
});
