/**
 * Trusted input as CDP commands (`Input.*`, `DOM.setFileInputFiles`), at points in CSS pixels of the tab's viewport.
 * The browser treats these as a user's own input: `isTrusted` events, CSS :hover, user activation, native drags.
 * Each function takes the command sender of one tab, so the same sequences run over chrome.debugger and over a fake.
 */
import type { KeyChord } from '../../content/keys';
import type { Point } from '../../shared/agent-contract';
import { cdpKey, modifierKeys, modifierMask } from './cdp-keys';
import { dragPath } from './drag-path';

/** Sends one CDP command to the tab and resolves with its result. */
export type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** Waits for one CDP event of the tab; resolves with its params, or undefined when none came within `ms`. */
export type CdpEventWait = (method: string) => { promise: Promise<unknown>; settled(): unknown; cancel(): void };

/** A mouse button as page tools name it. */
export type MouseButton = 'left' | 'right' | 'middle';

const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

function mouse(
  send: CdpSend,
  type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
  p: Point,
  extra: Record<string, unknown> = {},
): Promise<unknown> {
  return send('Input.dispatchMouseEvent', { type, x: p.x, y: p.y, ...extra });
}

/** Moves the pointer onto `p` (what a hover is). */
export async function trustedHover(send: CdpSend, p: Point): Promise<void> {
  await mouse(send, 'mouseMoved', p, { button: 'none', buttons: 0 });
}

/**
 * A click (or double click: two presses with clickCount 1 then 2, as a user's) at `p`. The events go out together:
 * the browser runs one session's commands in order, so waiting for each answer would only add round trips.
 */
export async function trustedClick(send: CdpSend, p: Point, button: MouseButton, double: boolean): Promise<void> {
  const events = [mouse(send, 'mouseMoved', p, { button: 'none', buttons: 0 })];
  for (let clickCount = 1; clickCount <= (double ? 2 : 1); clickCount++) {
    events.push(mouse(send, 'mousePressed', p, { button, buttons: BUTTON_BITS[button], clickCount }));
    events.push(mouse(send, 'mouseReleased', p, { button, buttons: 0, clickCount }));
  }
  await Promise.all(events);
}

/** The key events of a chord: modifiers down, the key down and up, modifiers up, each with the mask held then. */
function keyEvents(chord: KeyChord): Record<string, unknown>[] {
  const mods = modifierKeys(chord);
  const held = { ctrl: false, shift: false, alt: false, meta: false };
  const flag = (k: string): keyof typeof held =>
    k === 'Control' ? 'ctrl' : k === 'Alt' ? 'alt' : k === 'Meta' ? 'meta' : 'shift';
  const events: Record<string, unknown>[] = [];
  for (const m of mods) {
    held[flag(m.key)] = true;
    events.push({ type: 'rawKeyDown', ...cdpKey(m), modifiers: modifierMask(held) });
  }
  const k = cdpKey(chord);
  // A key that types is a `keyDown` with its text (Chrome then fires keypress and beforeinput/input); others are raw.
  events.push({ type: k.text === undefined ? 'rawKeyDown' : 'keyDown', ...k });
  const { text: _, ...up } = k;
  events.push({ type: 'keyUp', ...up });
  for (const m of mods.reverse()) {
    held[flag(m.key)] = false;
    const { text: __, ...mk } = cdpKey(m);
    events.push({ type: 'keyUp', ...mk, modifiers: modifierMask(held) });
  }
  return events;
}

/** Presses a chord: modifiers down, the key down and up, modifiers up, each with the mask held at that moment. */
export async function trustedKey(send: CdpSend, chord: KeyChord): Promise<void> {
  await trustedKeys(send, [chord]);
}

/**
 * Presses chords one after the other, as a quick typist does. The events are all sent before the first answer is
 * awaited: Chrome queues a session's commands and the renderer handles input events in order, each fully (its
 * handlers, the field's update) before the next, so the page sees the same sequence, without a round trip per event
 * (12 characters took about 60 ms of round trips on a loaded machine, more than the rest of the action).
 */
export async function trustedKeys(send: CdpSend, chords: readonly KeyChord[]): Promise<void> {
  await Promise.all(chords.flatMap(keyEvents).map((event) => send('Input.dispatchKeyEvent', event)));
}

