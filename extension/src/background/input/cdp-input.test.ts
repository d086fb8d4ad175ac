import { describe, expect, it } from 'vitest';
import { parseKey } from '../../content/keys';
import { keyListenerProbe, trustedClick, trustedDrag, trustedKey, trustedKeys, type CdpEventWait } from './cdp-input';
import { cdpKey } from './cdp-keys';
import { DRAG_START_STEP_PX, DRAG_STEP_PX, dragPath } from './drag-path';

function recorder() {
  const sent: { method: string; params: Record<string, unknown> | undefined }[] = [];
  const send = async (method: string, params?: Record<string, unknown>) => {
    sent.push({ method, params });
    return {};
  };
  return { sent, send };
}

/** An event wait that fires after the `n`th mouse move (the page starting a native drag), or never. */
function dragStartsAfter(
  sent: { method: string; params?: Record<string, unknown> }[],
  n: number | undefined,
): CdpEventWait {
  return () => {
    const data = { items: [{ mimeType: 'text/plain', data: 'x' }], dragOperationsMask: 1 };
    const moves = () => sent.filter((s) => s.params?.type === 'mouseMoved' && s.params.buttons === 1).length;
    return {
      promise: new Promise(() => {}),
      settled: () => (n !== undefined && moves() >= n ? { data } : undefined),
      cancel: () => {},
    };
  };
}

describe('CDP key fields', () => {
  it('gives letters, digits, punctuation and named keys the key codes Chrome puts in keyCode and which', () => {
    expect(cdpKey(parseKey('a'))).toEqual({
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      text: 'a',
      modifiers: 0,
    });
    expect(cdpKey(parseKey('Shift+a'))).toMatchObject({ key: 'A', windowsVirtualKeyCode: 65, text: 'A', modifiers: 8 });
    expect(cdpKey(parseKey('7'))).toMatchObject({ code: 'Digit7', windowsVirtualKeyCode: 55 });
    expect(cdpKey(parseKey('?'))).toMatchObject({ code: 'Slash', windowsVirtualKeyCode: 191, text: '?' });
    expect(cdpKey(parseKey('Enter'))).toMatchObject({ windowsVirtualKeyCode: 13, text: '\r' });
    expect(cdpKey(parseKey('ArrowLeft'))).toEqual({
      key: 'ArrowLeft',
      code: 'ArrowLeft',
      windowsVirtualKeyCode: 37,
      modifiers: 0,
    });
    expect(cdpKey(parseKey('F5'))).toMatchObject({ windowsVirtualKeyCode: 116 });
  });

  it('sends every key event of a run of keys, in order, before waiting for the first answer', async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    const send = (_method: string, params?: Record<string, unknown>) => {
      sent.push(`${params?.type} ${params?.key}`);
      return new Promise<unknown>((resolve) => answers.push(() => resolve({})));
    };
    let done = false;
    const typing = trustedKeys(send, [parseKey('A'), parseKey('d'), parseKey('Shift+a')]).then(() => (done = true));
    await Promise.resolve();
    expect(sent).toEqual([
      'keyDown A',
      'keyUp A',
      'keyDown d',
      'keyUp d',
      'rawKeyDown Shift',
      'keyDown A',
      'keyUp A',
      'keyUp Shift',
    ]);
    expect(done).toBe(false);
    for (const answer of answers) answer();
    await typing;
    expect(done).toBe(true);
  });

  it('types nothing for a chord with Control, and holds each modifier down around the key with the right mask', async () => {
    expect(cdpKey(parseKey('Control+a'))).toEqual({ key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2 });
    const { sent, send } = recorder();
    await trustedKey(send, parseKey('Control+Shift+ArrowRight'));
    expect(sent.map((s) => [s.params?.type, s.params?.key, s.params?.modifiers])).toEqual([
      ['rawKeyDown', 'Control', 2],
      ['rawKeyDown', 'Shift', 10],
      ['rawKeyDown', 'ArrowRight', 10],
      ['keyUp', 'ArrowRight', 10],
      ['keyUp', 'Shift', 2],
      ['keyUp', 'Control', 0],
    ]);
  });
});

/**
 * A page as CDP answers about it: whether the focus is in a text field, and the listeners of its document (all nodes)
 * and window; `fail` makes every command fail.
 */
function pageOf(o: { inField: boolean; doc?: string[]; win?: string[]; fail?: boolean }) {
  const sent: string[] = [];
  const send = async (method: string, params?: Record<string, unknown>) => {
    sent.push(method === 'Runtime.evaluate' ? `evaluate ${String(params?.expression).slice(0, 8)}` : method);
    if (o.fail) throw new Error('Cannot find context with specified id');
    if (method === 'Runtime.evaluate')
      return params?.returnByValue
        ? { result: { value: o.inField } }
        : { result: { objectId: `id-${params?.expression}` } };
    if (method === 'DOMDebugger.getEventListeners') {
      const types = params?.objectId === 'id-window' ? (o.win ?? []) : (o.doc ?? []);
      return { listeners: types.map((type) => ({ type, useCapture: false })) };
    }
    return {};
  };
  return { sent, send };
}

