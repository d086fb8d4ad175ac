import { describe, expect, it } from 'vitest';
import { completedItem, startedItem } from './items';

describe('items as turns build them', () => {
  it('completes an item as a new object with the keys in the wire order of the seeds', () => {
    const open = startedItem('item_1', 'agentMessage', { text: 'hi' }, 'turn_1', 5);
    const done = completedItem(open, 'completed', 9);
    expect(Object.keys(done)).toEqual(['id', 'type', 'status', 'createdAtMs', 'completedAtMs', 'content', 'turnId']);
    expect(done).toEqual({
      id: 'item_1',
      type: 'agentMessage',
      status: 'completed',
      createdAtMs: 5,
      completedAtMs: 9,
      content: { text: 'hi' },
      turnId: 'turn_1',
    });
    expect(open.status).toBe('inProgress');
  });
});
