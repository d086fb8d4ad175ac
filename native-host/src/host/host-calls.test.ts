import { describe, expect, it } from 'vitest';
import { HostCalls } from './host-calls';

function setup() {
  const written: Array<{ id: string; method: string }> = [];
  const calls = new HostCalls((text) => written.push(JSON.parse(text) as { id: string; method: string }));
  return { calls, written };
}

const response = (id: string, body: string): Buffer => Buffer.from(`{"id":${JSON.stringify(id)},${body}}`);

describe('HostCalls', () => {
  it("settles a request with the browser's result or error", async () => {
    const { calls, written } = setup();
    const ok = calls.request('item/tool/call', { tool: 'page_read' });
    const refused = calls.request('item/tool/call', { tool: 'page_click' });
    calls.settle(JSON.stringify(written[0]!.id), response(written[0]!.id, '"result":{"success":true}'));
    calls.settle(JSON.stringify(written[1]!.id), response(written[1]!.id, '"error":{"code":1,"message":"no"}'));
    expect(await ok).toEqual({ success: true });
    await expect(refused).rejects.toThrow('no');
  });

  it('forgets a request whose caller stopped waiting, and claims its late answer so it reaches no backend', async () => {
    const { calls, written } = setup();
    const stop = new AbortController();
    const calling = calls.request('item/tool/call', {}, stop.signal);
    stop.abort();
    await expect(calling).rejects.toThrow('stopped waiting');
    const rawId = JSON.stringify(written[0]!.id);
    expect(calls.owns(rawId)).toBe(true);
    calls.settle(rawId, response(written[0]!.id, '"result":{"success":true}'));
    expect(calls.owns('"req_7"')).toBe(false);
    expect(calls.owns('7')).toBe(false);
  });

  it('sends nothing for a request abandoned before it was sent', async () => {
    const { calls, written } = setup();
    const stop = new AbortController();
    stop.abort();
    await expect(calls.request('item/tool/call', {}, stop.signal)).rejects.toThrow();
    expect(written).toEqual([]);
  });
});
