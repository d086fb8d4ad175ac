import type { ToolCallResult } from '@tether/protocol';
import { describe, expect, it } from 'vitest';
import type { AgentCall, ElementFacts, LocateResult } from '../../shared/agent-contract';
import { DebuggerSessions } from '../input/debugger-session';
import { fakeDebugger, manualTimers } from '../input/fake-debugger';
import { InputLayer, type InputMode } from '../input/input-layer';
import { unusedPageTools } from '../test-helpers';
import { acted, facts, fakeTab, snap } from './fake-tab';
import { isTabToolCall, parsePageToolCall } from './page-tool-specs';
import { PageTools } from './page-tools';

/** An element the fake agent shows: its facts and where `locate` says a user would point at it. */
interface Shown {
  facts: ElementFacts;
  point: { x: number; y: number };
  covered?: string;
}

/**
 * A tab whose top frame (0) shows `top` and whose frame 3 (offset `frameAt` in the tab) shows `inFrame`, with the
 * input layer over a fake debugger; the agent records its calls, and `policy` decides trusted input per call.
 */
function setup(
  top: Record<string, Shown>,
  inFrame: Record<string, Shown> = {},
  frameAt: { x: number; y: number } | Error = { x: 100, y: 50 },
) {
  const dbg = fakeDebugger();
  const sessions = new DebuggerSessions(dbg.api, manualTimers());
  let policy: InputMode = { trusted: true };
  const input = new InputLayer({
    sessions,
    waitEvent: () => ({ promise: new Promise(() => {}), settled: () => undefined, cancel: () => {} }),
    policy: () => policy,
  });
  const calls: { frameId: number; call: AgentCall }[] = [];
  const checked: string[][] = [];
  const frames: Record<number, Record<string, Shown>> = { 0: top, 3: inFrame };
  const deps = unusedPageTools({
    injectAgent: async () => [0, 3],
    frameOffset: async (_tab, frameId) => {
      if (frameId !== 3) return { x: 0, y: 0 };
      if (frameAt instanceof Error) throw frameAt;
      return frameAt;
    },
    readFiles: async (paths, bytes) => {
      checked.push([...paths]);
      return paths.map((p) => ({
        name: p.split('/').pop() ?? p,
        type: 'text/plain',
        size: 5,
        base64: bytes ? 'aGVsbG8=' : '',
      }));
    },
    input,
    callAgent: async (_tab, frameId, call) => {
      calls.push({ frameId, call });
      const shown = frames[frameId] ?? {};
      const reply = (value: unknown) => ({ docId: `d${frameId}`, stale: false as const, value });
      switch (call.op) {
        case 'snapshot':
          return reply(
            snap(
              `https://a.example/${frameId}`,
              Object.keys(shown).map((r) => `- button "${r}" [ref=${r}]`),
            ),
          );
        case 'locate':
          return reply(locate(shown[call.ref]));
        case 'watch': {
          // Aimed, the agent locates the ref and starts watching only when a user could click it there.
          if (!call.aim || call.ref === undefined) return reply({ stale: false, watching: true });
          const aim = locate(shown[call.ref]);
          const clear = 'point' in aim && (!aim.covered || call.aim.coverOk);
          return reply(aim.stale ? aim : { stale: false, watching: clear, aim });
        }
        case 'describe':
          return reply({ stale: false, element: shown[call.ref]?.facts });
        case 'mark':
          return reply({ stale: false });
        case 'settle':
          return reply(acted({ changed: ['- status "Done"'] }));
        case 'act':
          return reply(acted());
        default:
          return reply(undefined);
      }
    },
  });
  const tools = new PageTools(deps);
  const run = async (tool: string, args: unknown): Promise<string> => {
    const parsed = parsePageToolCall(tool, args);
    if (!parsed.ok) throw new Error(parsed.error);
    if (isTabToolCall(parsed.call)) throw new Error(`${tool} is run by the tab tools`);
    const r: ToolCallResult = await tools.run(1, parsed.call);
    return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  };
  const mouse = () =>
    dbg.state.commands
      .filter((c) => c.method === 'Input.dispatchMouseEvent')
      .map((c) => [c.params?.type, c.params?.x, c.params?.y]);
  return {
    dbg,
    sessions,
    calls,
    checked,
    run,
    mouse,
    ops: () => calls.map((c) => `${c.frameId}:${c.call.op}`).filter((o) => !o.endsWith(':snapshot')),
    setPolicy: (m: InputMode) => {
      policy = m;
    },
  };
}

function locate(el: Shown | undefined): LocateResult {
  return el
    ? { stale: false, facts: el.facts, point: el.point, ...(el.covered ? { covered: el.covered } : {}) }
    : { stale: true, error: 'gone' };
}

