import type { ApprovalDecision } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { offeredChoices } from '../../shared/approval-choices';
import type { Notice } from '../../shared/records';
import { MemoryStorageArea } from '../test-helpers';
import { PersistentState } from '../views/persistent-state';
import { type ApprovalAsk, ApprovalBroker, ApprovalDecisionError, stopReasonOf } from './approval-broker';

/** A broker over memory storage with tab 1 showing thread t1 on https://a.example. */
async function setup() {
  const state = new PersistentState({ local: new MemoryStorageArea(), session: new MemoryStorageArea() });
  await state.load();
  await state.setBinding(1, { threadId: 't1' });
  const notices: Notice[] = [];
  const clock = { ms: 1000 };
  const broker = new ApprovalBroker({
    state,
    tabForThread: (threadId) => state.tabsForThread(threadId)[0],
    tabUrl: async () => 'https://a.example/page',
    onChange: () => undefined,
    onNotice: (_tab, notice) => notices.push(notice),
    resolveRemote: async () => undefined,
    now: () => clock.ms,
    newId: () => 'rule-1',
  });
  return { state, broker, notices, clock };
}

const inspector = { name: 'mcp-inspector', version: '1.0.3', connection: 'conn-a' };
const claude = { name: 'claude-code', version: '2.1.44', connection: 'conn-b' };

const ask = (over: Partial<ApprovalAsk> = {}): ApprovalAsk => ({
  source: 'client-tool',
  threadId: 't1',
  turnId: '',
  requestId: 'c1',
  toolName: 'page_click',
  preview: 'Click button "Buy"',
  choices: ['allow', 'allow_session', 'deny'],
  page: { toolClass: 'act', highRisk: [] },
  ...over,
});

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Resolves with the ask's decision if something decided it at once, or 'waiting' when the user was asked. */
const decidedAtOnce = (p: Promise<ApprovalDecision>) => Promise.race([p, settle().then(() => 'waiting' as const)]);

/** Asks for call `requestId` of `caller`, tracked as the worker tracks it; resolves once its card is up. */
async function asked(broker: ApprovalBroker, requestId: string, caller?: typeof inspector) {
  const call = broker.begin({ threadId: 't1', turnId: '', requestId, external: caller !== undefined });
  const decision = broker.ask(ask({ requestId, signal: call.signal, ...(caller ? { caller } : {}) }));
  await settle();
  return { call, decision };
}

