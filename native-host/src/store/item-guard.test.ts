import { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { isItem } from './item-guard';

const base = { id: 'i', status: 'completed', createdAtMs: 1 };
const samples: unknown[] = [
  { ...base, type: 'userMessage', content: { text: 'a' } },
  { ...base, type: 'agentMessage', content: { text: 'a' }, completedAtMs: 2, turnId: 't' },
  { ...base, type: 'reasoning', content: { text: 'a' } },
  { ...base, type: 'toolCall', content: { toolName: 'bash', arguments: {}, status: 'success', result: { x: 1 } } },
  { ...base, type: 'error', content: { message: 'm', code: 4 } },
  { ...base, type: 'agentMessage', content: { text: 5 } },
  { ...base, type: 'agentMessage', content: null },
  { ...base, type: 'video', content: { text: 'a' } },
  { ...base, status: 'done', type: 'userMessage', content: { text: 'a' } },
  { ...base, createdAtMs: '1', type: 'userMessage', content: { text: 'a' } },
  { ...base, type: 'toolCall', content: { arguments: {} } },
  { ...base, type: 'error', content: { message: 'm', code: {} } },
  { ...base, id: 3, type: 'userMessage', content: { text: 'a' } },
  null,
  'item',
];

describe('the journal item check', () => {
  it('accepts exactly what the Item schema accepts on these samples', () => {
    for (const sample of samples) expect([sample, isItem(sample)]).toEqual([sample, Item.safeParse(sample).success]);
  });
});