const button = (name: string, x: number, y: number, over: Partial<Shown> = {}): Shown => ({
  facts: facts('button', name, { tag: 'button', box: { x: x - 20, y: y - 10, width: 40, height: 20, scale: 1 } }),
  point: { x, y },
  ...over,
});

describe('page actions through the input layer', () => {
  it('clicks a framed element at its point plus the frame offset with trusted input, while the agent watches', async () => {
    const env = setup({ e1: button('Top', 5, 5) }, { e1: button('Pay', 10, 20) });
    const snapshot = await env.run('page_snapshot', {});
    const framed = /button "Pay" \[ref=(e\d+)\]/.exec(snapshot)?.[1] ?? 'e2';
    const text = await env.run('page_click', { ref: framed, double: true });
    expect(text.split('\n').slice(0, 2)).toEqual([
      `Double-clicked ${framed}.`,
      'Input: trusted (the page saw real input).',
    ]);
    expect(text).toContain('- status "Done"');
    expect(env.mouse()).toEqual([
      ['mouseMoved', 110, 70],
      ['mousePressed', 110, 70],
      ['mouseReleased', 110, 70],
      ['mousePressed', 110, 70],
      ['mouseReleased', 110, 70],
    ]);
    // One page call locates the element and starts the watch, one reports what the click changed.
    expect(env.ops()).toEqual(['3:watch', '3:settle']);
    expect(env.calls.find((c) => c.call.op === 'watch')?.call).toMatchObject({ aim: { coverOk: false } });
    expect(env.dbg.state.attaches).toBe(1);
  });

  it('ends the watch it started when the action stops before its input (the frame cannot be placed), so it reports into nothing', async () => {
    const env = setup({}, { e1: button('Pay', 10, 20) }, new Error('The frame is gone.'));
    const framed = /button "Pay" \[ref=(e\d+)\]/.exec(await env.run('page_snapshot', {}))?.[1] ?? 'e1';
    expect(await env.run('page_click', { ref: framed })).toBe('page_click failed: The frame is gone.');
    expect(env.mouse()).toEqual([]);
    expect(env.calls.filter((c) => c.call.op !== 'snapshot').map((c) => c.call)).toMatchObject([
      { op: 'watch', aim: { coverOk: false } },
      { op: 'settle', quietMs: 0, capMs: 0 },
    ]);
  });

  it('refuses a covered element, naming the cover, and sends no input', async () => {
    const env = setup({ e1: button('Buy', 50, 50, { covered: 'covered by dialog "We use cookies"' }) });
    await env.run('page_snapshot', {});
    const text = await env.run('page_click', { ref: 'e1' });
    expect(text).toMatch(/^e1 is covered by dialog "We use cookies", so a click there would hit that instead/);
    expect(env.mouse()).toEqual([]);
    // The agent started no watch for it, so there is none to settle or end.
    expect(env.ops()).toEqual(['0:watch']);
  });

  it("falls back to the agent's synthetic click and says why when Chrome refuses to attach (DevTools open)", async () => {
    const env = setup({ e1: button('Buy', 50, 50) });
    env.dbg.state.refuseAttach = 'Another debugger is already attached to the tab with id: 1.';
    await env.run('page_snapshot', {});
    const text = await env.run('page_click', { ref: 'e1' });
    expect(text).toContain('Input: synthetic (another debugger is attached to the tab (DevTools open on it?)');
    expect(env.ops()).toEqual(['0:act']);
  });

  it('after the user cancels the debugging bar, the rest of the turn is synthetic and says so; the next turn is trusted', async () => {
    const env = setup({ e1: button('Buy', 50, 50) });
    await env.run('page_snapshot', {});
    expect(await env.run('page_click', { ref: 'e1' })).toContain('Input: trusted');
    env.dbg.drop(1, 'canceled_by_user');
    const after = await env.run('page_click', { ref: 'e1' });
    expect(after).toContain('Input: synthetic (you cancelled Chrome\'s "started debugging this browser" bar');
    expect(env.dbg.state.attaches).toBe(1);
    await env.sessions.turnEnded(1);
    expect(await env.run('page_click', { ref: 'e1' })).toContain('Input: trusted');
    expect(env.dbg.state.attaches).toBe(2);
  });

  it('re-attaches when a navigation dropped the attachment between two actions of a turn', async () => {
    const env = setup({ e1: button('Next', 50, 50) });
    await env.run('page_snapshot', {});
    await env.run('page_hover', { ref: 'e1' });
    env.dbg.lose(1);
    expect(await env.run('page_hover', { ref: 'e1' })).toContain('Input: trusted');
    expect(env.dbg.state.attaches).toBe(2);
    expect(env.mouse()).toEqual([
      ['mouseMoved', 50, 50],
      ['mouseMoved', 50, 50],
    ]);
  });

  it("says why input is synthetic when the user's setting does not allow trusted input, and never attaches", async () => {
    const env = setup({ e1: button('Buy', 50, 50) });
    env.setPolicy({ trusted: false, why: "trusted input is off in Tether's options" });
    await env.run('page_snapshot', {});
    expect(await env.run('page_click', { ref: 'e1' })).toContain(
      "Input: synthetic (trusted input is off in Tether's options)",
    );
    expect(env.dbg.state.attaches).toBe(0);
  });

  it('drags from the source centre to a position inside the target, with the button held along the path', async () => {
    const env = setup({ e1: button('Card', 20, 20), e2: button('Done', 200, 120) });
    await env.run('page_snapshot', {});
    const text = await env.run('page_drag', { from: 'e1', to: 'e2', position: { x: 4, y: 6 } });
    expect(text.split('\n').slice(0, 2)).toEqual(['Dragged e1.', 'Input: trusted (the page saw real input).']);
    const moves = env.mouse();
    expect(moves[1]).toEqual(['mousePressed', 20, 20]);
    // The target's box starts at (180, 110): the drop lands 4 px right and 6 px down of it.
    expect(moves.at(-1)).toEqual(['mouseReleased', 184, 116]);
    expect(moves.filter((m) => m[0] === 'mouseMoved').length).toBeGreaterThan(5);
  });

  it('types with trusted keys into the field the agent focused as its watch began: select-all and delete to clear, a key per character, Enter to submit', async () => {
    const env = setup({ e1: button('Name', 30, 30) });
    env.dbg.state.answers['DOM.performSearch'] = { searchId: 's1', resultCount: 1 };
    env.dbg.state.answers['DOM.getSearchResults'] = { nodeIds: [7] };
    await env.run('page_snapshot', {});
    const text = await env.run('page_type', { ref: 'e1', text: 'Aé', clear: true, submit: true });
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Typed and pressed Enter in e1.',
      'Input: trusted (the page saw real input).',
    ]);
    const sent = env.dbg.state.commands
      .filter((c) => ['DOM.focus', 'Input.dispatchKeyEvent', 'Input.insertText'].includes(c.method))
      .filter((c) => c.params?.type !== 'keyUp')
      .map((c) =>
        c.method === 'DOM.focus'
          ? 'focus'
          : c.method === 'Input.insertText'
            ? `insert ${c.params?.text}`
            : `${c.params?.key}${c.params?.text ? `=${c.params.text}` : ''}/${c.params?.modifiers}`,
      );
    expect(sent).toEqual(['Control/2', 'a/2', 'Delete/0', 'A=A/0', 'insert é', 'Enter=\r/0']);
    // No element is looked for through CDP (a walk of the whole document): the agent focuses it under the watch.
    expect(env.calls.find((c) => c.call.op === 'watch')?.call).toMatchObject({ ref: 'e1', focus: true });
    expect(env.ops()).not.toContain('0:mark');
    expect(env.dbg.state.commands.map((c) => c.method)).not.toContain('DOM.getDocument');
  });

  it('commits the text at once into a field nothing on the page listens to for keys, and asks a page that listens only once', async () => {
    const env = setup({ e1: button('Name', 30, 30) });
    const answers = env.dbg.state.answers;
    answers['Runtime.evaluate'] = { result: { objectId: 'o1', value: true } };
    answers['DOMDebugger.getEventListeners'] = { listeners: [{ type: 'click' }] };
    await env.run('page_snapshot', {});
    const typed = () =>
      env.dbg.state.commands
        .filter((c) => ['Input.dispatchKeyEvent', 'Input.insertText'].includes(c.method) && c.params?.type !== 'keyUp')
        .map((c) => (c.method === 'Input.insertText' ? `insert ${c.params?.text}` : `${c.params?.key}`));
    const asked = () => env.dbg.state.commands.filter((c) => c.method === 'DOMDebugger.getEventListeners').length;
    expect(await env.run('page_type', { ref: 'e1', text: 'Ada Lovelace', submit: true })).toContain('Input: trusted');
    expect(typed()).toEqual(['insert Ada Lovelace', 'Enter']);
    expect(asked()).toBe(2);
    // A listener for keys appears: keys again, and the document is not asked again.
    answers['DOMDebugger.getEventListeners'] = { listeners: [{ type: 'keydown' }] };
    await env.run('page_type', { ref: 'e1', text: 'ab' });
    await env.run('page_type', { ref: 'e1', text: 'c' });
    expect(typed().slice(2)).toEqual(['a', 'b', 'c']);
    expect(asked()).toBe(4);
  });

  it('gives files to a file input by path after the host checked them, and drops them on a drop zone at its centre', async () => {
    const env = setup({
      e1: { ...button('Attach', 30, 30), facts: facts('button', 'Attach', { tag: 'input', inputType: 'file' }) },
      e2: button('Drop here', 60, 90),
    });
    // CDP finds the element the agent marked: one search result, node 42.
    env.dbg.state.answers['DOM.performSearch'] = { searchId: 's1', resultCount: 1 };
    env.dbg.state.answers['DOM.getSearchResults'] = { nodeIds: [42] };
    await env.run('page_snapshot', {});
    expect(await env.run('page_upload', { ref: 'e1', paths: ['/home/me/a.txt'] })).toContain('Input: trusted');
    const search = env.dbg.state.commands.find((c) => c.method === 'DOM.performSearch');
    const mark = env.calls.find((c) => c.call.op === 'mark' && c.call.token !== null)?.call;
    expect(search?.params?.query).toBe(`[data-tether-target="${mark?.op === 'mark' ? mark.token : ''}"]`);
    const set = env.dbg.state.commands.find((c) => c.method === 'DOM.setFileInputFiles');
    expect(set?.params).toEqual({ nodeId: 42, files: ['/home/me/a.txt'] });
    expect(env.ops()).toContain('0:mark');
    await env.run('page_upload', { ref: 'e2', paths: ['/home/me/b.txt'] });
    const drops = env.dbg.state.commands.filter((c) => c.method === 'Input.dispatchDragEvent');
    expect(drops.map((d) => [d.params?.type, d.params?.x, d.params?.y])).toEqual([
      ['dragEnter', 60, 90],
      ['dragOver', 60, 90],
      ['drop', 60, 90],
    ]);
    expect(drops[2]?.params?.data).toMatchObject({ files: ['/home/me/b.txt'] });
    expect(env.checked).toEqual([['/home/me/a.txt'], ['/home/me/b.txt']]);
  });
});

