/** Answers to `approval/request` that decide nothing valid: each is a deny, said in the log and in the tool result. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalDecision, ApprovalRequestParams } from '@tether/protocol';
import { type ApprovalPeer, Approvals, type ApprovalSettlement } from '../session/approvals';
import { createHarness, seedIds, type Harness } from './testing/harness';
import { RawClient } from './testing/raw-client';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

type Wire = Record<string, unknown>;

/** Runs `/bash echo never` and answers its approval request with `answer` (the literal wire message, minus the id). */
async function answerApproval(answer: object): Promise<{ after: Wire[]; logs: string[] }> {
  harness = createHarness({ persistent: false, config: { newId: seedIds(), cwd: '/' } });
  const raw = new RawClient(harness.server);
  const logs = harness.logs;
  await raw.call({ id: 1, method: 'initialize', params: { clientInfo: { name: 'test', version: '1' } } });
  raw.send({ method: 'initialized' });
  await raw.call({ id: 2, method: 'thread/start', params: { title: 't' } });
  raw.send({ id: 3, method: 'turn/start', params: { threadId: 'thread_1', input: [{ text: '/bash echo never' }] } });
  const asked = (await raw.take((m) => m.method === 'approval/request')).at(-1)!;
  raw.send({ id: asked.id, ...answer });
  const after = await raw.take((m) => m.method === 'turn/completed');
  return { after, logs };
}

const toolItem = (after: Wire[]): unknown =>
  after
    .map((m) => (m.params as { item?: { type: string } } | undefined)?.item)
    .find((item) => item?.type === 'toolCall');

describe('an approval/request answer that decides nothing valid', () => {
  it.each([
    [
      'an unknown decision',
      { result: { decision: 'yes' } },
      /-32603 "Invalid result for approval\/request from the peer at decision/,
    ],
    [
      'a result without a decision',
      { result: {} },
      /-32603 "Invalid result for approval\/request from the peer at decision/,
    ],
    [
      'a result that is not an object',
      { result: 'allow' },
      /-32603 "Invalid result for approval\/request from the peer/,
    ],
    [
      'an error answer',
      { error: { code: -32603, message: 'Internal error: storage is full' } },
      /-32603 "Internal error: storage is full"/,
    ],
  ])('denies the call on %s, and says so in the log and the tool result', async (_, answer, problem) => {
    const { after, logs } = await answerApproval(answer);
    expect(after).toContainEqual({
      method: 'approval/resolved',
      params: { threadId: 'thread_1', turnId: 'turn_1', requestId: 'approval_1', decision: 'deny' },
    });
    expect(toolItem(after)).toMatchObject({
      status: 'declined',
      content: { status: 'declined', error: expect.stringMatching(problem) },
    });
    expect(toolItem(after)).toMatchObject({
      content: {
        error: expect.stringMatching(
          /^The client's answer to the approval request was not a valid decision \(.*\), so the call was denied\.$/,
        ),
      },
    });
    expect(logs.filter((l) => l.startsWith('approval approval_1: client'))).toEqual([expect.stringMatching(problem)]);
    expect(logs.find((l) => l.startsWith('approval approval_1: client'))).toMatch(/; treated as deny$/);
    expect(after.at(-1)).toMatchObject({ method: 'turn/completed', params: { turn: { status: 'completed' } } });
  });
});

describe('a client without an approval/request handler', () => {
  it('keeps the approval open on "method not found" and lets approval/resolve decide it', async () => {
    harness = createHarness({ persistent: false, config: { newId: seedIds(), cwd: '/' } });
    const raw = new RawClient(harness.server);
    await raw.call({ id: 1, method: 'initialize', params: { clientInfo: { name: 'test', version: '1' } } });
    raw.send({ method: 'initialized' });
    await raw.call({ id: 2, method: 'thread/start', params: { title: 't' } });
    raw.send({
      id: 3,
      method: 'turn/start',
      params: { threadId: 'thread_1', input: [{ text: '/bash echo resolved-later' }] },
    });
    const asked = (await raw.take((m) => m.method === 'approval/request')).at(-1)!;
    raw.send({ id: asked.id, error: { code: -32601, message: 'Method not found: approval/request' } });
    const waiting = /^approval approval_1: client \d+ did not decide \(.*\); waiting for approval\/resolve$/;
    await vi.waitFor(() => expect(harness!.logs).toContainEqual(expect.stringMatching(waiting)));
    const ref = { threadId: 'thread_1', turnId: 'turn_1', requestId: 'approval_1' };
    const during = await raw.call({ id: 4, method: 'approval/resolve', params: { ...ref, decision: 'allow' } });
    expect(during.at(-1)).toMatchObject({ id: 4, result: {} });
    const done = during.some((m) => m.method === 'turn/completed');
    const after = [...during, ...(done ? [] : await raw.take((m) => m.method === 'turn/completed'))];
    expect(after).toContainEqual({ method: 'approval/resolved', params: { ...ref, decision: 'allow' } });
    expect(toolItem(after)).toMatchObject({ status: 'completed' });
  });
});

/** A client connection that answers every approval request with `decision`. */
function answeringPeer(decision: ApprovalDecision): ApprovalPeer {
  return { id: 7, isOpen: true, request: () => Promise.resolve({ decision }) };
}

describe('Approvals', () => {
  it('denies an approval answered with a decision that was not offered, and emits it as resolved', async () => {
    const resolved: string[] = [];
    const logs: string[] = [];
    const registry = new Approvals(
      (params, outcome) => resolved.push(`${params.requestId} ${outcome}`),
      (l) => logs.push(l),
    );
    const params: ApprovalRequestParams = {
      threadId: 'thread_1',
      turnId: 'turn_1',
      requestId: 'approval_9',
      toolName: 'bash',
      preview: 'Run `ls`',
      choices: ['allow', 'deny'],
    };
    const settlement: ApprovalSettlement = await registry.request(params, [answeringPeer('allow_session')]);
    expect(settlement).toEqual({
      outcome: 'deny',
      reason:
        'The client\'s answer to the approval request was not a valid decision (decision "allow_session", which was not offered (choices: allow, deny)), so the call was denied.',
    });
    expect(resolved).toEqual(['approval_9 deny']);
    expect(logs).toEqual([
      'approval approval_9: client 7 answered decision "allow_session", which was not offered (choices: allow, deny); treated as deny',
    ]);
  });
});
