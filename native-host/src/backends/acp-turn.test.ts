import type { Item } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { AcpTurn } from './acp-turn';

describe('an ACP turn', () => {
  it('journals a finished item before announcing it, as the app-server does', () => {
    const order: string[] = [];
    const turn = new AcpTurn('t', [], {
      emit: (method) => order.push(method),
      record: (item: Item) => order.push(`record ${item.type}`),
    });
    turn.userMessage('hello');
    expect(order).toEqual(['item/started', 'record userMessage', 'item/completed']);
  });
});
