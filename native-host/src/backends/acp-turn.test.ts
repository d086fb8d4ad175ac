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

  it('starts one item for a tool call announced twice under one id, as Claude Code does', () => {
    const seen: Array<{ method: string; params: any }> = [];
    const turn = new AcpTurn('t', [], {
      emit: (method, params) => seen.push({ method, params }),
      record: () => undefined,
    });
    turn.update({
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_1',
      title: 'Terminal',
      kind: 'execute',
      rawInput: {},
    });
    turn.update({
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_1',
      title: '`echo hi`',
      kind: 'execute',
      rawInput: { command: 'echo hi' },
    });
    turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'completed' });
    expect(seen.filter((s) => s.method === 'item/started').map((s) => s.params.item.id)).toEqual(['toolu_1']);
    const done = seen.find((s) => s.method === 'item/completed')!.params.item;
    expect(done).toMatchObject({
      status: 'completed',
      content: { toolName: '`echo hi`', arguments: { command: 'echo hi' } },
    });
  });

  it('ends a denied call at once, and a late failed update for it changes nothing', () => {
    const seen: Array<{ method: string; params: any }> = [];
    const turn = new AcpTurn('t', [], {
      emit: (method, params) => seen.push({ method, params }),
      record: () => undefined,
    });
    turn.ensureToolCall({ toolCallId: 'c1', title: 'touch x', kind: 'execute', status: 'pending' });
    turn.decline('c1');
    expect(seen.map((s) => s.method)).toEqual(['item/started', 'item/completed']);
    expect(seen[1]!.params.item.status).toBe('declined');
    turn.update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'failed' });
    turn.finish('completed');
    expect(seen.map((s) => s.method)).toEqual(['item/started', 'item/completed', 'turn/completed']);
  });
});
