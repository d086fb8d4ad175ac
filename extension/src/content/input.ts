/**
 * Synthetic text input as a user's would arrive (pointer input is in pointer.ts): keyboard events, and values
 * written through the native setters (not the element's own `value` property, which React replaces on the instance
 * to track changes) followed by input events, so framework-controlled fields see the change.
 * Every event is untrusted (`isTrusted: false`); pages that insist on trusted input ignore them.
 */
import { deletionRange, type FieldSelection } from './caret';
import { type KeyChord, keyInfo } from './keys';
import { nameOf, roleOf } from './roles';

export { ActionError } from './action-error';

/** `role "name"` for messages. */
export function describeEl(el: Element): string {
  const role = roleOf(el);
  const name = nameOf(el, role);
  return name ? `${role} ${JSON.stringify(name)}` : `${role} <${el.localName}>`;
}

/** Scrolls the element to the middle of the viewport when any of it is outside. */
export function scrollIntoViewIfNeeded(el: Element): void {
  const rect = el.getBoundingClientRect();
  if (rect.top < 0 || rect.left < 0 || rect.bottom > window.innerHeight || rect.right > window.innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }
}

/**
 * Dispatches one keyboard event with the legacy fields pages still read (jQuery UI reads `keyCode`): `keyCode` and
 * `which` are the key's virtual key code on keydown and keyup and the character code on keypress. False when the
 * page prevented its default.
 */
export function keyEvent(el: Element, type: 'keydown' | 'keypress' | 'keyup', chord: KeyChord): boolean {
  const info = keyInfo(chord.key);
  const charCode = type === 'keypress' ? (chord.key === 'Enter' ? 13 : (chord.key.codePointAt(0) ?? 0)) : 0;
  const keyCode = type === 'keypress' ? charCode : (info?.keyCode ?? 0);
  const legacy: KeyboardEventInit = { keyCode, which: keyCode, charCode };
  return el.dispatchEvent(
    new KeyboardEvent(type, {
      ...legacy,
      key: chord.key,
      code: chord.code || info?.code || '',
      location: info?.location ?? 0,
      ctrlKey: chord.ctrl,
      shiftKey: chord.shift,
      altKey: chord.alt,
      metaKey: chord.meta,
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
    }),
  );
}

/** A text field that holds a value (input or textarea). */
export type ValueField = HTMLInputElement | HTMLTextAreaElement;

const NOT_TEXT_INPUTS = new Set(['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden']);

/** Whether the element holds typed text: a textarea or a text-like input (date and colour included). */
export function isValueField(el: Element): el is ValueField {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !NOT_TEXT_INPUTS.has(el.type));
}

/** Sets `value` through the prototype's native setter, so an instance-level override (React's tracker) is bypassed. */
export function setNativeValue(el: ValueField | HTMLSelectElement, value: string): void {
  const proto =
    el instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : el instanceof HTMLSelectElement
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

function selectionOf(el: ValueField): { start: number; end: number } {
  try {
    if (el.selectionStart !== null && el.selectionEnd !== null)
      return { start: el.selectionStart, end: el.selectionEnd };
  } catch {
    // Types without a text selection (email, number in some browsers) throw or answer null: type at the end.
  }
  return { start: el.value.length, end: el.value.length };
}

function setCaret(el: ValueField, at: number): void {
  try {
    el.setSelectionRange(at, at);
  } catch {
    // No selection API for this input type; the value is set, the caret does not matter.
  }
}

function inputEvent(el: Element, type: 'beforeinput' | 'input', inputType: string, data: string | null): boolean {
  return el.dispatchEvent(
    new InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true }),
  );
}

/** Inserts text at the caret as typing (or `inputType`, a paste) would: beforeinput (cancelable), the native value, input. */
export function insertText(el: ValueField, text: string, inputType = 'insertText'): void {
  if (!inputEvent(el, 'beforeinput', inputType, text)) return;
  const { start, end } = selectionOf(el);
  const limit = el.maxLength > 0 ? el.maxLength - (el.value.length - (end - start)) : text.length;
  if (limit <= 0) return;
  const inserted = text.slice(0, limit);
  setNativeValue(el, el.value.slice(0, start) + inserted + el.value.slice(end));
  setCaret(el, start + inserted.length);
  inputEvent(el, 'input', inputType, inserted);
}

/**
 * Deletes the selection, or a character (a word with `word`) before (Backspace) or after (Delete) the caret, with
 * the inputType the browser would give (`inputType` overrides it, for a cut).
 */
export function deleteText(el: ValueField, forward: boolean, word = false, inputType?: string): void {
  const type = inputType ?? `delete${word ? 'Word' : 'Content'}${forward ? 'Forward' : 'Backward'}`;
  if (!inputEvent(el, 'beforeinput', type, null)) return;
  const { start, end } = deletionRange(el.value, { ...selectionOf(el), direction: 'none' }, forward, word);
  if (start === end) return;
  setNativeValue(el, el.value.slice(0, start) + el.value.slice(end));
  setCaret(el, start);
  inputEvent(el, 'input', type, null);
}

/** The field's selection with its direction; the caret at the end for types without a selection API. */
export function fieldSelectionOf(el: ValueField): FieldSelection {
  const { start, end } = selectionOf(el);
  let direction: FieldSelection['direction'] = 'none';
  try {
    direction = el.selectionDirection ?? 'none';
  } catch {
    // No selection API for this input type.
  }
  return { start, end, direction };
}

/** Applies a selection to the field (ignored by input types without a selection API, as the browser does). */
export function setFieldSelection(el: ValueField, sel: FieldSelection): void {
  try {
    el.setSelectionRange(sel.start, sel.end, sel.direction);
  } catch {
    // email, number and the like have no selection API.
  }
}

/** Replaces the whole value (a fill, or clearing before typing): native setter, then input. */
export function replaceValue(el: ValueField | HTMLSelectElement, value: string): void {
  setNativeValue(el, value);
  el.dispatchEvent(
    el instanceof HTMLSelectElement
      ? new Event('input', { bubbles: true, composed: true })
      : new InputEvent('input', {
          inputType: value ? 'insertReplacementText' : 'deleteContentBackward',
          data: value,
          bubbles: true,
          composed: true,
        }),
  );
}

/** Fires `change` (what a field does when the user commits an edit). */
export function fireChange(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Inserts text into a contenteditable region at its caret (at its end when the caret is elsewhere). */
export function insertEditableText(el: HTMLElement, text: string, replaceAll = false): void {
  el.focus({ preventScroll: true });
  const selection = window.getSelection();
  if (selection && (replaceAll || !selection.anchorNode || !el.contains(selection.anchorNode))) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!replaceAll) range.collapse(false);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  // execCommand keeps the editor's undo stack and fires beforeinput/input like typing does.
  if (text) document.execCommand('insertText', false, text);
  else document.execCommand('delete', false);
}
