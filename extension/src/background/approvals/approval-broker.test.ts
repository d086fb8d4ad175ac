import { RpcError, type ApprovalDecision } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { ApprovalChoice, Notice, PendingApproval } from '../../shared/records';
import { ApprovalBroker, ApprovalDecisionError, type ApprovalAsk } from './approval-broker';
import { PersistentState } from '../views/persistent-state';
import { MemoryStorageArea } from '../test-helpers';

async function setup(tabs: Record<number, string> = { 1: 'https://a.example/page', 2: 'https://b.example/x' }) {
  const storage = { local: new MemoryStorageArea(), session: new MemoryStorageArea() };
  const state = new PersistentState(storage);
  await state.load();
  const changes: number[] = [];
  const notices: Array<{ tabId: number; notice: Notice }> = [];
  const remote: Array<{ approval: PendingApproval; decision: ApprovalDecision }> = [];
  let ids = 0;
  const deps = {
    state,
    tabForThread: (threadId: string) => state.tabsForThread(threadId)[0],
    tabUrl: async (tabId: number) => tabs[tabId],
    onChange: (tabId: number) => changes.push(tabId),
    onNotice: (tabId: number, notice: Notice) => notices.push({ tabId, notice }),
    resolveRemote: async (approval: PendingApproval, decision: ApprovalDecision) => {
      remote.push({ approval, decision });
    },
    now: () => 1000,
    newId: () => `rule-${++ids}`,
  };
  return { storage, state, broker: new ApprovalBroker(deps), deps, changes, notices, remote };
}

/** Binds tab 1 to thread t1, asks once and answers the card with `choice`; resolves with what the ask resolved to. */
async function firstAnswer(
  { state, broker }: Pick<Awaited<ReturnType<typeof setup>>, 'state' | 'broker'>,
  choice: ApprovalChoice,
): Promise<ApprovalDecision> {
  await state.setBinding(1, { threadId: 't1' });
  const first = broker.ask(ask());
  await settle();
  await broker.decide(broker.pendingForTab(1)[0]!.key, choice, 1);
  return first;
}

const ask = (over: Partial<ApprovalAsk> = {}): ApprovalAsk => ({
  source: 'client-tool',
  threadId: 't1',
  turnId: 'u1',
  requestId: 'c1',
  toolName: 'page_read',
  preview: 'Read this page',
  choices: ['allow', 'allow_session', 'deny'],
  page: { toolClass: 'read', highRisk: [] },
  ...over,
});

/** The backend's approval of a tool acting on the machine: no page part. */
const serverAsk = (over: Partial<ApprovalAsk> = {}): ApprovalAsk => {
  const { page: _, ...rest } = ask({ source: 'server', toolName: 'bash', ...over });
  return rest;
};

/** A page action on tab 1's page of class `toolClass`, high-risk for `highRisk` reasons. */
const pageAsk = (toolName: string, toolClass: 'read' | 'act' | 'navigate', over: Partial<ApprovalAsk> = {}) =>
  ask({ toolName, requestId: `${toolName}-${over.requestId ?? 'c'}`, page: { toolClass, highRisk: [] }, ...over });

/** Resolves with the ask's decision if something decided it at once, or 'waiting' when the user was asked. */
const decidedAtOnce = (p: Promise<ApprovalDecision>) => Promise.race([p, settle().then(() => 'waiting' as const)]);

/** Lets the broker's storage writes settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

/**
 * A server approval (`a1`, tab 1) asked before a worker restart, and a new broker over the same storage: the
 * original request died with the old worker.
 */
async function restartWithServerApproval() {
  const { storage, state, broker } = await setup();
  await state.setBinding(1, { threadId: 't1' });
  void broker.ask(serverAsk({ requestId: 'a1' }));
  await settle();
  const restarted = await setup();
  const state2 = new PersistentState(storage);
  await state2.load();
  const broker2 = new ApprovalBroker({
    ...restarted.deps,
    state: state2,
    tabForThread: (threadId) => state2.tabsForThread(threadId)[0],
  });
  return { restarted, broker2 };
}

