import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { ThreadStore } from '../store/thread-store';
import { testItem, testThread } from '../testing/journal-fixtures';
import { useTempDirs } from '../testing/temp-dirs';
import { ThreadHistory } from './thread-history';
import { ThreadState } from './thread-state';

const tempDir = useTempDirs('tether-history-');
const item = (id: string, turnId: string): Item => testItem(id, id, { turnId });

describe("a persistent thread's model history", () => {
  it('is the latest page, loaded once with the grants, and cut back to one page after each turn', () => {
    const store = new ThreadStore(tempDir(), () => undefined);
    store.create(testThread('t'));
    for (let t = 0; t < 10; t++) store.appendItem('t', item(`i${t}`, `turn_${t}`));
    store.appendGrant('t', 'bash', 'bash\nls');
    const history = new ThreadHistory(store, { bytes: 1 << 20, turns: 3 });
    const state = new ThreadState('t', true);
    expect(history.loadTail(state).map((i) => i.id)).toEqual(['i7', 'i8', 'i9']);
    expect([...state.grants]).toEqual(['bash\nls']);
    // A turn appends to the cached tail; its end trims the tail to the budget again, without reading the journal.
    state.items!.push(item('i10', 'turn_10'), item('i11', 'turn_10'));
    history.trimTail(state);
    expect(state.items!.map((i) => i.id)).toEqual(['i8', 'i9', 'i10', 'i11']);
    expect(history.loadTail(state)).toBe(state.items);
  });
});