describe('approvals of callers that stop waiting', () => {
  it('withdraws the card, tells the tab who stopped waiting and why, and refuses a late decision', async () => {
    const { broker, notices } = await setup();
    const { call, decision } = await asked(broker, 'c1', inspector);
    const key = broker.pendingForTab(1)[0]!.key;
    await broker.withdraw({ threadId: 't1', requestId: 'c1' }, 'cancelled');
    expect(broker.pendingForTab(1)).toEqual([]);
    expect(call.signal.aborted).toBe(true);
    expect(stopReasonOf(call.signal)).toBe('cancelled');
    expect(await decision).toBe('deny');
    expect(notices).toEqual([
      {
        kind: 'call-withdrawn',
        toolName: 'page_click',
        threadId: 't1',
        summary:
          'mcp-inspector (its own name for itself) stopped waiting for page_click (it cancelled the call): its approval was withdrawn and nothing was done.',
      },
    ]);
    await expect(broker.decide(key, 'allow', 1)).rejects.toBeInstanceOf(ApprovalDecisionError);
  });

  it('stops a call the user already allowed when its caller goes away while it runs', async () => {
    const { broker } = await setup();
    const { call, decision } = await asked(broker, 'c1', inspector);
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'allow', 1);
    expect(await decision).toBe('allow');
    await broker.withdraw({ threadId: 't1', requestId: 'c1' }, 'disconnected');
    expect(stopReasonOf(call.signal)).toBe('disconnected');
  });

  it('stops on arrival a call whose withdrawal overtook it, and never asks about it', async () => {
    const { broker } = await setup();
    await broker.withdraw({ threadId: 't1', requestId: 'c9' }, 'cancelled');
    const call = broker.begin({ threadId: 't1', turnId: '', requestId: 'c9', external: true });
    expect(call.signal.aborted).toBe(true);
    expect(await broker.ask(ask({ requestId: 'c9', signal: call.signal, caller: inspector }))).toBe('deny');
    expect(broker.pendingForTab(1)).toEqual([]);
  });

  it('forgets a withdrawal that no call followed soon: a later call with the same id (a new host) is asked', async () => {
    const { broker, clock } = await setup();
    await broker.withdraw({ threadId: 't1', requestId: 'c9' }, 'cancelled');
    clock.ms += 60_000;
    const call = broker.begin({ threadId: 't1', turnId: '', requestId: 'c9', external: true });
    expect(call.signal.aborted).toBe(false);
  });

  it("withdraws a turn's page tool cards when the turn ends, saying so", async () => {
    const { broker, notices } = await setup();
    const call = broker.begin({ threadId: 't1', turnId: 'u1', requestId: 'c1', external: false });
    void broker.ask(ask({ turnId: 'u1', signal: call.signal }));
    await settle();
    await broker.withdraw({ threadId: 't1', turnId: 'u1' }, 'turn-ended');
    expect(broker.pendingForTab(1)).toEqual([]);
    expect(call.signal.aborted).toBe(true);
    expect(notices.map((n) => (n.kind === 'call-withdrawn' ? n.summary : ''))).toEqual([
      'The agent stopped waiting for page_click (its turn ended): its approval was withdrawn and nothing was done.',
    ]);
  });

  it("withdraws the agents' calls when their backend stops, but not an external client's", async () => {
    const { broker } = await setup();
    const agent = await asked(broker, 'c1');
    const external = await asked(broker, 'c2', inspector);
    await broker.withdraw({ external: false, source: 'client-tool' }, 'backend-stopped');
    expect(agent.call.signal.aborted).toBe(true);
    expect(external.call.signal.aborted).toBe(false);
    expect(broker.pendingForTab(1).map((p) => p.requestId)).toEqual(['c2']);
  });

  it('stops every call in flight when the host connection is lost', async () => {
    const { broker } = await setup();
    const { call } = await asked(broker, 'c1', inspector);
    await broker.forgetConnection();
    expect(stopReasonOf(call.signal)).toBe('disconnected');
  });
});

describe('grants to external clients', () => {
  it('keeps a thread grant to one client for that client: another client, a new connection and the agent still ask', async () => {
    const { broker } = await setup();
    const first = await asked(broker, 'c1', inspector);
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'allow_session', 1);
    expect(await first.decision).toBe('allow_session');

    expect(await broker.ask(ask({ requestId: 'c2', caller: inspector }))).toBe('allow');
    expect(await decidedAtOnce(broker.ask(ask({ requestId: 'c3', caller: claude })))).toBe('waiting');
    const reconnected = { ...inspector, connection: 'conn-c' };
    expect(await decidedAtOnce(broker.ask(ask({ requestId: 'c4', caller: reconnected })))).toBe('waiting');
    expect(await decidedAtOnce(broker.ask(ask({ requestId: 'c5' })))).toBe('waiting');
  });

  it("keeps the thread agent's grant for the agent: an external client on the shared tab still asks", async () => {
    const { broker } = await setup();
    const first = broker.ask(ask());
    await settle();
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'allow_session', 1);
    await first;
    expect(await broker.ask(ask({ requestId: 'c2' }))).toBe('allow');
    expect(await decidedAtOnce(broker.ask(ask({ requestId: 'c3', caller: claude })))).toBe('waiting');
  });

  it("offers no site rule on an external client's card and refuses a forged one; site rules cover every client", async () => {
    const { state, broker } = await setup();
    void broker.ask(ask({ caller: inspector }));
    await settle();
    const card = broker.pendingForTab(1)[0]!;
    expect(offeredChoices(card)).toEqual(['allow', 'allow_session', 'deny']);
    await expect(broker.decide(card.key, 'always_allow_site', 1)).rejects.toThrow('covers every agent and client');
    expect(state.rules()).toEqual([]);

    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'act', decision: 'allow', createdAtMs: 0 },
    ]);
    expect(await broker.ask(ask({ requestId: 'c2', caller: claude }))).toBe('allow');
  });

  it('remembers nothing for a client that names no connection', async () => {
    const { broker } = await setup();
    void broker.ask(ask({ caller: { name: 'old-host-client' } }));
    await settle();
    expect(offeredChoices(broker.pendingForTab(1)[0]!)).toEqual(['allow', 'deny']);
  });
});
