/**
 * Synthetic pointer input as a mouse's would arrive: over/enter and out/leave as the pointer moves from the element
 * it was last on, moves, presses with the right `button`/`buttons`/`detail`, focus on an unprevented mousedown, and
 * each event aimed at what is under the pointer at that moment (a press can open something under it). Every event
 * is untrusted (`isTrusted: false`): CSS :hover does not apply and no user activation is given.
 */
import { composedParent } from './dom';
import { pathPoints, type ViewportPoint } from './geometry';
import { deepElementFromPoint } from './pointing';

const BUTTONS = {
  left: { button: 0, buttons: 1 },
  middle: { button: 1, buttons: 4 },
  right: { button: 2, buttons: 2 },
};

/** Which mouse button. */
export type MouseButton = keyof typeof BUTTONS;

/** The element the agent's pointer is on, and the buttons held: out/leave events need the last one. */
const pointer: { on: WeakRef<Element> | null; buttons: number } = { on: null, buttons: 0 };

const NO_BUTTON = new Set(['pointermove', 'pointerover', 'pointerenter', 'pointerout', 'pointerleave']);
const NOT_BUBBLING = new Set(['pointerenter', 'pointerleave', 'mouseenter', 'mouseleave']);

/** Dispatches one pointer or mouse event at `p`; false when the page prevented its default. */
function fire(
  el: Element,
  type: string,
  p: ViewportPoint,
  { button = 0, detail = 0, related = null }: { button?: number; detail?: number; related?: Element | null } = {},
): boolean {
  const bubbles = !NOT_BUBBLING.has(type);
  const init: MouseEventInit = {
    bubbles,
    cancelable: bubbles,
    composed: true,
    view: window,
    clientX: p.x,
    clientY: p.y,
    screenX: p.x + window.screenX,
    screenY: p.y + window.screenY,
    buttons: pointer.buttons,
    relatedTarget: related,
  };
  if (type.startsWith('pointer')) {
    return el.dispatchEvent(
      new PointerEvent(type, {
        ...init,
        button: NO_BUTTON.has(type) ? -1 : button,
        pointerId: 1,
        pointerType: 'mouse',
        isPrimary: true,
        width: 1,
        height: 1,
        pressure: pointer.buttons ? 0.5 : 0,
      }),
    );
  }
  return el.dispatchEvent(new MouseEvent(type, { ...init, button, detail }));
}

/** The element and its composed ancestors, innermost first. */
function chain(el: Element): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = el; n; n = composedParent(n)) if (n instanceof Element) out.push(n);
  return out;
}

/** Moves the pointer onto `el` at `p`: out/leave for what it leaves, over/enter for what it enters, then a move. */
export function moveTo(el: Element, p: ViewportPoint): void {
  const last = pointer.on?.deref();
  const from = last?.isConnected ? last : null;
  if (from !== el) {
    const oldChain = from ? chain(from) : [];
    const newChain = chain(el);
    const left = oldChain.filter((n) => !newChain.includes(n));
    const entered = newChain.filter((n) => !oldChain.includes(n)).reverse();
    for (const kind of ['pointer', 'mouse']) {
      if (from) {
        fire(from, `${kind}out`, p, { related: el });
        for (const n of left) fire(n, `${kind}leave`, p, { related: el });
      }
      fire(el, `${kind}over`, p, { related: from });
      for (const n of entered) fire(n, `${kind}enter`, p, { related: from });
    }
    pointer.on = new WeakRef(el);
  }
  // Preventing pointermove does not cancel the compatibility mousemove (unlike pointerdown).
  fire(el, 'pointermove', p);
  fire(el, 'mousemove', p);
}

/** What is under the pointer now, or `fallback` when nothing answers (a point outside the viewport). */
function under(p: ViewportPoint, fallback: Element): Element {
  const hit = deepElementFromPoint(p.x, p.y);
  return hit ?? fallback;
}

const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]';

function focusOnPress(el: Element): void {
  const target = el.closest(FOCUSABLE);
  if (target instanceof HTMLElement && !target.matches(':disabled')) target.focus({ preventScroll: true });
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

/** The nearest element containing both (composed), for a click whose press and release landed on different ones. */
function commonAncestor(a: Element, b: Element): Element | null {
  if (a === b) return a;
  const ofA = chain(a);
  return chain(b).find((n) => ofA.includes(n)) ?? null;
}

/** Presses a button on `el` at `p`; false when the page prevented pointerdown (no compatibility mouse events then). */
export function pressDown(el: Element, p: ViewportPoint, button: MouseButton, detail: number): boolean {
  pointer.buttons |= BUTTONS[button].buttons;
  // A prevented pointerdown suppresses the compatibility mouse events and the focus they bring.
  const unprevented = fire(el, 'pointerdown', p, { button: BUTTONS[button].button });
  if (unprevented && fire(el, 'mousedown', p, { button: BUTTONS[button].button, detail })) focusOnPress(el);
  return unprevented;
}

/** Releases the button over whatever is at `p` now; returns that element. */
export function release(
  fallback: Element,
  p: ViewportPoint,
  button: MouseButton,
  detail: number,
  compat: boolean,
): Element {
  const up = under(p, fallback);
  pointer.buttons &= ~BUTTONS[button].buttons;
  fire(up, 'pointerup', p, { button: BUTTONS[button].button });
  if (compat) fire(up, 'mouseup', p, { button: BUTTONS[button].button, detail });
  return up;
}

/**
 * A click at `p` on `el` (what is under the point): move, pointerdown, mousedown (focus), pointerup, mouseup, then
 * click on the element both landed on (whose dispatch runs activation: a link follows, a checkbox toggles),
 * contextmenu for the right button, auxclick for the middle one, a second press and dblclick for `double`.
 */
export function clickAt(el: Element, p: ViewportPoint, button: MouseButton, double: boolean): void {
  moveTo(el, p);
  for (let detail = 1; detail <= (double ? 2 : 1); detail++) {
    const down = el.isConnected ? el : under(p, document.body);
    const compat = pressDown(down, p, button, detail);
    const up = release(down, p, button, detail, compat);
    const target = commonAncestor(down.isConnected ? down : up, up);
    if (!target) continue;
    const { button: code } = BUTTONS[button];
    if (button === 'right') {
      fire(target, 'contextmenu', p, { button: code, detail });
      return;
    }
    fire(target, button === 'left' ? 'click' : 'auxclick', p, { button: code, detail });
    if (detail === 2) fire(target, 'dblclick', p, { button: code, detail });
  }
}

/** Resolves on the next frame, or after 20 ms in a hidden tab (where animation frames stop). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 20);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The rest of a drag made of pointer events after the press on `from` (`compat`: pressDown's answer), for lists that
 * sort on pointer moves (no HTML5 drag): a small first move (libraries start a drag past a few pixels), then moves along the path a frame apart, two more at the
 * end (libraries pick the drop slot on a move and animate), and the release over whatever is under the end point.
 */
export async function pointerDrag(
  from: Element,
  compat: boolean,
  a: ViewportPoint,
  b: ViewportPoint,
  steps = 10,
): Promise<Element> {
  const nudge = { x: a.x + Math.sign(b.x - a.x || 1) * 3, y: a.y + Math.sign(b.y - a.y) * 3 };
  for (const p of [nudge, ...pathPoints(nudge, b, steps), b, b]) {
    moveTo(under(p, from), p);
    await nextFrame();
  }
  const up = release(from, b, 'left', 1, compat);
  pointer.on = new WeakRef(up);
  return up;
}
