import { type ApprovalRequestParams, type ApprovalRequestResult, ErrorCode, RpcError } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { type ApprovalPeer, Approvals, type ApprovalSettlement } from './approvals';

const params: ApprovalRequestParams = {
  threadId: 'thread_1',
  turnId: 'turn_2',
  requestId: 'approval_1',
  toolName: 'bash',
  preview: 'Run `ls`',
  choices: ['allow', 'deny'],
};

/** A peer whose answer the test gives later (or never). */
function peer(id = 1): ApprovalPeer & { answer(r: Promise<ApprovalRequestResult>): void; asked: number } {
  let answer: ((r: Promise<ApprovalRequestResult>) => void) | undefined;
  return {
    id,
    isOpen: true,
    asked: 0,
    request() {
      this.asked++;
      return new Promise((resolve) => (answer = (r) => resolve(r)));
    },
    answer: (r) => answer?.(r),
  };
}

function approvals() {
  const resolved: string[] = [];
  const logs: string[] = [];
  const broker = new Approvals(
    (p, outcome) => resolved.push(`${p.requestId} ${outcome}`),
    (l) => logs.push(l),
  );
  return { broker, resolved, logs };
}

describe('Approvals', () => {
  it('refuses approval/resolve naming another turn or thread with -32040: a stale card cannot decide a later approval', async () => {
    const { broker, resolved } = approvals();
    const settled = broker.request(params, [peer()]);
    for (const ref of [
      { ...params, turnId: 'turn_1' },
      { ...params, threadId: 'thread_2' },
      { ...params, requestId: 'approval_9' },
    ]) {
      expect(() => broker.resolve(ref, 'allow')).toThrow(expect.objectContaining({ code: ErrorCode.ApprovalNotFound }));
    }
    expect(broker.size).toBe(1);
    broker.resolve(params, 'allow');
    expect(await settled).toEqual({ outcome: 'allow' });
    expect(resolved).toEqual(['approval_1 allow']);
    expect(() => broker.resolve(params, 'allow')).toThrow(
      expect.objectContaining({ code: ErrorCode.ApprovalNotFound }),
    );
  });

  it('refuses a decision that was not offered with -32602 and keeps the approval open', () => {
    const { broker } = approvals();
    void broker.request(params, []);
    let error: unknown;
    try {
      broker.resolve(params, 'allow_session');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { requestId: 'approval_1', choices: ['allow', 'deny'] },
    });
    expect(broker.size).toBe(1);
  });

  it('denies on an error answer, and keeps it open on "method not found" for approval/resolve', async () => {
    const { broker, logs } = approvals();
    const a = peer(1);
    const denied = broker.request(params, [a]);
    a.answer(Promise.reject(new RpcError(ErrorCode.InternalError, 'Internal error: storage is full')));
    expect((await denied).outcome).toBe('deny');
    const b = peer(2);
    const open = broker.request({ ...params, requestId: 'approval_2' }, [b]);
    b.answer(Promise.reject(RpcError.methodNotFound('approval/request')));
    await new Promise((r) => setTimeout(r, 0));
    expect(broker.size).toBe(1);
    expect(logs.at(-1)).toMatch(/^approval approval_2: client 2 did not decide \(.*\); waiting for approval\/resolve$/);
    broker.resolve({ ...params, requestId: 'approval_2' }, 'deny');
    expect((await open).outcome).toBe('deny');
  });

  it("withdraws a turn's approvals as cancelled, one by id as timeout, and asks a returning peer again", async () => {
    const { broker, resolved } = approvals();
    const p = peer();
    const other = { ...params, requestId: 'approval_2', turnId: 'turn_3' };
    const third = { ...params, requestId: 'approval_3', turnId: 'turn_3' };
    const settled: Promise<ApprovalSettlement>[] = [
      broker.request(params, [p]),
      broker.request(other, [p]),
      broker.request(third, []),
    ];
    broker.dropPeer(p);
    broker.ask('approval_1', p);
    expect(p.asked).toBe(3);
    broker.cancelTurn('turn_2');
    broker.withdrawById('approval_2', 'timeout');
    broker.withdraw('cancelled');
    expect((await Promise.all(settled)).map((s) => s.outcome)).toEqual(['cancelled', 'timeout', 'cancelled']);
    expect(resolved).toEqual(['approval_1 cancelled', 'approval_2 timeout', 'approval_3 cancelled']);
    expect(broker.forThread('thread_1')).toEqual([]);
  });
});
