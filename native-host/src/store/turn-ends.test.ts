import type { Turn } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { DEFAULT_PAGE_BUDGET } from './history-page';
import { ThreadStore } from './thread-store';
import { TurnEnds } from './turn-ends';

const tempDir = useTempDirs('tether-turn-ends-');
const noLog = (): void => undefined;

const turn = (id: string, status: Turn['status']): Turn => ({
  id,
  threadId: 't1',
  status,
  input: [{ text: `input of ${id}` }],
  startedAtMs: 1,
});

/** A journal of two turns: turn_1 completed, turn_2 cut off when its process died after its first words. */
function crashedThread(dir: string): void {
  const store = new ThreadStore(dir, noLog);
  store.create(testThread('t1'));
  store.appendTurn('t1', turn('turn_1', 'running'));
  store.appendItem('t1', testItem('u1', 'first', { type: 'userMessage', turnId: 'turn_1' }));
  store.appendItem('t1', testItem('a1', 'answer one', { turnId: 'turn_1' }));
  store.appendTurn('t1', { ...turn('turn_1', 'completed'), completedAtMs: 2 });
  store.appendTurn('t1', turn('turn_2', 'running'));
  store.appendItem('t1', testItem('u2', 'second', { type: 'userMessage', turnId: 'turn_2' }));
  store.put(testThread('t1', { status: 'running' }));
  // No close(): the process "died" while turn_2 ran.
}

describe('turns that ended without completing, read with the items', () => {
  it('reports a turn cut off by a dead process on the page that shows its items, with why', () => {
    const dir = tempDir();
    crashedThread(dir);
    const page = new ThreadStore(dir, noLog, () => 99).page('t1', DEFAULT_PAGE_BUDGET);
    expect(page.items.map((i) => i.id)).toEqual(['u1', 'a1', 'u2']);
    expect(page.unfinishedTurns).toEqual([
      {
        ...turn('turn_2', 'interrupted'),
        completedAtMs: 99,
        error: { message: 'The app-server stopped while this turn was running.' },
      },
    ]);
  });

  it('reports the turn of the item a reader resumes after, even when nothing came after it', () => {
    const dir = tempDir();
    crashedThread(dir);
    const store = new ThreadStore(dir, noLog, () => 99);
    expect(store.readAfter('t1', 'u2')).toMatchObject({ items: [], unfinishedTurns: [{ id: 'turn_2' }] });
    expect(store.readAfter('t1', 'a1')?.unfinishedTurns.map((t) => t.id)).toEqual(['turn_2']);
    expect(store.readAfter('t1', 'missing')).toBeUndefined();
  });

  it('reports nothing for turns that completed or still run, and only turns of the given items', () => {
    const ends = new TurnEnds();
    // Newest first, as a backward read meets them.
    ends.note({ type: 'turn', turn: turn('turn_3', 'running') });
    ends.note({ type: 'turn', turn: turn('turn_2', 'failed') });
    ends.note({ type: 'turn', turn: turn('turn_1', 'completed') });
    ends.note({ type: 'turn', turn: turn('turn_1', 'running') });
    ends.note({ type: 'turn', turn: { id: 'broken' } });
    ends.note({ type: 'item', item: {} });
    const items = [{ turnId: 'turn_1' }, { turnId: 'turn_2' }, { turnId: 'turn_2' }, { turnId: 'turn_3' }, {}];
    expect(ends.unfinished(items).map((t) => [t.id, t.status])).toEqual([['turn_2', 'failed']]);
    expect(ends.unfinished([{ turnId: 'turn_1' }])).toEqual([]);
  });

  it('keeps the latest record of a turn: an interrupted end read first wins over its running start', () => {
    const ends = new TurnEnds();
    ends.note({ type: 'turn', turn: turn('turn_1', 'interrupted') });
    ends.note({ type: 'turn', turn: turn('turn_1', 'running') });
    expect(ends.unfinished([{ turnId: 'turn_1' }]).map((t) => t.status)).toEqual(['interrupted']);
  });
});