/** Run in the page's main world: whether the focus is in a text input or textarea of the top document. */
const FOCUS_IN_TEXT_FIELD = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  const text = ['text', 'search', 'email', 'url', 'tel', 'password'];
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && text.includes(el.type));
})()`;

/** Events by which a page could tell key presses from committed text (or count the characters of one input). */
const KEY_HEARING = new Set(['keydown', 'keypress', 'keyup', 'beforeinput', 'textInput', 'input']);

/** Finds out whether a page could tell key presses from committed text; see keyListenerProbe. */
export interface KeyListenerProbe {
  /** True unless the focus is in a text field and nothing in the document or on the window listens for keys. */
  listens(): Promise<boolean>;
  /** Frees what the page holds for the probe, when `listens` is not called. */
  release(): void;
}

/**
 * Whether the page could tell a user's key presses from text committed at once in its focused field: false only for
 * a text input or textarea in a top document where no listener (`on...` handlers included) for keys or per-character
 * input is set on any node, in open shadow roots and same-process frames too, or on the window. DOMDebugger sees the
 * page's listeners only, not the extensions'. The document and window are looked up at once (alongside the agent's
 * watch, which focuses the field), so `listens` costs one round trip to the renderer.
 */
export function keyListenerProbe(send: CdpSend): KeyListenerProbe {
  const objectGroup = 'tether-key-listeners';
  const targets = Promise.all(
    ['document', 'window'].map(async (expression) =>
      objectIdOf(resultOf(await send('Runtime.evaluate', { expression, objectGroup }))),
    ),
  );
  const release = () =>
    void targets
      .catch(() => undefined)
      .then(() => send('Runtime.releaseObjectGroup', { objectGroup }))
      .catch(() => undefined);
  return {
    async listens() {
      try {
        const [doc, win] = await targets;
        if (doc === undefined || win === undefined) return true;
        const [field, ...found] = await Promise.all([
          send('Runtime.evaluate', { expression: FOCUS_IN_TEXT_FIELD, returnByValue: true }),
          send('DOMDebugger.getEventListeners', { objectId: doc, depth: -1, pierce: true }),
          send('DOMDebugger.getEventListeners', { objectId: win }),
        ]);
        const inField = resultOf(field);
        if (!(inField && typeof inField === 'object' && 'value' in inField && inField.value === true)) return true;
        return found.some((reply) => listenerTypes(reply).some((type) => KEY_HEARING.has(type)));
      } catch {
        return true;
      } finally {
        release();
      }
    },
    release,
  };
}

function resultOf(v: unknown): unknown {
  return v && typeof v === 'object' && 'result' in v ? v.result : undefined;
}

function objectIdOf(v: unknown): string | undefined {
  return v && typeof v === 'object' && 'objectId' in v && typeof v.objectId === 'string' ? v.objectId : undefined;
}

/** The event types of DOMDebugger.getEventListeners' answer. */
function listenerTypes(v: unknown): string[] {
  const listeners = v && typeof v === 'object' && 'listeners' in v ? v.listeners : undefined;
  if (!Array.isArray(listeners)) return [];
  return listeners.flatMap((l: unknown) =>
    l && typeof l === 'object' && 'type' in l && typeof l.type === 'string' ? [l.type] : [],
  );
}

/** Types text where the focus is, as an input method would commit it (`beforeinput`/`input`, trusted). */
export async function trustedInsertText(send: CdpSend, text: string): Promise<void> {
  await send('Input.insertText', { text });
}

/**
 * Drags from `from` to `to` with the left button: press, a pointer path with intermediate moves (pointer-driven
 * sortable lists follow it), release. Chrome's native HTML5 drag is intercepted (`Input.setInterceptDrags`) so it
 * does not enter the OS drag loop: when the page starts one, its data is dropped at `to` with
 * `Input.dispatchDragEvent` (dragEnter, dragOver, drop), as the OS would. Says which kind of drag the page did.
 */
export async function trustedDrag(
  send: CdpSend,
  waitEvent: CdpEventWait,
  from: Point,
  to: Point,
): Promise<'html5' | 'pointer'> {
  await send('Input.setInterceptDrags', { enabled: true });
  const intercepted = waitEvent('Input.dragIntercepted');
  try {
    await trustedHover(send, from);
    await mouse(send, 'mousePressed', from, { button: 'left', buttons: 1, clickCount: 1 });
    for (const p of dragPath(from, to)) {
      if (intercepted.settled() !== undefined) break;
      await mouse(send, 'mouseMoved', p, { button: 'left', buttons: 1 });
    }
    const data = intercepted.settled() ?? (await Promise.race([intercepted.promise, delay(50)]));
    const dragData = data && typeof data === 'object' && 'data' in data ? data.data : undefined;
    if (dragData !== undefined) {
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
        await send('Input.dispatchDragEvent', { type, x: to.x, y: to.y, data: dragData, modifiers: 0 });
    }
    await mouse(send, 'mouseReleased', to, { button: 'left', buttons: 0, clickCount: 1 });
    return dragData === undefined ? 'pointer' : 'html5';
  } finally {
    intercepted.cancel();
    await send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}

/**
 * The node id of the element marked with `selector` (the page agent marks the very element a ref names), found in
 * every frame and open shadow root of the tab's process; undefined when nothing carries the mark.
 */
async function findMarked(send: CdpSend, selector: string): Promise<number | undefined> {
  await send('DOM.getDocument', { depth: -1, pierce: true });
  const { searchId, resultCount } = readSearch(
    await send('DOM.performSearch', { query: selector, includeUserAgentShadowDOM: false }),
  );
  try {
    if (resultCount === 0) return undefined;
    return readNodeIds(await send('DOM.getSearchResults', { searchId, fromIndex: 0, toIndex: 1 }))[0];
  } finally {
    await send('DOM.discardSearchResults', { searchId }).catch(() => undefined);
  }
}

/** Sets files on the marked file input as the user's choice in the file picker; false when nothing is marked. */
export async function trustedSetFiles(send: CdpSend, selector: string, paths: readonly string[]): Promise<boolean> {
  const nodeId = await findMarked(send, selector);
  if (nodeId === undefined) return false;
  await send('DOM.setFileInputFiles', { nodeId, files: [...paths] });
  return true;
}

/** Drops files (paths on this computer) at `p`, as a user dragging them from the file manager: enter, over, drop. */
export async function trustedDropFiles(send: CdpSend, p: Point, paths: readonly string[]): Promise<void> {
  const data = { items: [], files: [...paths], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
    await send('Input.dispatchDragEvent', { type, x: p.x, y: p.y, data, modifiers: 0 });
}

function readSearch(v: unknown): { searchId: string; resultCount: number } {
  if (v && typeof v === 'object' && 'searchId' in v && 'resultCount' in v) {
    const { searchId, resultCount } = v;
    if (typeof searchId === 'string' && typeof resultCount === 'number') return { searchId, resultCount };
  }
  throw new Error('Chrome answered DOM.performSearch with something unexpected.');
}

function readNodeIds(v: unknown): number[] {
  if (v && typeof v === 'object' && 'nodeIds' in v && Array.isArray(v.nodeIds))
    return v.nodeIds.filter((n): n is number => typeof n === 'number');
  return [];
}
