import { describe, expect, it, vi } from 'vitest';
import { fakeWorker, toolCallHost, unusedPageTools } from '../test-helpers';

/**
 * A worker whose thread t1 is bound to tab 1 (on a.example) in a window that also holds tab 2 (on b.example, in no
 * task); tabs the agent opens get ids from 10. The host is an in-memory peer sending item/tool/call requests.
 */
async function setup() {
  const pages = new Map<number, { url: string; title: string }>([
    [1, { url: 'https://a.example/facts', title: 'Facts' }],
    [2, { url: 'https://b.example/private', title: 'Private' }],
  ]);
  const reads: number[] = [];
  const closed: number[] = [];
  const opened: Array<{ url: string; beside: number; active: boolean }> = [];
  let nextTab = 10;
  const { worker, state } = await fakeWorker({
    tab: async (id) => pages.get(id),
    pageTools: unusedPageTools({
      readPage: async (id) => {
        reads.push(id);
        const p = pages.get(id)!;
        return { ...p, selection: '', text: `text of ${p.title}`, truncated: false };
      },
      listTabs: async () => [...pages].map(([id, p]) => ({ id, ...p, active: id === 1 })),
      tabInfo: async (id) => pages.get(id),
      capture: async () => {
        throw new Error('tab 10 is in the background');
      },
    }),
    tabs: {
      openTab: async (url, beside, active) => {
        opened.push({ url, beside, active });
        const id = nextTab++;
        pages.set(id, { url, title: `Opened ${id}` });
        return id;
      },
      closeTab: async (id) => {
        closed.push(id);
        pages.delete(id);
      },
    },
  });
  await state.setBinding(1, { threadId: 't1' });
  const host = toolCallHost(worker);
  /** Sends a tool call and, when `allow`, allows its card once it shows; resolves with the tool's result. */
  const call = async (tool: string, args: unknown = {}, allow = true) => {
    const id = host.send(tool, args);
    if (allow) {
      const card = await vi.waitFor(
        () => {
          const p = worker.broker.pendingForTab(1).find((a) => a.requestId === `c${id}`);
          if (!p && !host.answered(id)) throw new Error(`no card for ${tool} yet`);
          return p;
        },
        { timeout: 2000, interval: 1 },
      );
      if (card) await worker.broker.decide(card.key, 'allow', 1);
    }
    const result = await host.answer(id, tool);
    return { result, text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
  };
  return { worker, state, pages, reads, closed, opened, call };
}

describe('the gate acts on the tabs of the task', () => {
  it('opens a tab for its destination, and the page tools then act on it without switching tabs', async () => {
    const { worker, reads, opened, call } = await setup();
    const open = call('tabs_open', { url: 'https://c.example/form', background: true }, false);
    const card = await vi.waitFor(() => {
      const [p] = worker.broker.pendingForTab(1);
      if (!p) throw new Error('no card yet');
      return p;
    });
    // Decided for where it leads, on the conversation's panel.
    expect(card.origin).toBe('https://c.example');
    expect(card.preview).toBe('Open a page on c.example in a new tab of this task');
    await worker.broker.decide(card.key, 'allow', 1);
    const { result, text } = await open;
    expect(result.success).toBe(true);
    expect(text).toContain('Opened tab 10 in the background');
    expect(opened).toEqual([{ url: 'https://c.example/form', beside: 1, active: false }]);
    expect(worker.groups.members('t1').map((t) => t.tabId)).toEqual([1, 10]);

    await call('page_read');
    expect(reads).toEqual([10]);
    await call('page_read', { tabId: 1 });
    expect(reads).toEqual([10, 1]);
  });

  it('asks per origin of the tab acted on and names that tab on the card', async () => {
    const { worker, call } = await setup();
    await call('tabs_open', { url: 'https://c.example/form' });
    await call('tabs_select', { tabId: 1 });
    const read = call('page_read', { tabId: 10 }, false);
    const card = await vi.waitFor(() => {
      const [p] = worker.broker.pendingForTab(1);
      if (!p) throw new Error('no card yet');
      return p;
    });
    expect(card.origin).toBe('https://c.example');
    expect(card.page?.tab).toEqual({ id: 10, title: 'Opened 10' });
    await worker.broker.decide(card.key, 'allow_session', 1);
    await read;
    // The grant covers c.example only: reading the conversation's tab on a.example still asks, and names no tab.
    const own = call('page_read', {}, false);
    const second = await vi.waitFor(() => {
      const [p] = worker.broker.pendingForTab(1);
      if (!p) throw new Error('no card yet');
      return p;
    });
    expect(second.origin).toBe('https://a.example');
    expect(second.page?.tab).toBeUndefined();
    await worker.broker.decide(second.key, 'deny', 1);
    await own;
  });

  it('refuses a tab outside the task before asking anything, and reads nothing', async () => {
    const { worker, reads, call } = await setup();
    for (const [tool, args] of [
      ['page_read', { tabId: 2 }],
      ['page_click', { ref: 'e1', tabId: 2 }],
      ['tabs_select', { tabId: 2 }],
    ] as const) {
      const { result, text } = await call(tool, args, false);
      expect(result.success).toBe(false);
      expect(text).toContain("Tab 2 is not one of this task's tabs");
    }
    expect(worker.broker.pendingForTab(1)).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('closes only the tabs the agent opened, and refuses non-web addresses like page_navigate', async () => {
    const { worker, closed, call } = await setup();
    const refused = await call('tabs_open', { url: 'file:///etc/passwd' }, false);
    expect(refused.text).toContain('only open http and https');
    await call('tabs_open', { url: 'https://c.example/form' });
    const own = await call('tabs_close', { tabId: 1 }, false);
    expect(own.text).toContain('not opened by the agent');
    const { text } = await call('tabs_close', { tabId: 10 });
    expect(text).toBe('Closed tab 10. The page tools act on tab 1 again.');
    expect(closed).toEqual([10]);
    expect(worker.groups.members('t1').map((t) => t.tabId)).toEqual([1]);
  });

  it('lists which tabs belong to the task and which one the agent is on', async () => {
    const { call } = await setup();
    await call('tabs_open', { url: 'https://c.example/form' });
    const { text } = await call('tabs_list');
    const list = JSON.parse(text.slice(0, text.lastIndexOf(']') + 1)) as Array<Record<string, unknown>>;
    expect(list.map((t) => [t.id, t.inTask, t.joined, t.agentIsHere])).toEqual([
      [1, true, 'conversation', undefined],
      [2, false, undefined, undefined],
      [10, true, 'opened by the agent', true],
    ]);
    expect(text).toContain('Only tabs with inTask: true can be read or acted on');
  });

  it('says what to do when a screenshot is asked of a tab in the background', async () => {
    const { call } = await setup();
    await call('tabs_open', { url: 'https://c.example/form', background: true });
    const { result, text } = await call('page_screenshot', { tabId: 10 });
    expect(result.success).toBe(false);
    expect(text).toContain('in the background');
  });
});
