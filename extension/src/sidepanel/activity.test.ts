import type { Item, Turn } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { ViewEvent } from '../shared/events';
import { activityText, afterEvents, ofSnapshot, THINKING } from './activity';

const ids = { threadId: 't1', turnId: 'u1' };
const turn: Turn = { id: 'u1', threadId: 't1', status: 'running', input: [{ type: 'text', text: 'hi' }] };
const delta: ViewEvent = { method: 'item/agentMessage/delta', params: { ...ids, itemId: 'a1', delta: 'Hel' } };
const tool = (status: 'inProgress' | 'completed'): Item => ({
  id: 'c1',
  type: 'toolCall',
  status,
  createdAtMs: 0,
  content: { toolName: 'bash', arguments: { command: 'ls' } },
});

describe('the working indicator', () => {
  it('shows from the start of a turn until its first token', () => {
    const started = afterEvents(undefined, [{ method: 'turn/started', params: { threadId: 't1', turn } }]);
    expect(started).toEqual(THINKING);
    expect(afterEvents(started, [delta])).toBeUndefined();
  });

  it('names the tool while it runs, and waits for the model again once it finished', () => {
    const running = afterEvents(undefined, [{ method: 'item/started', params: { ...ids, item: tool('inProgress') } }]);
    expect(running).toEqual({ kind: 'tool', name: 'bash' });
    expect(afterEvents(running, [delta])).toEqual(running);
    expect(afterEvents(running, [{ method: 'item/completed', params: { ...ids, item: tool('completed') } }])).toEqual(
      THINKING,
    );
  });

  it('is gone when the turn ends', () => {
    const done: ViewEvent = {
      method: 'turn/completed',
      params: { threadId: 't1', turn: { ...turn, status: 'completed' } },
    };
    expect(afterEvents(THINKING, [done])).toBeUndefined();
  });

  it('reads a snapshot: no turn, a turn waiting for its first token, a tool running, text being written', () => {
    expect(ofSnapshot(false, [])).toBeUndefined();
    expect(ofSnapshot(true, [])).toEqual(THINKING);
    expect(ofSnapshot(true, [tool('inProgress')])).toEqual({ kind: 'tool', name: 'bash' });
    const writing: Item = {
      id: 'a1',
      type: 'agentMessage',
      status: 'inProgress',
      createdAtMs: 0,
      content: { text: 'He' },
    };
    expect(ofSnapshot(true, [writing])).toBeUndefined();
  });

  it('says what it waits for', () => {
    expect(activityText({ kind: 'thinking' }, false)).toBe('Working…');
    expect(activityText({ kind: 'tool', name: 'bash' }, false)).toBe('Running bash…');
    expect(activityText({ kind: 'tool', name: 'bash' }, true)).toBe('Waiting for your approval to run bash…');
  });

  it('says the agent waits for the user while it asks them to take over', () => {
    expect(activityText({ kind: 'tool', name: 'page_ask_user' }, false)).toBe('Waiting for your reply…');
  });
});
