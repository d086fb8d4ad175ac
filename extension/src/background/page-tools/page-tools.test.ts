import type { ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { AgentCall, FrameSnapshot } from '../../shared/agent-contract';
import { acted, type FakeAgent, facts, fakeTab, snap } from './fake-tab';
import { isTabToolCall, PAGE_READ_MAX_CHARS, parsePageToolCall } from './page-tool-specs';
import { PageTools } from './page-tools';
import { staleRefMessage } from './ref-table';
import { unusedPageTools } from '../test-helpers';
import { NO_DEBUGGER_API } from '../input/input-layer';

/** Runs a call given as the model would send it. */
async function run(tools: PageTools, tool: string, args: unknown = {}): Promise<ToolCallResult> {
  const parsed = parsePageToolCall(tool, args);
  if (!parsed.ok) throw new Error(parsed.error);
  if (isTabToolCall(parsed.call)) throw new Error(`${tool} is run by the tab tools`);
  return tools.run(1, parsed.call);
}

function textOf(r: ToolCallResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** The tab refs of the marks in a text, in order. */
const refsIn = (t: string): string[] => [...t.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]!);

/** A form page in frame 0: a name field (e1), a password field (e2) and a submit button (e3). */
function formPage(act: FakeAgent['act'] = () => acted()) {
  const env = fakeTab();
  env.tab.frames.set(0, {
    docId: 'd1',
    agent: {
      snapshot: () =>
        snap('https://a.example/', [
          '- textbox "Name" [ref=e1]',
          '- textbox "Password" [ref=e2]',
          '- button "Sign in" [ref=e3]',
        ]),
      describe: (ref) => ({
        ...facts('textbox', `field ${ref}`),
        box: { x: 10, y: 20, width: 200, height: 30, scale: 2 },
      }),
      act,
    },
  });
  return env;
}

describe('PageTools reading', () => {
  it('returns the page as text with its URL, title and selection, says when it was cut, and clamps the size', async () => {
    const { tab, tools } = fakeTab('https://a.example/x', 'A page');
    const r = await run(tools, 'page_read');
    expect(r.success).toBe(true);
    const text = textOf(r);
    for (const part of ['URL: https://a.example/x', 'Title: A page', 'Selected text: picked words', 'Body text.'])
      expect(text).toContain(part);
    expect(text).toContain('cut at the size limit');
    await run(tools, 'page_read', { maxChars: 10 ** 9 });
    await run(tools, 'page_read', { maxChars: 5 });
    expect(tab.reads).toEqual([50_000, PAGE_READ_MAX_CHARS, 1000]);
  });

  it('reads one element whole by ref, says when maxChars cut even that, and passes a refusal on', async () => {
    const whole = 'word '.repeat(400);
    const env = formPage();
    const frame = env.tab.frames.get(0);
    if (!frame) throw new Error('formPage has frame 0');
    frame.agent.read = (call) =>
      call.ref === 'e2'
        ? { stale: false, error: 'textbox "Password" is a password field: its value is never read.' }
        : { stale: false, element: 'textbox "Name"', text: whole.slice(0, call.maxChars), total: whole.length };
    const [name, password] = refsIn(textOf(await run(env.tools, 'page_snapshot')));
    const r = await run(env.tools, 'page_read', { ref: name, maxChars: 1000 });
    expect(textOf(r)).toBe(
      `textbox "Name" (${name}), 2000 characters:\n${whole.slice(0, 1000)}\n\n` +
        '[Cut at 1000 of 2000 characters: page_read with this ref and a larger maxChars reads more.]',
    );
    expect(env.tab.calls.at(-1)?.call).toEqual({ op: 'read', ref: 'e1', maxChars: 1000 });
    expect(await run(env.tools, 'page_read', { ref: password })).toEqual({
      success: false,
      content: [{ type: 'text', text: 'textbox "Password" is a password field: its value is never read.' }],
    });
    expect(env.tab.reads).toEqual([]);
  });

  it('returns a screenshot as PNG image content without the data URL prefix, and a failure as readable text', async () => {
    const { tools } = fakeTab();
    expect((await run(tools, 'page_screenshot')).content).toEqual([
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
    const failing = new PageTools(
      unusedPageTools({ capture: async () => Promise.reject(new Error('The tab is not visible')) }),
    );
    expect(await run(failing, 'page_screenshot')).toEqual({
      success: false,
      content: [{ type: 'text', text: 'page_screenshot failed: The tab is not visible' }],
    });
  });

  it('scrolls the element of a ref into view before a screenshot, and says why when it cannot', async () => {
    let error: string | undefined;
    const { tab, tools } = formPage(() => acted(error === undefined ? {} : { error }));
    await run(tools, 'page_snapshot');
    expect((await run(tools, 'page_screenshot', { ref: 'e2' })).content).toEqual([
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
    expect(tab.calls.find((c) => c.call.op === 'act')?.call).toMatchObject({ ref: 'e2', action: { kind: 'scroll' } });
    // The picture is cropped to the element's box where it is after the scroll.
    expect(tab.captures).toEqual([{ x: 10, y: 20, width: 200, height: 30, scale: 2 }]);
    error = 'The element is hidden.';
    expect(await run(tools, 'page_screenshot', { ref: 'e2' })).toEqual({
      success: false,
      content: [{ type: 'text', text: 'The element is hidden.' }],
    });
    expect(textOf(await run(tools, 'page_screenshot', { ref: 'e9' }))).toBe(staleRefMessage('e9'));
  });

  it("puts a child frame's lines under its iframe line and gives every element a ref of the tab", async () => {
    const { tab, tools } = fakeTab();
    tab.frames.set(0, {
      docId: 'top',
      agent: {
        snapshot: () =>
          snap(
            'https://a.example/',
            ['- heading "Shop"', '- main', '  - iframe "Pay" [ref=e1]', '  - button "Back" [ref=e2]'],
            { iframes: [{ line: 2, src: 'https://pay.example/card' }] },
          ),
      },
    });
    tab.frames.set(7, {
      docId: 'pay',
      agent: {
        snapshot: () =>
          snap('https://pay.example/card', ['- textbox "Card number" [ref=e1]', '- button "Pay" [ref=e2]']),
      },
    });
    const text = textOf(await run(tools, 'page_snapshot'));
    expect(text).toBe(
      [
        'Page: https://a.example/',
        'Title: A',
        '- heading "Shop"',
        '- main',
        '  - iframe "Pay" [ref=e1]',
        '    - textbox "Card number" [ref=e3]',
        '    - button "Pay" [ref=e4]',
        '  - button "Back" [ref=e2]',
      ].join('\n'),
    );
    // The same elements keep their refs on the next snapshot.
    expect(refsIn(textOf(await run(tools, 'page_snapshot')))).toEqual(['e1', 'e3', 'e4', 'e2']);
    // A child ref reaches its own frame with the frame's local ref.
    tab.calls.length = 0;
    await tools.elementsOf(1, { tool: 'page_hover', args: { ref: 'e4' } }).catch(() => []);
    expect(tab.calls[0]).toMatchObject({ frameId: 7, expectDoc: 'pay', call: { op: 'describe', ref: 'e2' } });
  });

  it('ends a cut snapshot with a note naming the ref to continue from, and continues from it', async () => {
    const { tab, tools } = fakeTab();
    const snapshots: Extract<AgentCall, { op: 'snapshot' }>[] = [];
    tab.frames.set(0, {
      docId: 'd1',
      agent: {
        snapshot: (call) => {
          snapshots.push(call);
          return call.from
            ? snap('https://a.example/', ['- row "41" [ref=e41]'])
            : snap('https://a.example/', ['- row "1" [ref=e1]'], { cut: { remaining: 120, from: 'e41' } });
        },
      },
    });
    const text = textOf(await run(tools, 'page_snapshot'));
    expect(text).toContain(
      '[Cut at the size limit: 120 more elements. Call page_snapshot {"from":"e2"} for the rest, or page_find {"text":"..."} to search the page.]',
    );
    const rest = textOf(await run(tools, 'page_snapshot', { from: 'e2' }));
    expect(snapshots.at(-1)).toMatchObject({ from: 'e41' });
    expect(rest).toContain('- row "41" [ref=e2]');
  });

  it('finds text in every frame and answers with tab refs, the count, and when nothing matches', async () => {
    const { tab, tools } = fakeTab();
    tab.frames.set(0, {
      docId: 'd1',
      agent: { find: (c) => ({ matches: [`- link "${c.text} 1" [ref=e9]`], total: 1 }) },
    });
    tab.frames.set(3, { docId: 'd3', agent: { find: () => ({ matches: ['- cell "x" [ref=e9]'], total: 40 }) } });
    const text = textOf(await run(tools, 'page_find', { text: 'Order' }));
    expect(text.split('\n').slice(0, 3)).toEqual([
      '41 matches for "Order":',
      '- link "Order 1" [ref=e1]',
      '- cell "x" [ref=e2]',
    ]);
    expect(text).toContain('[39 more matches: search for something longer.]');
    tab.frames.set(0, { docId: 'd1', agent: { find: () => ({ matches: [], total: 0 }) } });
    tab.frames.delete(3);
    expect(textOf(await run(tools, 'page_find', { text: 'zzz' }))).toBe('No element on the page matches "zzz".');
  });

  it('says the page agent answered something unexpected when a reply has the wrong shape', async () => {
    const { tab, tools } = fakeTab();
    tab.frames.set(0, {
      docId: 'd1',
      agent: { snapshot: () => ({ lines: 'not a list' }) as unknown as FrameSnapshot },
    });
    const r = await run(tools, 'page_snapshot');
    expect(r.success).toBe(false);
    expect(textOf(r)).toMatch(/page agent answered something unexpected/);
  });
});

describe('PageTools refs', () => {
  it('refuses a ref it never gave out, saying to snapshot again', async () => {
    const { tools } = formPage();
    const r = await run(tools, 'page_click', { ref: 'e99' });
    expect(r).toEqual({ success: false, content: [{ type: 'text', text: staleRefMessage('e99') }] });
    await expect(tools.elementsOf(1, { tool: 'page_click', args: { ref: 'e99' } })).rejects.toThrow(/snapshot/);
  });

  it('makes the refs of a document stale once its frame shows another one, without another element answering', async () => {
    const { tab, tools } = formPage();
    await run(tools, 'page_snapshot');
    expect(await tools.elementsOf(1, { tool: 'page_click', args: { ref: 'e3' } })).toMatchObject([
      facts('textbox', 'field e3'),
    ]);
    // The frame navigated: the agent there is asked in the old document's name and answers stale.
    tab.frames.set(0, { ...tab.frames.get(0)!, docId: 'd2' });
    const before = tab.calls.length;
    expect(textOf(await run(tools, 'page_click', { ref: 'e3' }))).toBe(staleRefMessage('e3'));
    expect(tab.calls.slice(before).every((c) => c.expectDoc === 'd1')).toBe(true);
    // A snapshot of the new document gives new refs, and the old ones stay stale.
    expect(refsIn(textOf(await run(tools, 'page_snapshot')))).toEqual(['e4', 'e5', 'e6']);
    const after = tab.calls.length;
    expect(textOf(await run(tools, 'page_click', { ref: 'e3' }))).toBe(staleRefMessage('e3'));
    expect(tab.calls.length).toBe(after);
  });

  it('refuses a ref the agent reports gone when describing it for the card', async () => {
    const { tab, tools } = formPage();
    await run(tools, 'page_snapshot');
    tab.frames.get(0)!.agent.describe = () => 'stale';
    await expect(tools.elementsOf(1, { tool: 'page_click', args: { ref: 'e1' } })).rejects.toThrow(
      staleRefMessage('e1'),
    );
  });

  it('outlines the element of a ref in its own frame and document, and forgets the refs of a closed tab', async () => {
    const { tab, tools } = formPage();
    await run(tools, 'page_snapshot');
    tab.calls.length = 0;
    await tools.highlight(1, 'e2', true);
    await tools.highlight(1, 'e2', false);
    await tools.highlight(1, 'e77', true);
    expect(tab.calls).toEqual([
      { frameId: 0, expectDoc: 'd1', call: { op: 'highlight', ref: 'e2' } },
      { frameId: 0, expectDoc: 'd1', call: { op: 'highlight', ref: null } },
    ]);
    tools.tabClosed(1);
    expect(textOf(await run(tools, 'page_click', { ref: 'e2' }))).toBe(staleRefMessage('e2'));
  });
});

describe('PageTools actions', () => {
  it('reports what an action changed: dialogs, page errors, focus and the changed lines with tab refs', async () => {
    const { tab, tools } = formPage(() =>
      acted({
        dialogs: [{ type: 'confirm', message: 'Sign in now?', accepted: false }],
        errors: ['TypeError: x is undefined'],
        focus: '- textbox "Password" [ref=e2]',
        changed: ['- alert "Wrong password"', '- link "Reset" [ref=e4]'],
      }),
    );
    await run(tools, 'page_snapshot');
    const r = await run(tools, 'page_click', { ref: 'e3', dialog: 'accept', promptText: 'ok' });
    expect(r.success).toBe(true);
    expect(textOf(r).split('\n')).toEqual([
      'Clicked e3.',
      `Input: synthetic (${NO_DEBUGGER_API}).`,
      'A confirm dialog opened: "Sign in now?"; it was dismissed (call again with dialog: "accept" to accept it).',
      'Page errors: TypeError: x is undefined',
      'Focus: - textbox "Password" [ref=e2]',
      'Changed:',
      '- alert "Wrong password"',
      '- link "Reset" [ref=e4]',
    ]);
    const act = tab.calls.find((c) => c.call.op === 'act');
    expect(act).toMatchObject({
      frameId: 0,
      expectDoc: 'd1',
      call: {
        ref: 'e3',
        action: { kind: 'click', button: 'left', double: false },
        dialog: { accept: true, promptText: 'ok' },
      },
    });
    expect(tab.shims).toEqual([0]);
  });

  it('says when nothing changed, and fails with the reason the agent gives', async () => {
    let error: string | undefined;
    const { tools } = formPage(() => acted(error === undefined ? {} : { error }));
    await run(tools, 'page_snapshot');
    expect(textOf(await run(tools, 'page_hover', { ref: 'e1' }))).toBe(
      `Hovered over e1.\nInput: synthetic (${NO_DEBUGGER_API}).\nNothing on the page changed.`,
    );
    error = 'The element is disabled.';
    expect(await run(tools, 'page_check', { ref: 'e1', checked: true })).toEqual({
      success: false,
      content: [{ type: 'text', text: 'The element is disabled.' }],
    });
  });

  it('reports the new page when the action took its frame away and the tab moved to another address', async () => {
    const env = formPage(() => {
      // The form was sent: the document is gone before it could answer.
      env.tab.url = 'https://a.example/welcome';
      env.tab.title = 'Welcome';
      env.tab.frames.set(0, {
        docId: 'd2',
        agent: {
          snapshot: () => snap('https://a.example/welcome', ['- heading "Hello"', '- link "Log out" [ref=e1]']),
        },
      });
      throw new Error('No frame with id 0.');
    });
    const { tools } = env;
    await run(tools, 'page_snapshot');
    const r = await run(tools, 'page_click', { ref: 'e3' });
    expect(r.success).toBe(true);
    expect(textOf(r)).toBe(
      [
        'Clicked e3.',
        `Input: synthetic (${NO_DEBUGGER_API}).`,
        'Now on https://a.example/welcome "Welcome".',
        'Page: https://a.example/welcome',
        'Title: A',
        '- heading "Hello"',
        '- link "Log out" [ref=e4]',
      ].join('\n'),
    );
  });

  it('fails an action whose frame went away while the tab stayed on the same address', async () => {
    const { tools } = formPage(() => {
      throw new Error('No frame with id 0.');
    });
    await run(tools, 'page_snapshot');
    expect(await run(tools, 'page_click', { ref: 'e3' })).toEqual({
      success: false,
      content: [{ type: 'text', text: 'page_click failed: No frame with id 0.' }],
    });
  });

  it('fills fields in order and stops at the first one that fails, saying the rest were not filled', async () => {
    const filled: string[] = [];
    const { tools } = formPage((call) => {
      if (call.ref === 'e2') return acted({ error: 'The field is read-only.' });
      filled.push(call.ref ?? '');
      return acted();
    });
    await run(tools, 'page_snapshot');
    const r = await run(tools, 'page_fill_form', {
      fields: [
        { ref: 'e1', value: 'Ada' },
        { ref: 'e2', value: 'secret' },
        { ref: 'e3', value: 'x' },
      ],
    });
    expect(r).toEqual({
      success: false,
      content: [{ type: 'text', text: 'e1: set.\ne2: The field is read-only.\nThe remaining fields were not filled.' }],
    });
    expect(filled).toEqual(['e1']);
    expect(textOf(await run(tools, 'page_fill_form', { fields: [{ ref: 'e1', value: 'Ada' }] }))).toBe(
      'Filled 1 field.\ne1: set.',
    );
  });

  it('opens an address and reports the new page, or says the tab stayed where it was', async () => {
    const { tab, tools } = fakeTab('https://a.example/', 'A');
    tab.frames.set(0, { docId: 'd1', agent: { snapshot: () => snap(tab.url, ['- heading "Hi"']) } });
    tab.onNavigate = (to) => {
      if (typeof to === 'object' && to !== null && 'url' in to && typeof to.url === 'string') {
        tab.url = to.url;
        tab.title = 'B';
        tab.frames.set(0, { docId: 'd2', agent: { snapshot: () => snap(tab.url, ['- heading "B"']) } });
      }
    };
    const r = await run(tools, 'page_navigate', { url: 'https://b.example/start' });
    expect(tab.navigations).toEqual([{ url: 'https://b.example/start' }]);
    expect(textOf(r).split('\n').slice(0, 3)).toEqual([
      'Opened the page.',
      'Now on https://b.example/start "B".',
      'Page: https://b.example/start',
    ]);
    const back = await run(tools, 'page_back');
    expect(textOf(back).split('\n')[0]).toBe('Went back, but the tab still shows https://b.example/start.');
    expect(textOf(await run(tools, 'page_reload')).split('\n')[0]).toBe('Went through a reload.');
  });

  it('waits for text through the top frame and says when it timed out', async () => {
    let met = true;
    const { tab, tools } = fakeTab();
    tab.frames.set(0, { docId: 'd1', agent: { wait: () => ({ met, waitedMs: 240.4 }) } });
    expect(textOf(await run(tools, 'page_wait', { text: 'Saved', ms: 1000 }))).toBe(
      'Done: waited 240 ms for "Saved" to appear.',
    );
    expect(tab.calls.at(-1)?.call).toEqual({ op: 'wait', text: 'Saved', timeoutMs: 1000 });
    met = false;
    expect(textOf(await run(tools, 'page_wait', { textGone: 'Loading' }))).toMatch(
      /^Timed out after \d+ ms waiting for "Loading" to go; call page_snapshot/,
    );
  });
});
