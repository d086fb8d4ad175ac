import { describe, expect, it } from 'vitest';
import { browserClosedToolText } from '../app-server/client-wait';
import { HeldRequests, type RequestClient } from './held-requests';

/** A connection that records what it was sent and follows the threads it is told. */
function client(serial: number, ...threads: string[]) {
  const got: Array<Record<string, unknown>> = [];
  const followed = new Set(threads);
  const c: RequestClient & { got: typeof got; followed: Set<string> } = {
    serial,
    got,
    followed,
    follows: (threadId) => threadId === undefined || followed.has(threadId),
    deliver: (message) => got.push(message),
  };
  return c;
}

function setUp(pageToolWaitMs = 60_000) {
  const clients = new Set<ReturnType<typeof client>>();
  const replies: Array<{ id: unknown; body: unknown }> = [];
  const held = new HeldRequests({
    clients: () => clients,
    reply: (id, body) => replies.push({ id, body }),
    pageToolWaitMs,
    log: () => undefined,
  });
  return { clients, replies, held };
}

const approval = (threadId: string) => ({
  method: 'approval/request',
  params: { threadId, turnId: 't1', requestId: 'a1', toolName: 'shell', preview: 'echo', choices: ['allow', 'deny'] },
});
const toolCall = (threadId: string) => ({
  method: 'item/tool/call',
  params: { threadId, turnId: 't1', callId: 'c1', tool: 'page_read', arguments: {} },
});

describe('HeldRequests', () => {
  it('asks every connection that follows the thread, none other, and passes only the first answer on', () => {
    const { clients, replies, held } = setUp();
    const a = client(1, 'th1');
    const b = client(2, 'th1');
    const other = client(3, 'th2');
    for (const c of [a, b, other]) clients.add(c);
    held.add(7, 'approval/request', approval('th1'));
    expect(a.got).toHaveLength(1);
    expect(b.got).toHaveLength(1);
    expect(other.got).toHaveLength(0);
    held.answer(b, b.got[0]!.id, { result: { decision: 'allow' } });
    held.answer(a, a.got[0]!.id, { result: { decision: 'deny' } });
    expect(replies).toEqual([{ id: 7, body: { result: { decision: 'allow' } } }]);
    expect(held.size).toBe(0);
  });

  it('holds an approval of a thread nobody follows until a connection follows it, and then asks it', () => {
    const { clients, replies, held } = setUp(0);
    held.add(0, 'approval/request', approval('th1'));
    const back = client(1);
    clients.add(back);
    held.changed();
    expect(back.got).toHaveLength(0);
    back.followed.add('th1');
    held.changed();
    expect(back.got).toEqual([{ ...approval('th1'), id: back.got[0]!.id }]);
    held.answer(back, back.got[0]!.id, { result: { decision: 'allow' } });
    expect(replies).toEqual([{ id: 0, body: { result: { decision: 'allow' } } }]);
  });

  it('gives a page-tool call to one connection, and to the next when that one leaves without answering', () => {
    const { clients, replies, held } = setUp();
    const first = client(1, 'th1');
    const second = client(2, 'th1');
    clients.add(first).add(second);
    held.add('x', 'item/tool/call', toolCall('th1'));
    expect(first.got.length + second.got.length).toBe(1);
    clients.delete(first);
    held.dropClient(first);
    expect(second.got).toHaveLength(1);
    held.answer(first, first.got[0]?.id ?? 1, { result: { success: true, content: [] } });
    expect(replies).toEqual([]);
    held.answer(second, second.got[0]!.id, { result: { success: true, content: [] } });
    expect(replies).toEqual([{ id: 'x', body: { result: { success: true, content: [] } } }]);
  });

  it("fails a page-tool call nobody can serve with the embedded backend's words once its wait is over", async () => {
    const { replies, held } = setUp(0);
    held.add(3, 'item/tool/call', toolCall('th1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(replies).toEqual([
      {
        id: 3,
        body: { result: { success: false, content: [{ type: 'text', text: browserClosedToolText('page_read') }] } },
      },
    ]);
  });

  it('forgets what the backend withdrew: a connection that follows later is not asked, a late answer goes nowhere', () => {
    const { clients, replies, held } = setUp();
    const a = client(1, 'th1');
    clients.add(a);
    held.add(5, 'approval/request', approval('th1'));
    held.withdraw((method, params) => method === 'approval/request' && params.requestId === 'a1');
    const late = client(2, 'th1');
    clients.add(late);
    held.changed();
    expect(late.got).toHaveLength(0);
    held.answer(a, a.got[0]!.id, { result: { decision: 'allow' } });
    expect(replies).toEqual([]);
    expect(held.size).toBe(0);
  });
});
