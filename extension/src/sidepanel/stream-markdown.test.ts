import { describe, expect, it } from 'vitest';
import { BlockCuts } from './stream-markdown';

/** Feeds `pieces` one after the other, as deltas arrive; returns the cut after each. */
function cutsOf(pieces: readonly string[]): number[] {
  const cuts = new BlockCuts();
  return pieces.map((piece) => cuts.scan(piece));
}

describe('BlockCuts', () => {
  it('finds a blank line split across deltas, one character at a time', () => {
    const text = 'a paragraph\n\nnext';
    const cuts = new BlockCuts();
    let cut = 0;
    for (const ch of text) cut = cuts.scan(ch);
    expect(cut).toBe(text.indexOf('next'));
  });

  it('ends the finished blocks after a blank line, once the line is complete', () => {
    const end = 'Intro **bold**.\n\n'.length;
    expect(cutsOf(['Intro **bo', 'ld**.\n', '\n', 'Next'])).toEqual([0, 0, end, end]);
  });

  it('never cuts inside a fenced code block, even at its blank lines', () => {
    const text = 'Code:\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    const cuts = new BlockCuts();
    expect(cuts.scan(text.slice(0, 30))).toBe(7);
    expect(cuts.scan(text.slice(30))).toBe(text.indexOf('After'));
  });

  it('closes a fence only with the same character and at least as many', () => {
    const cuts = new BlockCuts();
    const text = '~~~~\n```\n\n~~~\n\nstill code\n~~~~\n\n';
    expect(cuts.scan(text)).toBe(text.length);
    expect(new BlockCuts().scan('~~~~\n```\n\n~~~\n\n')).toBe(0);
  });

  it('does not take inline code for a fence', () => {
    expect(new BlockCuts().scan('```a``` and more\n\n')).toBe(18);
  });

  it('counts from the new start after the finished blocks are dropped', () => {
    const cuts = new BlockCuts();
    expect(cuts.scan('one\n\ntwo')).toBe(5);
    cuts.drop(5);
    expect(cuts.scan('')).toBe(0);
    // 'two\n\nthree': the finished block ends after the blank line, at 5.
    expect(cuts.scan('\n\nthree')).toBe(5);
  });
});