describe('page actions preparing a document', () => {
  it('prepares a document once for its actions, and again once the frame shows a new document', async () => {
    const { tab, tools, deps } = fakeTab();
    const page = (url: string) => ({
      snapshot: () => snap(url, ['- button "Go" [ref=e1]']),
      act: () => acted(),
    });
    tab.frames.set(0, { docId: 'd1', agent: page('https://a.example/') });
    let injected = 0;
    const inject = deps.injectAgent;
    deps.injectAgent = (tabId) => {
      injected++;
      return inject(tabId);
    };
    const run = (tool: string, args: unknown) => {
      const parsed = parsePageToolCall(tool, args);
      if (!parsed.ok || isTabToolCall(parsed.call)) throw new Error(tool);
      return tools.run(1, parsed.call);
    };
    await run('page_snapshot', {});
    injected = 0;
    expect((await run('page_click', { ref: 'e1' })).success).toBe(true);
    expect((await run('page_click', { ref: 'e1' })).success).toBe(true);
    expect((await run('page_press', { key: 'Tab' })).success).toBe(true);
    expect([injected, tab.shims]).toEqual([1, [0]]);
    // A navigation: the ref-less press finds another document, so it prepares that one and runs there once.
    tab.frames.set(0, { docId: 'd2', agent: page('https://a.example/next') });
    tab.calls.length = 0;
    expect((await run('page_press', { key: 'Tab' })).success).toBe(true);
    expect(tab.calls.map((c) => [c.call.op, c.expectDoc])).toEqual([
      ['act', 'd1'],
      ['act', undefined],
    ]);
    expect([injected, tab.shims]).toEqual([2, [0, 0]]);
    // The old document's ref is stale; the new one's refs act without preparing it again.
    expect((await run('page_click', { ref: 'e1' })).success).toBe(false);
    await run('page_snapshot', {});
    injected = 0;
    tab.shims.length = 0;
    expect((await run('page_click', { ref: 'e2' })).success).toBe(true);
    expect([injected, tab.shims]).toEqual([0, []]);
  });

  it('prepares a document again when its agent did not answer the action (it was not there)', async () => {
    const { tab, tools } = fakeTab();
    tab.frames.set(0, { docId: 'd1', agent: {} });
    const press = () => {
      const parsed = parsePageToolCall('page_press', { key: 'Tab' });
      if (!parsed.ok || isTabToolCall(parsed.call)) throw new Error('page_press');
      return tools.run(1, parsed.call);
    };
    expect((await press()).success).toBe(false);
    tab.frames.set(0, { docId: 'd1', agent: { act: () => acted() } });
    expect((await press()).success).toBe(true);
    expect(tab.shims).toEqual([0, 0]);
  });
});
