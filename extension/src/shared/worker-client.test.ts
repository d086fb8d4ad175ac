import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkerPush } from './messages';
import { WorkerCallError, WorkerClient } from './worker-client';

/** The worker's end of a page's Port: records what the page posts and lets the test answer. */
class FakeWorkerPort {
  readonly posted: Array<{ type: string; id?: number; op?: string }> = [];
  private listener: ((message: unknown) => void) | undefined;
  readonly onMessage = { addListener: (l: (message: unknown) => void) => void (this.listener = l) };
  readonly onDisconnect = { addListener: () => {} };
  postMessage(message: { type: string; id?: number; op?: string }): void {
    this.posted.push(message);
  }
  push(message: unknown): void {
    this.listener?.(message);
  }
  lastCallId(): number {
    const call = this.posted.filter((m) => m.type === 'call').at(-1);
    if (call?.id === undefined) throw new Error('no call posted');
    return call.id;
  }
}

describe('WorkerClient', () => {
  let port: FakeWorkerPort;
  beforeEach(() => {
    port = new FakeWorkerPort();
    vi.stubGlobal('chrome', { runtime: { connect: () => port } });
    vi.useFakeTimers(); // the keep-alive ping
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function started(): WorkerClient {
    const client = new WorkerClient('sidepanel', 4);
    client.start();
    return client;
  }

  it('says hello, then resolves a call with the result its row describes', async () => {
    const client = started();
    expect(port.posted[0]).toEqual({ type: 'hello', view: 'sidepanel', tabId: 4 });
    const answer = client.call('rules/list', {});
    port.push({ type: 'result', id: port.lastCallId(), result: { rules: [] } });
    expect(await answer).toEqual({ rules: [] });
  });

  it("rejects an answer that does not fit the operation's result row, saying which operation", async () => {
    const client = started();
    const answer = client.call('turn/send', { text: 'hi' });
    port.push({ type: 'result', id: port.lastCallId(), result: { threadId: 't' } });
    await expect(answer).rejects.toThrow(/answered turn\/send with something this page cannot read/);
  });

  it("rejects with the worker's error and code", async () => {
    const client = started();
    const answer = client.call('thread/new', {});
    port.push({
      type: 'error',
      id: port.lastCallId(),
      error: { message: 'This page is not attached to a tab.', code: -32600 },
    });
    await expect(answer).rejects.toEqual(new WorkerCallError('This page is not attached to a tab.', -32600));
  });

  it('keeps pushed messages until the page subscribes, and drops one that does not fit the table', () => {
    const client = started();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const delta = {
      method: 'item/agentMessage/delta',
      params: { threadId: 't', turnId: 'u', itemId: 'i', delta: 'x' },
    };
    port.push({ type: 'events', events: [delta] });
    port.push({ type: 'events', events: [{ ...delta, params: { threadId: 't' } }] });
    port.push({ type: 'approvals', approvals: [] });
    const seen: WorkerPush[] = [];
    client.onMessage((m) => seen.push(m));
    expect(seen).toEqual([
      { type: 'events', events: [delta] },
      { type: 'approvals', approvals: [] },
    ]);
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
