/**
 * Keys pressed with synthetic events. A synthetic key event does nothing by itself (no focus move on Tab, no
 * submission on Enter, no character typed), so after an unprevented keydown the browser's default is done here.
 */
import { formOf, isDisabled, isInvisible, isNotRendered } from './dom';
import { editKey } from './editing';
import { fireChange, keyEvent } from './input';
import { isPrintable, type KeyChord } from './keys';
import { roleOf, TEXT_INPUT_TYPES } from './roles';

/** Roles Enter activates with a click (a checkbox only toggles with Space; Enter in it submits its form). */
const ENTER_ACTIVATES = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'treeitem',
]);
/** Roles Space activates with a click: those Enter activates, and the toggles. */
const SPACE_ACTIVATES = new Set([...ENTER_ACTIVATES, 'switch', 'checkbox', 'radio']);

/** Submits the field's form as Enter does: a click on its default button, else requestSubmit(). */
function implicitSubmit(el: Element): void {
  const form = formOf(el);
  if (!form) return;
  const button = Array.from(form.elements).find(
    (control) =>
      (control instanceof HTMLButtonElement && control.type === 'submit') ||
      (control instanceof HTMLInputElement && (control.type === 'submit' || control.type === 'image')),
  );
  if (button) {
    if (!isDisabled(button)) (button as HTMLElement).click();
    return;
  }
  form.requestSubmit();
}

function focusables(): HTMLElement[] {
  const all = document.querySelectorAll<HTMLElement>(
    'a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable=true]',
  );
  const list = Array.from(all).filter(
    (el) => el.tabIndex >= 0 && !isDisabled(el) && !isNotRendered(el) && !isInvisible(el),
  );
  // Positive tabindex first in its order, then the rest in document order (the sort is stable).
  return list.sort((a, b) => (a.tabIndex || Number.MAX_SAFE_INTEGER) - (b.tabIndex || Number.MAX_SAFE_INTEGER));
}

/** Moves focus as Tab does, since a synthetic Tab moves nothing. Returns the newly focused element. */
function moveFocus(from: Element, backwards: boolean): Element {
  const list = focusables();
  if (list.length === 0) return from;
  const at = list.indexOf(from as HTMLElement);
  const next = at < 0 ? (backwards ? list.length - 1 : 0) : (at + (backwards ? -1 : 1) + list.length) % list.length;
  const target = list[next] as HTMLElement;
  target.focus();
  if (target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type)) target.select();
  return target;
}

function scrollKey(key: string): boolean {
  const page = window.innerHeight * 0.875;
  const by: Record<string, number> = { ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, ' ': page };
  if (key === 'Home') window.scrollTo({ top: 0, behavior: 'instant' });
  else if (key === 'End') window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
  else if (by[key] !== undefined) window.scrollBy({ top: by[key], behavior: 'instant' });
  else return false;
  return true;
}

/** The element keyup goes to, and text a copy put on the agent's clipboard. */
interface KeyDone {
  readonly up: Element;
  readonly copied?: string;
}

/** What the browser would do for an unprevented keydown. */
function keyDefault(target: Element, chord: KeyChord, clipboard: string | undefined): KeyDone {
  const role = roleOf(target);
  if (chord.key === 'Tab' && !chord.ctrl && !chord.alt && !chord.meta) return { up: moveFocus(target, chord.shift) };
  const edit = editKey(target, chord, clipboard);
  if (edit.handled) return { up: target, ...(edit.copied !== undefined ? { copied: edit.copied } : {}) };
  if (chord.key === 'Enter') {
    if (ENTER_ACTIVATES.has(role) || target.localName === 'summary') (target as HTMLElement).click();
    else if (target instanceof HTMLInputElement) implicitSubmit(target);
    return { up: target };
  }
  if (target instanceof HTMLSelectElement && (chord.key === 'ArrowDown' || chord.key === 'ArrowUp')) {
    const index = Math.min(
      target.options.length - 1,
      Math.max(0, target.selectedIndex + (chord.key === 'ArrowDown' ? 1 : -1)),
    );
    if (index !== target.selectedIndex) {
      target.selectedIndex = index;
      target.dispatchEvent(new Event('input', { bubbles: true }));
      fireChange(target);
    }
    return { up: target };
  }
  if (chord.key === ' ' && (SPACE_ACTIVATES.has(role) || target.localName === 'summary')) {
    (target as HTMLElement).click();
    return { up: target };
  }
  if (!chord.ctrl && !chord.meta && !chord.alt) scrollKey(chord.key);
  return { up: target };
}

/**
 * keydown, keypress (for characters and Enter), the browser's default unless prevented, keyup. Returns the text a
 * Control+C or Control+X copied; `clipboard` is what Control+V pastes.
 */
export function pressKey(target: Element, chord: KeyChord, clipboard?: string): { copied?: string } {
  let done: KeyDone = { up: target };
  if (keyEvent(target, 'keydown', chord)) {
    const withPress = isPrintable(chord) || chord.key === 'Enter';
    if (!withPress || keyEvent(target, 'keypress', chord)) done = keyDefault(target, chord, clipboard);
  }
  keyEvent(done.up.isConnected ? done.up : target, 'keyup', chord);
  return done.copied !== undefined ? { copied: done.copied } : {};
}
