import { ErrorCode, Item, RpcError, Thread, Turn } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { historyItems, mapCodexError, mapItem, mapThread, mapThreadStatus, mapTurn } from './codex-map';
import { FIXTURES, readTranscript } from './codex-replay-agent';

/** The recorded Codex error answers, keyed by the method of the request they answer. */
function recordedErrors(): Array<{ method: string; params: Record<string, unknown>; error: RpcError }> {
  const entries = readTranscript(new URL('codex/errors.jsonl', FIXTURES));
  const out: Array<{ method: string; params: Record<string, unknown>; error: RpcError }> = [];
  for (const e of entries) {
    if (e.dir !== 'in' || !e.msg?.error) continue;
    const request = entries.find((r) => r.dir === 'out' && r.msg?.id === e.msg!.id)!.msg!;
    const err = e.msg.error as { code: number; message: string };
    out.push({
      method: request.method as string,
      params: request.params as Record<string, unknown>,
      error: new RpcError(err.code, err.message),
    });
  }
  return out;
}

describe('codex error mapping', () => {
  it('recovers the meaning of every -32600 that the real Codex 0.171.0 answered', () => {
    const mapped = recordedErrors().map(({ method, params, error }) => {
      expect(error.code).toBe(ErrorCode.InvalidRequest);
      const out = mapCodexError(error, { method, threadId: params.threadId as string | undefined }) as RpcError;
      return [method, out.code];
    });
    expect(mapped).toEqual([
      ['thread/list', ErrorCode.NotInitialized],
      ['initialize', ErrorCode.AlreadyInitialized],
      ['no/such/method', ErrorCode.MethodNotFound],
      ['thread/read', ErrorCode.ThreadNotFound],
      ['thread/resume', ErrorCode.ThreadNotFound],
      ['turn/start', ErrorCode.ThreadNotFound],
      ['thread/start', ErrorCode.InvalidParams],
      ['turn/interrupt', ErrorCode.NoActiveTurn],
      ['turn/steer', ErrorCode.NoActiveTurn],
    ]);
  });

  it('keeps the Codex message and code in data and the thread id in the message', () => {
    const error = mapCodexError(new RpcError(-32600, 'no rollout found for thread id abc'), {
      method: 'thread/resume',
      threadId: 'abc',
    }) as RpcError;
    expect(error.message).toContain('Thread not found: abc');
    expect(error.data).toMatchObject({ codexCode: -32600, codexMessage: 'no rollout found for thread id abc' });
    expect(error.cause).toBeInstanceOf(RpcError);
  });

  it('leaves other codes and messages it cannot read alone', () => {
    const odd = new RpcError(-32600, 'something else entirely');
    expect(mapCodexError(odd, { method: 'x' })).toBe(odd);
    const overloaded = new RpcError(-32001, 'Server overloaded; retry later');
    expect(mapCodexError(overloaded, { method: 'x' })).toBe(overloaded);
  });
});

describe('codex object mapping', () => {
  it('maps thread statuses, including waiting on an approval', () => {
    expect(mapThreadStatus({ type: 'active', activeFlags: ['waitingOnApproval'] })).toBe('waitingOnApproval');
    expect(mapThreadStatus({ type: 'active', activeFlags: [] })).toBe('running');
    expect(mapThreadStatus({ type: 'notLoaded' })).toBe('idle');
    expect(mapThreadStatus({ type: 'systemError' })).toBe('error');
    expect(mapThreadStatus('garbage')).toBe('idle');
  });

  it('makes a valid Tether thread from a recorded Codex thread, archived when its rollout is archived', () => {
    const entries = readTranscript(new URL('codex/text.jsonl', FIXTURES));
    const listed = entries.filter((e) => e.dir === 'in' && (e.msg?.result as { data?: unknown[] } | undefined)?.data);
    const archivedList = (listed[1]!.msg!.result as { data: unknown[] }).data[0];
    const thread = Thread.parse(mapThread(archivedList));
    expect(thread).toMatchObject({ title: 'Say hello', model: 'mock-model', archived: true, status: 'idle' });
    expect(mapThread((listed[0]!.msg!.result as { data: unknown[] }).data[0]).archived).toBe(false);
  });

  it('maps turns with seconds to milliseconds and failures to an error', () => {
    const turn = Turn.parse(
      mapTurn(
        {
          id: 't1',
          status: 'failed',
          startedAt: 10,
          completedAt: 12,
          error: { message: 'model said no', codexErrorInfo: { httpStatus: 500 } },
        },
        'th',
        [{ text: 'hi' }],
      ),
    );
    expect(turn).toEqual({
      id: 't1',
      threadId: 'th',
      status: 'failed',
      input: [{ text: 'hi' }],
      startedAtMs: 10_000,
      completedAtMs: 12_000,
      error: { message: 'model said no', code: 'httpStatus' },
    });
    expect(mapTurn({ id: 't2', status: 'inProgress' }, 'th').status).toBe('running');
  });

  it('maps tool-like items to toolCall items with their details', () => {
    const fileChange = mapItem(
      {
        type: 'fileChange',
        id: 'fc1',
        status: 'completed',
        changes: [{ path: 'a.txt', kind: { type: 'add' }, diff: '+hi' }],
        startedAtMs: 5,
        completedAtMs: 6,
      },
      { turnId: 'u', final: true },
    );
    expect(Item.parse(fileChange)).toMatchObject({
      type: 'toolCall',
      status: 'completed',
      createdAtMs: 5,
      completedAtMs: 6,
      content: { toolName: 'apply_patch', arguments: { changes: [{ path: 'a.txt' }] } },
    });
    const mcp = mapItem(
      {
        type: 'mcpToolCall',
        id: 'm1',
        server: 'docs',
        tool: 'search',
        status: 'failed',
        arguments: { q: 'x' },
        result: null,
        error: { message: 'offline' },
      },
      { final: true },
    );
    expect(Item.parse(mcp)).toMatchObject({
      status: 'failed',
      content: { toolName: 'docs.search', arguments: { q: 'x' }, error: 'offline' },
    });
    const reasoning = mapItem(
      { type: 'reasoning', id: 'r1', summary: ['Plan'], content: ['Detail'] },
      { final: false },
    );
    expect(reasoning).toMatchObject({ type: 'reasoning', status: 'inProgress', content: { text: 'Plan\n\nDetail' } });
    expect(mapItem({ type: 'contextCompaction', id: 'c1' }, { final: true })).toBeUndefined();
    expect(mapItem({ type: 'agentMessage' }, { final: true })).toBeUndefined();
  });

  it('flattens a recorded thread history (Codex keeps no record of a declined command)', () => {
    const entries = readTranscript(new URL('codex/approval.jsonl', FIXTURES));
    const read = entries
      .filter(
        (e) =>
          e.dir === 'in' && (e.msg?.result as { thread?: { turns?: unknown[] } } | undefined)?.thread?.turns?.length,
      )
      .pop()!;
    const items = historyItems((read.msg!.result as { thread: unknown }).thread).map((i) => Item.parse(i));
    expect(items.filter((i) => i.type === 'toolCall').map((i) => [i.id, i.status])).toEqual([
      ['call_allow', 'completed'],
    ]);
    expect(items.filter((i) => i.type === 'userMessage').map((i) => (i.content as { text: string }).text)).toEqual([
      'Run echo',
      'Run echo again',
      'Write a file',
    ]);
  });
});
