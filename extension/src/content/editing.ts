/**
 * The browser's own work for a key pressed in a text field or an editable region, which a synthetic key event does
 * not do: arrows, Home/End and their Shift and Control variants move the caret or the selection, Backspace/Delete
 * (Control: a word) edit, Control+A selects within the field or the editor (not the whole page), Control+C/X/V go
 * through the agent's clipboard. Fields are moved by caret.ts; editable regions by Selection.modify, the engine's
 * own caret movement (Chrome and Firefox).
 */
import { isMoveKey, moveSelection, type MoveKey } from './caret';
import { copySelection, pasteText } from './clipboard';
import { deleteText, fieldSelectionOf, insertText, isValueField, setFieldSelection, type ValueField } from './input';
import { isPrintable, type KeyChord } from './keys';

/** Whether the key was handled here, and the text a copy or cut put on the agent's clipboard. */
export interface EditOutcome {
  readonly handled: boolean;
  readonly copied?: string;
}

const NOT_HANDLED: EditOutcome = { handled: false };
const HANDLED: EditOutcome = { handled: true };

/** The top of the editable region `el` is in (the element with contenteditable), or undefined. */
export function editingHost(el: Element): HTMLElement | undefined {
  if (!(el instanceof HTMLElement) || !el.isContentEditable) return undefined;
  let host: HTMLElement = el;
  while (host.parentElement?.isContentEditable) host = host.parentElement;
  return host;
}

/** Whether the default of `chord` in `target` moves the caret or the selection of an editable region (not a field). */
export function movesEditorCaret(target: Element, chord: KeyChord): boolean {
  return (
    isMoveKey(chord.key) && !chord.alt && !chord.meta && !isValueField(target) && editingHost(target) !== undefined
  );
}

function primary(chord: KeyChord): boolean {
  return (chord.ctrl || chord.meta) && !chord.alt;
}

/** Selects the editable region's whole content, as Control+A does inside an editor. */
function selectHost(host: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(host);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

const DIRECTION: Record<MoveKey, 'backward' | 'forward'> = {
  ArrowLeft: 'backward',
  ArrowUp: 'backward',
  Home: 'backward',
  ArrowRight: 'forward',
  ArrowDown: 'forward',
  End: 'forward',
};

type Granularity = 'character' | 'word' | 'line' | 'lineboundary';

function moveInEditable(host: HTMLElement, key: MoveKey, chord: KeyChord): void {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0) return;
  const extend = chord.shift;
  if ((key === 'Home' || key === 'End') && chord.ctrl) {
    const range = document.createRange();
    range.selectNodeContents(host);
    range.collapse(key === 'Home');
    if (extend) selection.extend(range.startContainer, range.startOffset);
    else selection.collapse(range.startContainer, range.startOffset);
    return;
  }
  if (!extend && !chord.ctrl && !selection.isCollapsed && (key === 'ArrowLeft' || key === 'ArrowRight')) {
    if (key === 'ArrowLeft') selection.collapseToStart();
    else selection.collapseToEnd();
    return;
  }
  const granularity: Granularity =
    key === 'ArrowUp' || key === 'ArrowDown'
      ? 'line'
      : key === 'Home' || key === 'End'
        ? 'lineboundary'
        : chord.ctrl
          ? 'word'
          : 'character';
  selection.modify(extend ? 'extend' : 'move', DIRECTION[key], granularity);
}

function deleteInEditable(forward: boolean, word: boolean): void {
  const selection = window.getSelection();
  if (word && selection?.isCollapsed) {
    selection.modify('extend', forward ? 'forward' : 'backward', 'word');
    document.execCommand('delete', false);
    return;
  }
  document.execCommand(forward ? 'forwardDelete' : 'delete', false);
}

function editable(field: ValueField): boolean {
  return !field.readOnly && !field.disabled;
}

/**
 * Does what the browser does for an unprevented keydown of `chord` in `target` when that is editing work; returns
 * `handled: false` for keys it leaves to the caller (Tab, Enter in a one-line field, keys outside fields).
 * `clipboard` is the worker's clipboard text for a paste.
 */
export function editKey(target: Element, chord: KeyChord, clipboard?: string): EditOutcome {
  const field = isValueField(target) ? target : undefined;
  const host = field ? undefined : editingHost(target);
  const letter = chord.key.toLowerCase();
  if (primary(chord) && !chord.shift && (letter === 'c' || letter === 'x')) {
    const cut = letter === 'x' && (field ? editable(field) : host !== undefined);
    return { handled: true, copied: copySelection(target, cut) };
  }
  if (!field && !host) {
    if (primary(chord) && letter === 'a') {
      window.getSelection()?.selectAllChildren(document.body);
      return HANDLED;
    }
    return NOT_HANDLED;
  }
  if (primary(chord) && !chord.shift && letter === 'a') {
    if (field) field.select();
    else if (host) selectHost(host);
    return HANDLED;
  }
  if (primary(chord) && !chord.shift && letter === 'v') {
    if (!field || editable(field)) pasteText(target, clipboard);
    return HANDLED;
  }
  if (isMoveKey(chord.key) && !chord.alt && !chord.meta) {
    if (field) {
      const multiline = field instanceof HTMLTextAreaElement;
      const options = { extend: chord.shift, word: chord.ctrl, multiline };
      setFieldSelection(field, moveSelection(field.value, fieldSelectionOf(field), chord.key, options));
    } else if (host) moveInEditable(host, chord.key, chord);
    return HANDLED;
  }
  if ((chord.key === 'Backspace' || chord.key === 'Delete') && !chord.alt && !chord.meta) {
    const forward = chord.key === 'Delete';
    if (field) {
      if (editable(field)) deleteText(field, forward, chord.ctrl);
    } else deleteInEditable(forward, chord.ctrl);
    return HANDLED;
  }
  if (chord.key === 'Enter' && !primary(chord)) {
    if (field instanceof HTMLTextAreaElement) {
      if (editable(field)) insertText(field, '\n', 'insertLineBreak');
      return HANDLED;
    }
    if (host) {
      document.execCommand(chord.shift ? 'insertLineBreak' : 'insertParagraph', false);
      return HANDLED;
    }
    return NOT_HANDLED;
  }
  if (isPrintable(chord)) {
    if (field) {
      if (editable(field)) insertText(field, chord.key);
    } else document.execCommand('insertText', false, chord.key);
    return HANDLED;
  }
  return NOT_HANDLED;
}
