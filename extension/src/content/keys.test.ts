import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatKey, isPrintable, KeyParseError, keyInfo, parseKey, withShift } from './keys';

const MODIFIER_ALIASES = {
  ctrl: ['Control', 'Ctrl', 'control', 'CTRL'],
  shift: ['Shift', 'shift'],
  alt: ['Alt', 'Option', 'alt'],
  meta: ['Meta', 'Cmd', 'Command', 'meta'],
} as const;
const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'PageDown',
  'Home',
  'F5',
  'F12',
];

const modifierSet = fc.record({ ctrl: fc.boolean(), shift: fc.boolean(), alt: fc.boolean(), meta: fc.boolean() });
const keyName = fc.oneof(
  fc.constantFrom(...NAMED_KEYS),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }).filter((c) => c !== ' '),
);

describe('parseKey', () => {
  it('reads named keys, characters and modifiers', () => {
    expect(parseKey('Enter')).toEqual({
      key: 'Enter',
      code: 'Enter',
      ctrl: false,
      shift: false,
      alt: false,
      meta: false,
    });
    expect(parseKey('Control+Shift+a')).toEqual({
      key: 'A',
      code: 'KeyA',
      ctrl: true,
      shift: true,
      alt: false,
      meta: false,
    });
    expect(parseKey('Shift+Tab')).toMatchObject({ key: 'Tab', shift: true });
    expect(parseKey('ctrl + a')).toMatchObject({ key: 'a', code: 'KeyA', ctrl: true });
    expect(parseKey('Control++')).toMatchObject({ key: '+', ctrl: true });
    expect(parseKey('+')).toMatchObject({ key: '+', ctrl: false });
    expect(parseKey('Space')).toMatchObject({ key: ' ', code: 'Space' });
    expect(parseKey('esc')).toMatchObject({ key: 'Escape' });
    expect(parseKey('7')).toMatchObject({ key: '7', code: 'Digit7' });
  });

  it('refuses what it cannot press, saying what is accepted', () => {
    expect(() => parseKey('')).toThrow('No key given. Name a key like Enter');
    expect(() => parseKey('Control+')).toThrow('"Control+" has no key after its modifiers');
    expect(() => parseKey('Hyper+a')).toThrow('"Hyper" in "Hyper+a" is not a modifier');
    expect(() => parseKey('Enterr')).toThrow('Unknown key "Enterr". Use a key name like Enter, Tab');
    expect(() => parseKey('a'.repeat(65))).toThrow('is too long');
  });

  test.prop([modifierSet, keyName, fc.nat()])(
    'reads any modifiers in any order and alias with any key',
    (mods, key, seed) => {
      const parts: string[] = [];
      for (const which of ['ctrl', 'shift', 'alt', 'meta'] as const) {
        if (!mods[which]) continue;
        const aliases = MODIFIER_ALIASES[which];
        parts.push(aliases[seed % aliases.length] as string);
      }
      const rotated = parts.slice(seed % (parts.length || 1)).concat(parts.slice(0, seed % (parts.length || 1)));
      const chord = parseKey([...rotated, key].join('+'));
      expect({ ctrl: chord.ctrl, shift: chord.shift, alt: chord.alt, meta: chord.meta }).toEqual(mods);
      expect(chord.key).toBe(mods.shift ? withShift(key) : key);
    },
  );

  it('takes no inherited property for a key or modifier name (a model may send "__proto__" or "constructor")', () => {
    for (const spec of ['__proto__', 'constructor', 'toString', '__proto__+a', 'constructor+Enter', 'hasOwnProperty']) {
      try {
        expect(parseKey(spec).key.length).toBeGreaterThan(0);
      } catch (error) {
        expect(error).toBeInstanceOf(KeyParseError);
      }
    }
  });

  test.prop([fc.string({ maxLength: 80 })])('either parses or throws a KeyParseError, for any string', (spec) => {
    try {
      const chord = parseKey(spec);
      expect(chord.key.length).toBeGreaterThan(0);
    } catch (error) {
      expect(error).toBeInstanceOf(KeyParseError);
      expect((error as Error).message.length).toBeGreaterThan(10);
    }
  });

  test.prop([modifierSet, keyName])('formats a chord back to a spec that parses to the same chord', (mods, key) => {
    const chord = { ...parseKey(key), ...mods };
    const again = parseKey(formatKey(chord));
    expect(again).toMatchObject({ ...mods, code: chord.code });
    expect(again.key).toBe(mods.shift ? withShift(chord.key) : chord.key);
  });

  test.prop([modifierSet, keyName])(
    'calls a chord printable only for one character without Control, Alt or Meta',
    (mods, key) => {
      const chord = parseKey(
        [...(mods.ctrl ? ['Control'] : []), ...(mods.alt ? ['Alt'] : []), ...(mods.meta ? ['Meta'] : []), key].join(
          '+',
        ),
      );
      expect(isPrintable(chord)).toBe(key.length === 1 && !mods.ctrl && !mods.alt && !mods.meta);
    },
  );
});

describe('the key model', () => {
  it('gives the legacy keyCode pages read (jQuery UI sliders and spinners), the code and the location', () => {
    expect(keyInfo('ArrowUp')).toEqual({ code: 'ArrowUp', keyCode: 38, location: 0, shifted: false });
    expect(keyInfo('PageDown')).toMatchObject({ keyCode: 34 });
    expect(keyInfo('Home')).toMatchObject({ keyCode: 36 });
    expect(keyInfo('End')).toMatchObject({ keyCode: 35 });
    expect(keyInfo('Enter')).toMatchObject({ keyCode: 13 });
    expect(keyInfo('Escape')).toMatchObject({ keyCode: 27 });
    expect(keyInfo(' ')).toMatchObject({ code: 'Space', keyCode: 32 });
    expect(keyInfo('a')).toEqual({ code: 'KeyA', keyCode: 65, location: 0, shifted: false });
    expect(keyInfo('A')).toEqual({ code: 'KeyA', keyCode: 65, location: 0, shifted: true });
    expect(keyInfo('!')).toEqual({ code: 'Digit1', keyCode: 49, location: 0, shifted: true });
    expect(keyInfo('?')).toMatchObject({ code: 'Slash', keyCode: 191, shifted: true });
    expect(keyInfo('Shift')).toMatchObject({ code: 'ShiftLeft', keyCode: 16, location: 1 });
    expect(keyInfo('F5')).toMatchObject({ keyCode: 116 });
    expect(keyInfo('é')).toBeUndefined();
  });

  it('types the Shift variant of a key as a US keyboard does', () => {
    expect(parseKey('Shift+1')).toMatchObject({ key: '!', code: 'Digit1', shift: true });
    expect(parseKey('Shift+/')).toMatchObject({ key: '?', code: 'Slash', shift: true });
    expect(parseKey('Shift+a')).toMatchObject({ key: 'A', code: 'KeyA' });
    expect(parseKey(';')).toMatchObject({ key: ';', code: 'Semicolon' });
    expect(withShift('ArrowLeft')).toBe('ArrowLeft');
    expect(withShift('é')).toBe('é');
  });

  test.prop([fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789;=,-./`[\\]'")])(
    'gives every unshifted US key and its Shift variant the same code and keyCode',
    (key) => {
      const plain = keyInfo(key);
      const shifted = keyInfo(withShift(key));
      expect(plain?.shifted).toBe(false);
      expect(shifted?.shifted).toBe(true);
      expect(shifted?.code).toBe(plain?.code);
      expect(shifted?.keyCode).toBe(plain?.keyCode);
    },
  );
});
