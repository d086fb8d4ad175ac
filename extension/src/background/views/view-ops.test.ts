import { describe, expect, it } from 'vitest';
import { WorkerToView } from '../../shared/messages';
import { resultSchema } from '../../shared/operations';
import { fakeWorker } from '../test-helpers';
import { runViewOp, ViewCallError } from './view-ops';
import type { View } from './views';

async function setup() {
  const { worker, state } = await fakeWorker();
  const sent: WorkerToView[] = [];
  const view = (kind: View['kind'], tabId: number | null): View => {
    const v: View = { id: 1, kind, tabId, send: (m) => sent.push(m) };
    worker.views.add(v);
    return v;
  };
  return { state, worker, view, sent };
}

describe('runViewOp', () => {
  it('rejects an operation that is not in the table', async () => {
    const { worker, view } = await setup();
    await expect(runViewOp(worker, view('sidepanel', 1), 'eval', {})).rejects.toThrow('Unknown operation "eval"');
  });

  it('rejects malformed params before any handler runs', async () => {
    const { worker, view } = await setup();
    await expect(
      runViewOp(worker, view('sidepanel', 1), 'approval/decide', { key: 'k', choice: 'allow_forever' }),
    ).rejects.toThrow(/Invalid parameters for approval\/decide/);
  });

  it('refuses tab-scoped operations from the options page', async () => {
    const { worker, view } = await setup();
    await expect(runViewOp(worker, view('options', null), 'thread/new', {})).rejects.toBeInstanceOf(ViewCallError);
    await expect(
      runViewOp(worker, view('options', null), 'approval/decide', { key: 'k', choice: 'allow' }),
    ).rejects.toThrow(/no longer pending/);
  });

  it('says the host is not connected instead of failing silently', async () => {
    const { worker, view } = await setup();
    await expect(runViewOp(worker, view('sidepanel', 1), 'turn/send', { text: 'hi' })).rejects.toThrow(
      /Not connected to the Tether host/,
    );
  });

  it('revokes a site rule and returns the remaining ones', async () => {
    const { state, worker, view } = await setup();
    await state.setRules([
      { id: 'r1', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
      { id: 'r2', origin: 'https://b.example', toolClass: 'read', decision: 'deny', createdAtMs: 0 },
    ]);
    const result = resultSchema('rules/revoke').parse(
      await runViewOp(worker, view('options', null), 'rules/revoke', { id: 'r1' }),
    );
    expect(result.rules.map((r) => r.id)).toEqual(['r2']);
    await expect(runViewOp(worker, view('options', null), 'rules/revoke', { id: 'r1' })).rejects.toThrow(
      /no longer exists/,
    );
  });

  it('unbinds the tab on "new thread" and tells its pages', async () => {
    const { state, worker, view, sent } = await setup();
    await state.setBinding(3, { threadId: 't' });
    await runViewOp(worker, view('sidepanel', 3), 'thread/new', {});
    expect(state.binding(3)).toBeUndefined();
    expect(sent).toContainEqual({ type: 'snapshot', thread: null, items: [] });
  });

  it('answers with values its result rows accept, as the page parses them', async () => {
    const { state, worker, view } = await setup();
    await state.setRules([
      { id: 'r1', origin: 'https://a.example', toolClass: 'read', decision: 'allow', createdAtMs: 0 },
    ]);
    await state.logConnectionError({ atMs: 1, message: 'Specified native messaging host not found.' });
    const options = view('options', null);
    for (const op of ['state/get', 'rules/list', 'diagnostics/get'] as const) {
      expect(resultSchema(op).safeParse(await runViewOp(worker, options, op, {})).error).toBeUndefined();
    }
    expect(
      resultSchema('settings/set').parse(await runViewOp(worker, options, 'settings/set', { model: 'm' })),
    ).toEqual({ model: 'm' });
  });

  it("sends a page saying hello only messages of the page's table: state, the tab's approvals, hand-overs and page, its thread", async () => {
    const { worker, view, sent } = await setup();
    await worker.welcome(view('sidepanel', 2));
    expect(sent.map((m) => m.type)).toEqual(['state', 'approvals', 'handovers', 'tab', 'snapshot']);
    expect(sent).toContainEqual({ type: 'tab', title: 'A', url: 'https://a.example/' });
    for (const m of sent) expect(WorkerToView.safeParse(m).error).toBeUndefined();
  });
});
