import type { ToolCallParams } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import { NO_SHARED_TAB, SharedTabs } from './mcp-share';

/** SharedTabs over a browser that answers only when the test says so, recording what it was sent. */
function setup() {
  const sent: Array<{ method: string; params: unknown }> = [];
  const answers: Array<(result: unknown) => void> = [];
  const tabs = new SharedTabs({
    request: (method, params, signal) => {
      sent.push({ method, params });
      return new Promise((resolve, reject) => {
        answers.push(resolve);
        signal.addEventListener('abort', () => reject(new Error('abandoned')));
      });
    },
    notify: (method: string, params: unknown) => sent.push({ method, params }),
    log: () => undefined,
    now: () => 1000,
  });
  return { tabs, sent, answers };
}

const inspector = { name: 'mcp-inspector', version: '1.0.3', connection: 'conn-a' };

describe('SharedTabs', () => {
  it('answers a call without a shared tab with how to share one, sending the browser nothing', async () => {
    const { tabs, sent } = setup();
    const result = await tabs.call('page_read', {}, inspector, new AbortController().signal);
    expect(result).toEqual({ success: false, content: [{ type: 'text', text: NO_SHARED_TAB }] });
    expect(sent).toEqual([]);
  });

  it("names the client and its connection in the browser's item/tool/call, and delivers the answer", async () => {
    const { tabs, sent, answers } = setup();
    tabs.share({ threadId: 'thr_1', shared: true });
    const calling = tabs.call('page_read', { maxChars: 5 }, inspector, new AbortController().signal);
    expect(sent[0]).toEqual({
      method: 'item/tool/call',
      params: {
        threadId: 'thr_1',
        turnId: '',
        callId: expect.stringMatching(/^mcp_external_\d+$/),
        tool: 'page_read',
        arguments: { maxChars: 5 },
        caller: { kind: 'mcpClient', name: 'mcp-inspector', version: '1.0.3', connection: 'conn-a' },
      } satisfies ToolCallParams,
    });
    answers[0]!({ success: true, content: [{ type: 'text', text: 'page text' }] });
    expect(await calling).toEqual({ success: true, content: [{ type: 'text', text: 'page text' }] });
  });

  it('withdraws the call in the browser the moment its client stops waiting, with the reason', async () => {
    const { tabs, sent } = setup();
    tabs.share({ threadId: 'thr_1', shared: true });
    const stop = new AbortController();
    const calling = tabs.call('page_click', { ref: 'e1' }, inspector, stop.signal);
    const { callId } = sent[0]!.params as ToolCallParams;
    stop.abort('disconnected');
    expect(sent[1]).toEqual({
      method: 'item/tool/call/cancelled',
      params: { threadId: 'thr_1', turnId: '', callId, reason: 'disconnected' },
    });
    expect((await calling).success).toBe(false);
  });

  it('lists each connection as a client of its own, by its connection id, until it closes', () => {
    const { tabs, sent } = setup();
    const closeA = tabs.opened(inspector);
    tabs.opened({ name: 'claude-code', version: '2.1.44', connection: 'conn-b' });
    expect(sent.at(-1)).toEqual({
      method: 'bridge/mcp/clients',
      params: {
        clients: [
          { id: 'conn-a', name: 'mcp-inspector', version: '1.0.3', connectedAtMs: 1000 },
          { id: 'conn-b', name: 'claude-code', version: '2.1.44', connectedAtMs: 1000 },
        ],
      },
    });
    closeA();
    expect(sent.at(-1)).toEqual({
      method: 'bridge/mcp/clients',
      params: { clients: [{ id: 'conn-b', name: 'claude-code', version: '2.1.44', connectedAtMs: 1000 }] },
    });
  });
});
