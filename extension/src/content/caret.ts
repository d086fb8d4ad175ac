/**
 * Caret and selection moves in a text field's value, as the browser makes them for arrows, Home/End, their Shift
 * (extend) and Control (word, whole value) variants, and the range Backspace/Delete remove. Pure functions over the
 * value and selection, since a synthetic key event moves nothing by itself; a field applies the result with
 * setSelectionRange. Lines are the value's own lines (a soft-wrapped textarea line counts as one). Word moves follow
 * Chrome and Firefox on Linux and macOS: Control+Right stops at the end of a word, Control+Left at its start.
 */

/** A field's selection: `start` <= `end`, and which end moves on the next Shift move (`backward`: `start`). */
export interface FieldSelection {
  readonly start: number;
  readonly end: number;
  readonly direction: 'forward' | 'backward' | 'none';
}

/** A move key. */
export type MoveKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/** How a move is made: Shift extends, Control moves by word (arrows) or to the value's ends (Home/End). */
export interface MoveOptions {
  readonly extend: boolean;
  readonly word: boolean;
  readonly multiline: boolean;
}

const MOVE_KEYS = new Set<string>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/** Whether `key` moves the caret. */
export function isMoveKey(key: string): key is MoveKey {
  return MOVE_KEYS.has(key);
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** One code point back or forward, so a caret never splits an emoji's surrogate pair. */
function step(value: string, at: number, forward: boolean): number {
  if (forward) {
    if (at >= value.length) return value.length;
    return isLow(value.charCodeAt(at + 1)) ? at + 2 : at + 1;
  }
  if (at <= 0) return 0;
  return isLow(value.charCodeAt(at - 1)) && at >= 2 ? at - 2 : at - 1;
}

const WORD = /[\p{L}\p{N}_]/u;

function isWordChar(value: string, at: number): boolean {
  return WORD.test(value.charAt(at));
}

/** The start of the word before `at` (skipping the spaces and punctuation before it). */
export function wordStartBefore(value: string, at: number): number {
  let i = at;
  while (i > 0 && !isWordChar(value, i - 1)) i--;
  while (i > 0 && isWordChar(value, i - 1)) i--;
  return i;
}

/** The end of the word after `at` (skipping the spaces and punctuation before it). */
export function wordEndAfter(value: string, at: number): number {
  let i = at;
  while (i < value.length && !isWordChar(value, i)) i++;
  while (i < value.length && isWordChar(value, i)) i++;
  return i;
}

function lineStart(value: string, at: number): number {
  return value.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(value: string, at: number): number {
  const next = value.indexOf('\n', at);
  return next < 0 ? value.length : next;
}

/** The same column on the line above or below, clamped to that line; the value's ends past the first or last line. */
function verticalMove(value: string, at: number, down: boolean): number {
  const start = lineStart(value, at);
  const column = at - start;
  if (down) {
    const end = lineEnd(value, at);
    if (end >= value.length) return value.length;
    const nextStart = end + 1;
    return Math.min(nextStart + column, lineEnd(value, nextStart));
  }
  if (start === 0) return 0;
  const prevStart = lineStart(value, start - 1);
  return Math.min(prevStart + column, start - 1);
}

function target(value: string, from: number, key: MoveKey, o: MoveOptions): number {
  switch (key) {
    case 'ArrowLeft':
      return o.word ? wordStartBefore(value, from) : step(value, from, false);
    case 'ArrowRight':
      return o.word ? wordEndAfter(value, from) : step(value, from, true);
    case 'ArrowUp':
    case 'ArrowDown':
      // A one-line field has no line above or below: the caret goes to its start or end.
      if (!o.multiline || o.word) return key === 'ArrowUp' ? 0 : value.length;
      return verticalMove(value, from, key === 'ArrowDown');
    case 'Home':
      return o.word || !o.multiline ? 0 : lineStart(value, from);
    case 'End':
      return o.word || !o.multiline ? value.length : lineEnd(value, from);
  }
}

/** The selection after pressing `key` in a field holding `value`. */
export function moveSelection(value: string, sel: FieldSelection, key: MoveKey, o: MoveOptions): FieldSelection {
  const focus = sel.direction === 'backward' ? sel.start : sel.end;
  const anchor = sel.direction === 'backward' ? sel.end : sel.start;
  if (!o.extend) {
    // A plain Left or Right with a selection collapses it to that side instead of moving.
    if (sel.start !== sel.end && !o.word && (key === 'ArrowLeft' || key === 'ArrowRight')) {
      const at = key === 'ArrowLeft' ? sel.start : sel.end;
      return { start: at, end: at, direction: 'none' };
    }
    const at = target(value, key === 'ArrowLeft' || key === 'ArrowUp' ? sel.start : sel.end, key, o);
    return { start: at, end: at, direction: 'none' };
  }
  const moved = target(value, focus, key, o);
  if (moved === anchor) return { start: moved, end: moved, direction: 'none' };
  return moved < anchor
    ? { start: moved, end: anchor, direction: 'backward' }
    : { start: anchor, end: moved, direction: 'forward' };
}

/** What Backspace (`forward` false) or Delete removes: the selection, else a character or a word beside the caret. */
export function deletionRange(
  value: string,
  sel: FieldSelection,
  forward: boolean,
  word: boolean,
): { start: number; end: number } {
  if (sel.start !== sel.end) return { start: sel.start, end: sel.end };
  if (forward) return { start: sel.end, end: word ? wordEndAfter(value, sel.end) : step(value, sel.end, true) };
  return { start: word ? wordStartBefore(value, sel.start) : step(value, sel.start, false), end: sel.start };
}
