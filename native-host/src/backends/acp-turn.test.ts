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

  it('starts one item for a tool call announced twice under one id, as Claude Code does, named by its command', () => {
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
    // Started once, when the second announcement names the command (the transcript never shows "Terminal").
    const started = seen.filter((s) => s.method === 'item/started').map((s) => s.params.item);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      id: 'toolu_1',
      content: { toolName: 'echo hi', arguments: { command: 'echo hi' } },
    });
    const done = seen.find((s) => s.method === 'item/completed')!.params.item;
    expect(done).toMatchObject({ status: 'completed', content: { toolName: 'echo hi' } });
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

  it('shows a tool call without input once asked about it, or once anything else happens', () => {
    const seen: Array<{ method: string; params: any }> = [];
    const turn = new AcpTurn('t', [], {
      emit: (method, params) => seen.push({ method, params }),
      record: () => undefined,
    });
    turn.update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Terminal', kind: 'execute', rawInput: {} });
    expect(seen).toEqual([]);
    turn.ensureToolCall({ toolCallId: 'a', title: 'ls', kind: 'execute', rawInput: { command: 'ls' } });
    expect(seen.map((s) => [s.method, s.params.item.content.toolName])).toEqual([['item/started', 'ls']]);
    turn.update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Read', kind: 'read' });
    turn.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } });
    expect(seen.filter((s) => s.method === 'item/started').map((s) => s.params.item.id)).toEqual([
      'a',
      'b',
      expect.stringContaining('agentMessage'),
    ]);
  });

  it('shows a tool call without input after a moment when nothing else comes', async () => {
    const seen: string[] = [];
    const turn = new AcpTurn('t', [], { emit: (method) => seen.push(method), record: () => undefined });
    turn.update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Terminal', kind: 'execute', rawInput: {} });
    expect(seen).toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    expect(seen).toEqual(['item/started']);
  });
});
