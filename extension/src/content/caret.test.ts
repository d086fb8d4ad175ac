import { describe, expect, it } from 'vitest';
import { deletionRange, type FieldSelection, moveSelection, wordEndAfter, wordStartBefore } from './caret';

const at = (n: number): FieldSelection => ({ start: n, end: n, direction: 'none' });
const line = { extend: false, word: false, multiline: false };
const area = { extend: false, word: false, multiline: true };

describe('caret moves in a field', () => {
  it('moves to the ends with Home and End, and Up and Down in a one-line field', () => {
    expect(moveSelection('hello world', at(4), 'Home', line)).toEqual(at(0));
    expect(moveSelection('hello world', at(4), 'End', line)).toEqual(at(11));
    expect(moveSelection('hello world', at(4), 'ArrowUp', line)).toEqual(at(0));
    expect(moveSelection('hello world', at(4), 'ArrowDown', line)).toEqual(at(11));
  });

  it('moves by a character, never inside an emoji, and collapses a selection to the side pressed', () => {
    expect(moveSelection('ab', at(1), 'ArrowRight', line)).toEqual(at(2));
    expect(moveSelection('ab', at(2), 'ArrowRight', line)).toEqual(at(2));
    expect(moveSelection('a😀b', at(1), 'ArrowRight', line)).toEqual(at(3));
    expect(moveSelection('a😀b', at(3), 'ArrowLeft', line)).toEqual(at(1));
    const selected: FieldSelection = { start: 2, end: 5, direction: 'forward' };
    expect(moveSelection('hello', selected, 'ArrowLeft', line)).toEqual(at(2));
    expect(moveSelection('hello', selected, 'ArrowRight', line)).toEqual(at(5));
  });

  it('extends with Shift from the anchor and turns the direction when the focus crosses it', () => {
    const ext = { ...line, extend: true };
    const one = moveSelection('hello world', at(5), 'ArrowRight', ext);
    expect(one).toEqual({ start: 5, end: 6, direction: 'forward' });
    expect(moveSelection('hello world', one, 'End', ext)).toEqual({ start: 5, end: 11, direction: 'forward' });
    const back = moveSelection('hello world', one, 'ArrowLeft', ext);
    expect(back).toEqual(at(5));
    expect(moveSelection('hello world', back, 'Home', ext)).toEqual({ start: 0, end: 5, direction: 'backward' });
  });

  it('moves and selects by word with Control, to a word start going left and a word end going right', () => {
    const text = 'one two, three';
    expect(wordStartBefore(text, 14)).toBe(9);
    expect(wordStartBefore(text, 9)).toBe(4);
    expect(wordEndAfter(text, 0)).toBe(3);
    expect(wordEndAfter(text, 3)).toBe(7);
    const word = { ...line, word: true };
    expect(moveSelection(text, at(14), 'ArrowLeft', word)).toEqual(at(9));
    expect(moveSelection(text, at(14), 'ArrowLeft', { ...word, extend: true })).toEqual({
      start: 9,
      end: 14,
      direction: 'backward',
    });
    expect(moveSelection('día uno', at(0), 'ArrowRight', word)).toEqual(at(3));
  });

  it('keeps the column across lines in a textarea, and Home and End stay on the line unless Control', () => {
    const text = 'first line\nab\nthird line';
    expect(moveSelection(text, at(8), 'ArrowDown', area)).toEqual(at(13));
    expect(moveSelection(text, at(13), 'ArrowDown', area)).toEqual(at(16));
    expect(moveSelection(text, at(16), 'ArrowUp', area)).toEqual(at(13));
    expect(moveSelection(text, at(3), 'ArrowUp', area)).toEqual(at(0));
    expect(moveSelection(text, at(16), 'Home', area)).toEqual(at(14));
    expect(moveSelection(text, at(16), 'End', area)).toEqual(at(24));
    expect(moveSelection(text, at(16), 'Home', { ...area, word: true })).toEqual(at(0));
  });
});

describe('what Backspace and Delete remove', () => {
  it('removes the selection, else a character or a word beside the caret', () => {
    expect(deletionRange('hello', { start: 1, end: 3, direction: 'forward' }, false, false)).toEqual({
      start: 1,
      end: 3,
    });
    expect(deletionRange('hello', at(5), false, false)).toEqual({ start: 4, end: 5 });
    expect(deletionRange('hello', at(0), true, false)).toEqual({ start: 0, end: 1 });
    expect(deletionRange('one two', at(7), false, true)).toEqual({ start: 4, end: 7 });
    expect(deletionRange('one two', at(0), true, true)).toEqual({ start: 0, end: 3 });
    expect(deletionRange('a😀', at(3), false, false)).toEqual({ start: 1, end: 3 });
  });
});