describe('ApprovalBroker', () => {
  it('shows an approval only to the tab bound to the asking thread', async () => {
    const { state, broker, changes } = await setup();
    await state.setBinding(1, { threadId: 't0' });
    await state.setBinding(2, { threadId: 't1' });
    void broker.ask(ask());
    await settle();
    expect(broker.pendingForTab(2).map((p) => p.origin)).toEqual(['https://b.example']);
    expect(broker.pendingForTab(1)).toEqual([]);
    expect(changes).toEqual([2]);
  });

  it('refuses a decision coming from another tab', async () => {
    const { state, broker } = await setup();
    await state.setBinding(2, { threadId: 't1' });
    void broker.ask(ask());
    await settle();
    const [p] = broker.pendingForTab(2);
    await expect(broker.decide(p!.key, 'allow', 1)).rejects.toBeInstanceOf(ApprovalDecisionError);
    await expect(broker.decide(p!.key, 'allow', null)).rejects.toThrow(/tab that asked/);
    expect(broker.pendingForTab(2)).toHaveLength(1);
  });

  it('remembers "always allow on this site" and answers the next request at once, naming the rule', async () => {
    const { state, broker, notices } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    const first = broker.ask(ask());
    await settle();
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'always_allow_site', 1);
    expect(await first).toBe('allow');
    expect(state.rules()).toMatchObject([{ origin: 'https://a.example', toolClass: 'read', decision: 'allow' }]);

    expect(await broker.ask(ask({ requestId: 'c2', turnId: 'u2' }))).toBe('allow');
    expect(broker.pendingForTab(1)).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.notice).toMatchObject({ kind: 'rule-decided', toolName: 'page_read', rule: { id: 'rule-1' } });
  });

  it('asks again once the rule is revoked, and a rule on one site does not apply to another', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setBinding(2, { threadId: 't2' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
    ]);
    expect(await broker.ask(ask())).toBe('allow');
    void broker.ask(ask({ threadId: 't2', requestId: 'c9' }));
    await settle();
    expect(broker.pendingForTab(2)).toHaveLength(1);
    await state.setRules([]);
    void broker.ask(ask({ requestId: 'c3' }));
    await settle();
    expect(broker.pendingForTab(1)).toHaveLength(1);
  });

  it('applies "always deny on this site" as deny, now and next time', async () => {
    const { state, broker } = await setup();
    expect(await firstAnswer({ state, broker }, 'always_deny_site')).toBe('deny');
    expect(await broker.ask(ask({ requestId: 'c2' }))).toBe('deny');
  });

  it('never lets a site rule decide a server approval: a forged rule for bash, or a rule matching its tool name, is ignored', async () => {
    const { storage, state, broker } = await setup();
    const rule = (id: string, toolName: string) => ({
      id,
      origin: 'https://a.example',
      toolName,
      decision: 'allow',
      createdAtMs: 0,
    });
    // Written into storage by hand, as anything with access to the profile could, then loaded by a restarted worker.
    await storage.local.set({
      'tether.siteRules': [
        rule('forged', 'bash'),
        rule('page', 'page_read'),
        { id: 'class', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
      ],
    });
    await state.load();
    await state.setBinding(1, { threadId: 't1' });
    void broker.ask(serverAsk({ requestId: 'a1' }));
    // A backend may give a machine tool a page tool's name; the source decides, not the name.
    void broker.ask(serverAsk({ toolName: 'page_read', requestId: 'a2' }));
    // Nor does a page part on a server approval let a rule decide it.
    void broker.ask(ask({ source: 'server', toolName: 'page_read', requestId: 'a3' }));
    await settle();
    expect(broker.pendingForTab(1).map((p) => p.requestId)).toEqual(['a1', 'a2', 'a3']);
  });

  it('refuses "always allow/deny on this site" for a server approval, stores no rule and keeps it pending', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    const pending = broker.ask(serverAsk({ requestId: 'a1' }));
    await settle();
    const [p] = broker.pendingForTab(1);
    for (const choice of ['always_allow_site', 'always_deny_site'] as const) {
      const refused = broker.decide(p!.key, choice, 1);
      await expect(refused).rejects.toBeInstanceOf(ApprovalDecisionError);
      await expect(refused).rejects.toThrow(
        /"bash" acts on your computer, not on a site, so no site rule can cover it/,
      );
    }
    expect(state.rules()).toEqual([]);
    expect(broker.pendingForTab(1)).toHaveLength(1);
    await broker.decide(p!.key, 'deny', 1);
    expect(await pending).toBe('deny');
  });

  it('limits "allow for this thread" of a page tool to the origin it was granted on', async () => {
    const tabs: Record<number, string> = { 1: 'https://a.example/page' };
    const { state, broker } = await setup(tabs);
    expect(await firstAnswer({ state, broker }, 'allow_session')).toBe('allow_session');
    tabs[1] = 'https://b.example/elsewhere';
    void broker.ask(ask({ requestId: 'c2' }));
    await settle();
    expect(broker.pendingForTab(1)).toMatchObject([{ requestId: 'c2', origin: 'https://b.example' }]);
    tabs[1] = 'https://a.example/other';
    expect(await broker.ask(ask({ requestId: 'c3' }))).toBe('allow');
  });

  it('asks again on every site when a thread grant was stored without an origin (before grants were limited to one)', async () => {
    const { storage, state, broker } = await setup();
    await storage.session.set({ 'tether.sessionAllows': { t1: ['page_read'] } });
    await state.load();
    await state.setBinding(1, { threadId: 't1' });
    void broker.ask(ask());
    await settle();
    expect(broker.pendingForTab(1)).toHaveLength(1);
  });

  it('allows a client tool for the rest of the thread after "allow for this thread"', async () => {
    const { state, broker } = await setup();
    expect(await firstAnswer({ state, broker }, 'allow_session')).toBe('allow_session');
    expect(await broker.ask(ask({ requestId: 'c2' }))).toBe('allow');
    // The grant covers the class (reading), not just the tool that asked...
    expect(await broker.ask(pageAsk('page_screenshot', 'read'))).toBe('allow');
    // ...and no other class: acting on the same page asks.
    expect(await decidedAtOnce(broker.ask(pageAsk('page_click', 'act')))).toBe('waiting');
  });

  it('lets an "always deny on this site" rule win over "allow for this thread" when the tab moves to that site', async () => {
    const tabs: Record<number, string> = { 1: 'https://a.example/page' };
    const { state, broker } = await setup(tabs);
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://bank.example', toolClass: 'read', decision: 'deny', createdAtMs: 0 },
    ]);
    const first = broker.ask(ask());
    await settle();
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'allow_session', 1);
    expect(await first).toBe('allow_session');
    tabs[1] = 'https://bank.example/accounts';
    expect(await broker.ask(ask({ requestId: 'c2' }))).toBe('deny');
    tabs[1] = 'https://a.example/other';
    expect(await broker.ask(ask({ requestId: 'c3' }))).toBe('allow');
  });

  it('denies at once when no tab shows the thread', async () => {
    const { broker } = await setup();
    expect(await broker.ask(ask({ threadId: 'nobody' }))).toBe('deny');
  });

  it('drops an approval the server withdrew and clears the tab', async () => {
    const { state, broker, changes } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    const pending = broker.ask(serverAsk({ requestId: 'a1' }));
    await settle();
    await broker.withdraw({ threadId: 't1', requestId: 'a1' });
    expect(await pending).toBe('deny');
    expect(broker.pendingForTab(1)).toEqual([]);
    expect(changes).toEqual([1, 1]);
  });

  it('answers a server approval through approval/resolve after a worker restart', async () => {
    const { restarted, broker2 } = await restartWithServerApproval();
    const [p] = broker2.pendingForTab(1);
    expect(p).toMatchObject({ requestId: 'a1', toolName: 'bash' });
    await broker2.decide(p!.key, 'allow', 1);
    expect(restarted.remote).toMatchObject([{ approval: { requestId: 'a1' }, decision: 'allow' }]);
    expect(broker2.pendingForTab(1)).toEqual([]);
  });

  it("denies a closed tab's approvals, through approval/resolve when the original request died with an old worker", async () => {
    const { restarted, broker2 } = await restartWithServerApproval();
    const live = broker2.ask(ask({ requestId: 'c2' }));
    await settle();
    expect(broker2.pendingForTab(1).map((p) => p.requestId)).toEqual(['a1', 'c2']);
    await broker2.tabClosed(1);
    expect(await live).toBe('deny');
    expect(restarted.remote).toMatchObject([{ approval: { requestId: 'a1' }, decision: 'deny' }]);
    expect(broker2.pendingForTab(1)).toEqual([]);
  });

  it('keeps a server approval pending when approval/resolve cannot reach the host, so the user can decide again', async () => {
    const { state, broker, deps } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    void broker.ask(serverAsk({ requestId: 'a1' }));
    void broker.ask(serverAsk({ requestId: 'a2' }));
    await settle();
    await broker.forgetConnection();

    const sent: string[] = [];
    const failures = [new Error('Not connected to the Tether host'), RpcError.approvalNotFound('a2')];
    const broker2 = new ApprovalBroker({
      ...deps,
      resolveRemote: async (approval, decision) => {
        const failure = failures.shift();
        if (failure) throw failure;
        sent.push(`${approval.requestId}:${decision}`);
      },
    });
    const [a1, a2] = broker2.pendingForTab(1);
    await expect(broker2.decide(a1!.key, 'allow', 1)).rejects.toThrow(/Not connected/);
    expect(broker2.pendingForTab(1).map((a) => a.requestId)).toEqual(['a1', 'a2']);
    await expect(broker2.decide(a2!.key, 'deny', 1)).rejects.toThrow(/not found or already resolved/);
    expect(broker2.pendingForTab(1).map((a) => a.requestId)).toEqual(['a1']);
    expect(await broker2.decide(a1!.key, 'allow', 1)).toBe('allow');
    expect(sent).toEqual(['a1:allow']);
    expect(broker2.pendingForTab(1)).toEqual([]);
  });

  it('forgets client-tool approvals when their connection is gone but keeps server ones', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    const tool = broker.ask(ask());
    void broker.ask(serverAsk({ requestId: 'a1' }));
    await settle();
    await broker.forgetConnection();
    expect(await tool).toBe('deny');
    expect(broker.pendingForTab(1).map((p) => p.source)).toEqual(['server']);
  });

  it('refuses a site rule or a thread grant for a page without a web origin', async () => {
    const { state, broker } = await setup({ 1: 'chrome://settings' });
    await state.setBinding(1, { threadId: 't1' });
    void broker.ask(ask());
    await settle();
    const [p] = broker.pendingForTab(1);
    expect(p!.origin).toBe('(no site)');
    await expect(broker.decide(p!.key, 'always_allow_site', 1)).rejects.toThrow(/no web origin/);
    await expect(broker.decide(p!.key, 'allow_session', 1)).rejects.toThrow(
      /no web origin, so a grant for the thread could not be limited/,
    );
  });
  it('lets a rule for reading a site cover page_read and page_snapshot there, but not page_click', async () => {
    const { state, broker, notices } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
    ]);
    expect(await broker.ask(pageAsk('page_read', 'read'))).toBe('allow');
    expect(await broker.ask(pageAsk('page_snapshot', 'read'))).toBe('allow');
    expect(await decidedAtOnce(broker.ask(pageAsk('page_click', 'act')))).toBe('waiting');
    expect(broker.pendingForTab(1).map((p) => p.toolName)).toEqual(['page_click']);
    expect(notices.map((n) => n.notice)).toMatchObject([
      { kind: 'rule-decided', toolName: 'page_read', rule: { id: 'r' } },
      { kind: 'rule-decided', toolName: 'page_snapshot', rule: { id: 'r' } },
    ]);
  });

  it('remembers "always allow" for the class of the card, so the rule covers the other tools of that class', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    const first = broker.ask(pageAsk('page_click', 'act'));
    await settle();
    await broker.decide(broker.pendingForTab(1)[0]!.key, 'always_allow_site', 1);
    expect(await first).toBe('allow');
    expect(state.rules()).toMatchObject([{ origin: 'https://a.example', toolClass: 'act', decision: 'allow' }]);
    expect(await broker.ask(pageAsk('page_type', 'act'))).toBe('allow');
    expect(await decidedAtOnce(broker.ask(pageAsk('page_read', 'read')))).toBe('waiting');
  });

  it('asks about a high-risk action every time, under an allow rule or a thread grant, offering only allow and deny', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'act', decision: 'allow', createdAtMs: 0 },
    ]);
    await state.addThreadAllow('t1', { toolClass: 'act', origin: 'https://a.example' });
    const risky = { toolClass: 'act' as const, highRisk: ['It types into a password field.'] };
    const asked = broker.ask(pageAsk('page_type', 'act', { page: risky }));
    expect(await decidedAtOnce(asked)).toBe('waiting');
    const [p] = broker.pendingForTab(1);
    expect(p!.page).toEqual(risky);
    for (const choice of ['allow_session', 'always_allow_site', 'always_deny_site'] as const)
      await expect(broker.decide(p!.key, choice, 1)).rejects.toBeInstanceOf(ApprovalDecisionError);
    expect(state.rules().map((r) => r.id)).toEqual(['r']);
    expect(state.threadAllows('t1')).toEqual([{ toolClass: 'act', origin: 'https://a.example' }]);
    await broker.decide(p!.key, 'allow', 1);
    expect(await asked).toBe('allow');
    // The same action without risk is still covered by the rule and the grant.
    expect(await broker.ask(pageAsk('page_type', 'act', { requestId: 'c2' }))).toBe('allow');
  });

  it('denies a high-risk action at once under an "always deny" rule', async () => {
    const { state, broker, notices } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'act', decision: 'deny', createdAtMs: 0 },
    ]);
    const risky = { toolClass: 'act' as const, highRisk: ['It starts a download.'] };
    expect(await broker.ask(pageAsk('page_click', 'act', { page: risky }))).toBe('deny');
    expect(notices).toMatchObject([{ notice: { kind: 'rule-decided', rule: { id: 'r' } } }]);
    expect(broker.pendingForTab(1)).toEqual([]);
  });

  it('decides opening a page for the destination origin: a rule for one site never opens another', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'navigate', decision: 'allow', createdAtMs: 0 },
    ]);
    const toB = broker.ask(pageAsk('page_navigate', 'navigate', { origin: 'https://b.example/start' }));
    expect(await decidedAtOnce(toB)).toBe('waiting');
    const [p] = broker.pendingForTab(1);
    // Tab 1 shows a.example; the card and any rule made from it are about b.example.
    expect(p!.origin).toBe('https://b.example');
    await broker.decide(p!.key, 'always_allow_site', 1);
    expect(state.rules()).toMatchObject([
      { origin: 'https://a.example', toolClass: 'navigate' },
      { origin: 'https://b.example', toolClass: 'navigate', decision: 'allow' },
    ]);
    expect(
      await broker.ask(pageAsk('page_navigate', 'navigate', { requestId: 'c2', origin: 'https://a.example/x' })),
    ).toBe('allow');
  });

  it('calls onAsk only when the user is asked, not when a rule or grant decides', async () => {
    const { state, broker } = await setup();
    await state.setBinding(1, { threadId: 't1' });
    await state.setRules([
      { id: 'r', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
    ]);
    const calls: string[] = [];
    await broker.ask(pageAsk('page_read', 'read', { onAsk: () => calls.push('read') }));
    void broker.ask(pageAsk('page_click', 'act', { onAsk: () => calls.push('click') }));
    await settle();
    expect(calls).toEqual(['click']);
  });
});
