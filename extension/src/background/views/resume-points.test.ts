import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { itemsSince, ResumePoints } from './resume-points';

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
