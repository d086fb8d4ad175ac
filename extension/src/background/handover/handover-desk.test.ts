import type { ServerRequestParams, ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { Notice } from '../../shared/records';
import { HandoverAnswerError, HandoverDesk } from './handover-desk';

const TAB = 7;

function params(over: Partial<ServerRequestParams<'item/tool/call'>> = {}): ServerRequestParams<'item/tool/call'> {
  return { threadId: 't1', turnId: 'u1', callId: 'c1', tool: 'page_ask_user', arguments: {}, ...over };
}

function desk(over: { tabForThread?: (threadId: string) => number | undefined; focusFails?: boolean } = {}) {
  const changes: number[] = [];
  const notices: Notice[] = [];
  const focused: number[] = [];
  const logs: string[] = [];
  const d = new HandoverDesk({
    tabForThread: over.tabForThread ?? (() => TAB),
    focusTab: async (tabId) => {
      focused.push(tabId);
      if (over.focusFails) throw new Error('No tab with id');
    },
    onChange: (tabId) => changes.push(tabId),
    onNotice: (_tabId, notice) => notices.push(notice),
    now: () => 42,
    log: (line) => logs.push(line),
  });
  return { d, changes, notices, focused, logs };
}

function textOf(result: ToolCallResult | undefined): string {
  const first = result?.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** Resolves once the request shows in the tab, so a test answers what the user would see. */
async function shown(d: HandoverDesk): Promise<string> {
  await expect.poll(() => d.pendingForTab(TAB).length).toBe(1);
  return d.pendingForTab(TAB)[0]!.key;
}

describe('HandoverDesk', () => {
  it('waits until the user clicks Done, then gives the model their answer in their words', async () => {
    const { d, changes, focused } = desk();
    const asked = d.ask(
      params(),
      { message: 'Please sign in.', answer: 'the 6-digit code' },
      new AbortController().signal,
    );
    const key = await shown(d);
    expect(d.pendingForTab(TAB)).toEqual([
      { key, threadId: 't1', tabId: TAB, message: 'Please sign in.', answerLabel: 'the 6-digit code', createdAtMs: 42 },
    ]);
    expect(focused).toEqual([TAB]);
    let settled = false;
    void asked.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);

    d.answer({ key, outcome: 'done', answer: ' 481 516 ' }, TAB);
    const result = await asked;
    expect(result?.success).toBe(true);
    expect(textOf(result)).toBe('The user clicked "Done": they say they did what you asked. Their answer: "481 516"');
    expect(d.pendingForTab(TAB)).toEqual([]);
    expect(changes).toEqual([TAB, TAB]);
  });

  it("says the user could not do it when they click I can't, and names what they did not type", async () => {
    const { d } = desk();
    const asked = d.ask(params(), { message: 'Solve the CAPTCHA.', answer: 'the code' }, new AbortController().signal);
    d.answer({ key: await shown(d), outcome: 'cannot' }, TAB);
    const result = await asked;
    expect(result?.success).toBe(true);
    expect(textOf(result)).toBe(
      'The user clicked "I can\'t": they could not or would not do it. They did not type the code.',
    );
  });

  it('withdraws the request and gives no answer once the caller stops waiting', async () => {
    const { d, changes, notices } = desk();
    const stop = new AbortController();
    const asked = d.ask(params(), { message: 'Pick a seat.' }, stop.signal);
    const key = await shown(d);
    stop.abort('turn-ended');
    expect(await asked).toBeUndefined();
    expect(d.pendingForTab(TAB)).toEqual([]);
    expect(changes).toEqual([TAB, TAB]);
    expect(notices).toEqual([
      {
        kind: 'call-withdrawn',
        toolName: 'page_ask_user',
        threadId: 't1',
        summary: 'The agent stopped waiting for your answer (its turn ended): its request was withdrawn.',
      },
    ]);
    expect(() => d.answer({ key, outcome: 'done' }, TAB)).toThrow(HandoverAnswerError);
  });

  it('asks nobody for a caller that stopped waiting before the call arrived', async () => {
    const { d, changes, focused } = desk();
    const stop = new AbortController();
    stop.abort('cancelled');
    expect(await d.ask(params(), { message: 'Sign in.' }, stop.signal)).toBeUndefined();
    expect(changes).toEqual([]);
    expect(focused).toEqual([]);
  });

  it('takes a reply only from a page of the tab it was asked in', async () => {
    const { d } = desk();
    const asked = d.ask(params(), { message: 'Sign in.' }, new AbortController().signal);
    const key = await shown(d);
    expect(() => d.answer({ key, outcome: 'done' }, TAB + 1)).toThrow(/only be answered from the tab it was asked in/);
    expect(() => d.answer({ key, outcome: 'done' }, null)).toThrow(HandoverAnswerError);
    expect(d.pendingForTab(TAB)).toHaveLength(1);
    d.answer({ key, outcome: 'done' }, TAB);
    expect(textOf(await asked)).toBe('The user clicked "Done": they say they did what you asked.');
  });

  it('refuses a reply to a request that is not waiting, saying why', () => {
    const { d } = desk();
    expect(() => d.answer({ key: 'handover:t1:nope', outcome: 'done' }, TAB)).toThrow(/no longer waiting/);
  });

  it('fails the call with a reason when no tab shows the conversation', async () => {
    const { d, changes } = desk({ tabForThread: () => undefined });
    const result = await d.ask(params(), { message: 'Sign in.' }, new AbortController().signal);
    expect(result?.success).toBe(false);
    expect(textOf(result)).toMatch(/No browser tab shows this conversation/);
    expect(changes).toEqual([]);
  });

  it('tells the caller the tab closed under the request', async () => {
    const { d } = desk();
    const asked = d.ask(params(), { message: 'Sign in.' }, new AbortController().signal);
    await shown(d);
    d.tabClosed(TAB + 1);
    expect(d.pendingForTab(TAB)).toHaveLength(1);
    d.tabClosed(TAB);
    const result = await asked;
    expect(result?.success).toBe(false);
    expect(textOf(result)).toMatch(/closed the tab before answering/);
  });

  it('names an external client that asks, and records its request and the reply in the transcript', async () => {
    const { d, notices } = desk();
    const caller = { kind: 'mcpClient' as const, name: 'claude-code', version: '2.1', connection: 'conn-1' };
    const asked = d.ask(params({ caller }), { message: 'Approve the invoice.' }, new AbortController().signal);
    const key = await shown(d);
    expect(d.pendingForTab(TAB)[0]?.caller).toEqual({ name: 'claude-code', version: '2.1' });
    d.answer({ key, outcome: 'done', answer: 'approved' }, TAB);
    await asked;
    expect(notices).toEqual([
      {
        kind: 'tool-ran',
        toolName: 'page_ask_user',
        threadId: 't1',
        summary:
          'claude-code (its own name for itself) asked you: "Approve the invoice.". The user clicked "Done": they say they did what you asked. Their answer: "approved"',
      },
    ]);
  });

  it('still asks when the browser cannot bring the tab forward, and logs why', async () => {
    const { d, logs } = desk({ focusFails: true });
    const asked = d.ask(params(), { message: 'Sign in.' }, new AbortController().signal);
    const key = await shown(d);
    await expect.poll(() => logs.length).toBe(1);
    expect(logs[0]).toMatch(/could not bring tab 7 forward/);
    d.answer({ key, outcome: 'done' }, TAB);
    expect((await asked)?.success).toBe(true);
  });

  it('refuses a second request under the same call id while the first waits', async () => {
    const { d } = desk();
    void d.ask(params(), { message: 'Sign in.' }, new AbortController().signal);
    await shown(d);
    const second = await d.ask(params(), { message: 'Again.' }, new AbortController().signal);
    expect(second?.success).toBe(false);
    expect(d.pendingForTab(TAB)).toHaveLength(1);
  });
});
