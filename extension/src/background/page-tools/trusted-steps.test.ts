import { describe, expect, it } from 'vitest';
import type { TrustedStep } from '../input/input-layer';
import { typeSteps } from './trusted-steps';

/** A step as a short word: the keys pressed or the text committed. */
function shown(step: TrustedStep): string {
  if (step.kind === 'text') return `text ${JSON.stringify(step.text)}`;
  if (step.kind === 'keys') return `keys ${step.chords.map((c) => c.key).join('')}`;
  if (step.kind === 'press') return `press ${step.chord.ctrl || step.chord.meta ? 'Mod+' : ''}${step.chord.key}`;
  return step.kind;
}

const type = (text: string, o: { clear?: boolean; submit?: boolean } = {}) =>
  ({ kind: 'type', text, clear: o.clear ?? false, submit: o.submit ?? false }) as const;

describe('the steps of trusted typing', () => {
  it('presses a key per character where the page could tell, committing what no US key types, Enter between lines', () => {
    expect(typeSteps(type('Ab\ncé', { clear: true, submit: true })).map(shown)).toEqual([
      'press Mod+a',
      'press Delete',
      'keys Ab',
      'press Enter',
      'keys c',
      'text "é"',
      'press Enter',
    ]);
  });

  it('commits each line at once into a field nothing listens to for keys, still pressing Enter between lines and to submit', () => {
    expect(typeSteps(type('Ada Lovelace\n\nlast é', { clear: true, submit: true }), false).map(shown)).toEqual([
      'press Mod+a',
      'press Delete',
      'text "Ada Lovelace"',
      'press Enter',
      'press Enter',
      'text "last é"',
      'press Enter',
    ]);
  });
});