describe('whether a page could tell typed keys from committed text', () => {
  it('could not when the focus is in a text field and nothing listens for keys or input, only for clicks', async () => {
    const page = pageOf({ inField: true, doc: ['click', 'focus'], win: ['resize'] });
    expect(await keyListenerProbe(page.send).listens()).toBe(false);
  });

  it('could when anything in the document or the window listens for keys, beforeinput or input', async () => {
    for (const listeners of [
      { doc: ['keydown'] },
      { doc: ['click', 'beforeinput'] },
      { win: ['keyup'] },
      { win: ['input'] },
    ])
      expect(await keyListenerProbe(pageOf({ inField: true, ...listeners }).send).listens()).toBe(true);
  });

  it('could when the focus is not in a text field, and when the page cannot be asked', async () => {
    expect(await keyListenerProbe(pageOf({ inField: false }).send).listens()).toBe(true);
    expect(await keyListenerProbe(pageOf({ inField: true, fail: true }).send).listens()).toBe(true);
  });

  it('looks up the document and window at once, their listeners when asked, then frees what the page held', async () => {
    const page = pageOf({ inField: true });
    const probe = keyListenerProbe(page.send);
    await Promise.resolve();
    expect(page.sent).toEqual(['evaluate document', 'evaluate window']);
    await probe.listens();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.sent.slice(2)).toEqual([
      'evaluate (() => {',
      'DOMDebugger.getEventListeners',
      'DOMDebugger.getEventListeners',
      'Runtime.releaseObjectGroup',
    ]);
  });
});

describe('trusted clicks', () => {
  it('sends the move, press and release before waiting for the first answer, and resolves when all are answered', async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    const send = (_method: string, params?: Record<string, unknown>) => {
      sent.push(String(params?.type));
      return new Promise<unknown>((resolve) => answers.push(() => resolve({})));
    };
    let done = false;
    const clicking = trustedClick(send, { x: 1, y: 2 }, 'left', false).then(() => (done = true));
    await Promise.resolve();
    expect(sent).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased']);
    for (const answer of answers.slice(0, -1)) answer();
    await Promise.resolve();
    expect(done).toBe(false);
    answers.at(-1)?.();
    await clicking;
    expect(done).toBe(true);
  });

  it('moves onto the point, then presses and releases with clickCount 1 and 2 for a double click', async () => {
    const { sent, send } = recorder();
    await trustedClick(send, { x: 10, y: 20 }, 'left', true);
    expect(sent.map((s) => [s.params?.type, s.params?.clickCount ?? null, s.params?.x, s.params?.y])).toEqual([
      ['mouseMoved', null, 10, 20],
      ['mousePressed', 1, 10, 20],
      ['mouseReleased', 1, 10, 20],
      ['mousePressed', 2, 10, 20],
      ['mouseReleased', 2, 10, 20],
    ]);
  });
});

describe('the drag path', () => {
  it('steps past the drag threshold first, then moves in steps of at most 20 px and ends on the target', () => {
    const path = dragPath({ x: 0, y: 0 }, { x: 300, y: 0 });
    expect(path[0]).toEqual({ x: DRAG_START_STEP_PX, y: 0 });
    expect(path.at(-1)).toEqual({ x: 300, y: 0 });
    for (let i = 1; i < path.length; i++)
      expect(Math.hypot(path[i]!.x - path[i - 1]!.x, path[i]!.y - path[i - 1]!.y)).toBeLessThanOrEqual(DRAG_STEP_PX);
  });

  it('still makes several moves for a short drag, and moves off the spot for a drag onto itself', () => {
    expect(dragPath({ x: 0, y: 0 }, { x: 0, y: 30 }).length).toBeGreaterThanOrEqual(6);
    const still = dragPath({ x: 5, y: 5 }, { x: 5, y: 5 });
    expect(still[0]).toEqual({ x: 5 + DRAG_START_STEP_PX, y: 5 });
    expect(still.at(-1)).toEqual({ x: 5, y: 5 });
  });

  it('drags a pointer-driven list with press, every move of the path with the button held, and release on the target', async () => {
    const { sent, send } = recorder();
    const kind = await trustedDrag(send, dragStartsAfter(sent, undefined), { x: 0, y: 0 }, { x: 0, y: 100 });
    expect(kind).toBe('pointer');
    const mouse = sent.filter((s) => s.method === 'Input.dispatchMouseEvent').map((s) => s.params?.type);
    expect(mouse[0]).toBe('mouseMoved');
    expect(mouse[1]).toBe('mousePressed');
    expect(mouse.at(-1)).toBe('mouseReleased');
    expect(mouse.filter((t) => t === 'mouseMoved').length).toBe(1 + dragPath({ x: 0, y: 0 }, { x: 0, y: 100 }).length);
    expect(sent[0]).toEqual({ method: 'Input.setInterceptDrags', params: { enabled: true } });
    expect(sent.at(-1)).toEqual({ method: 'Input.setInterceptDrags', params: { enabled: false } });
  });

  it('drops an HTML5 drag the page started on the target with dragEnter, dragOver and drop carrying its data', async () => {
    const { sent, send } = recorder();
    const kind = await trustedDrag(send, dragStartsAfter(sent, 2), { x: 0, y: 0 }, { x: 50, y: 80 });
    expect(kind).toBe('html5');
    const drags = sent.filter((s) => s.method === 'Input.dispatchDragEvent');
    expect(drags.map((d) => [d.params?.type, d.params?.x, d.params?.y])).toEqual([
      ['dragEnter', 50, 80],
      ['dragOver', 50, 80],
      ['drop', 50, 80],
    ]);
    expect(drags[2]?.params?.data).toMatchObject({ items: [{ mimeType: 'text/plain' }] });
    // The path stops once the page has its drag: the OS would carry it from there.
    expect(sent.filter((s) => s.params?.type === 'mouseMoved' && s.params.buttons === 1).length).toBe(2);
  });
});
