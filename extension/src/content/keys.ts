/**
 * Parses the key names the model sends to `page_press` ('Enter', 'Shift+Tab', 'Control+a', 'Control++'). The
 * string comes from a model, so anything malformed is refused with a KeyParseError that says what is accepted.
 */

/** One key press with its modifiers, as KeyboardEvent fields. */
export interface KeyChord {
  /** `KeyboardEvent.key`: 'Enter', 'a', 'A', ' ', '+'. */
  readonly key: string;
  /** `KeyboardEvent.code`: 'Enter', 'KeyA', 'Digit1', 'Space'; '' when no physical key is implied. */
  readonly code: string;
  readonly ctrl: boolean;
  readonly shift: boolean;
  readonly alt: boolean;
  readonly meta: boolean;
}

/** A key string the agent cannot press. */
export class KeyParseError extends Error {
  override readonly name = 'KeyParseError';
}

const KEY_SPEC_MAX = 64;

/** Named keys by lower-cased name (aliases included) -> [key, code]. */
const NAMED: Record<string, readonly [string, string]> = {
  enter: ['Enter', 'Enter'],
  return: ['Enter', 'Enter'],
  tab: ['Tab', 'Tab'],
  escape: ['Escape', 'Escape'],
  esc: ['Escape', 'Escape'],
  backspace: ['Backspace', 'Backspace'],
  delete: ['Delete', 'Delete'],
  del: ['Delete', 'Delete'],
  space: [' ', 'Space'],
  arrowup: ['ArrowUp', 'ArrowUp'],
  arrowdown: ['ArrowDown', 'ArrowDown'],
  arrowleft: ['ArrowLeft', 'ArrowLeft'],
  arrowright: ['ArrowRight', 'ArrowRight'],
  up: ['ArrowUp', 'ArrowUp'],
  down: ['ArrowDown', 'ArrowDown'],
  left: ['ArrowLeft', 'ArrowLeft'],
  right: ['ArrowRight', 'ArrowRight'],
  home: ['Home', 'Home'],
  end: ['End', 'End'],
  pageup: ['PageUp', 'PageUp'],
  pagedown: ['PageDown', 'PageDown'],
  insert: ['Insert', 'Insert'],
  control: ['Control', 'ControlLeft'],
  shift: ['Shift', 'ShiftLeft'],
  alt: ['Alt', 'AltLeft'],
  meta: ['Meta', 'MetaLeft'],
};
for (let f = 1; f <= 12; f++) NAMED[`f${f}`] = [`F${f}`, `F${f}`];

type Modifier = 'ctrl' | 'shift' | 'alt' | 'meta';

const MODIFIERS: Record<string, Modifier | 'ctrlOrMeta'> = {
  control: 'ctrl',
  ctrl: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  option: 'alt',
  meta: 'meta',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  controlormeta: 'ctrlOrMeta',
};

/** Key names listed in errors. */
export const KEY_EXAMPLES = 'Enter, Tab, Escape, ArrowDown, Backspace, PageDown, F5, a single character';

function codeOf(char: string): string {
  if (/^[a-z]$/i.test(char)) return `Key${char.toUpperCase()}`;
  if (/^[0-9]$/.test(char)) return `Digit${char}`;
  return char === ' ' ? 'Space' : '';
}

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
}

/** Parses `[Modifier+]...Key`; throws KeyParseError naming what is wrong and what is accepted. */
export function parseKey(spec: string): KeyChord {
  if (typeof spec !== 'string' || spec.length === 0) {
    throw new KeyParseError(`No key given. Name a key like ${KEY_EXAMPLES}, optionally with modifiers (Shift+Tab).`);
  }
  if (spec.length > KEY_SPEC_MAX) {
    throw new KeyParseError(`Key "${spec.slice(0, 20)}…" is too long: press one key (with modifiers) per call.`);
  }
  // The '+' key itself: '+' alone, or after a modifier as in 'Control++'.
  let keyPart: string;
  let modifierParts: string[];
  if (spec === '+') {
    keyPart = '+';
    modifierParts = [];
  } else if (spec.endsWith('++')) {
    keyPart = '+';
    modifierParts = spec.slice(0, -2).split('+');
  } else {
    const parts = spec.split('+');
    keyPart = parts.pop() ?? '';
    modifierParts = parts;
  }
  const flags = { ctrl: false, shift: false, alt: false, meta: false };
  for (const part of modifierParts) {
    const modifier = own(MODIFIERS, part.trim().toLowerCase());
    if (!modifier) {
      throw new KeyParseError(
        `"${part}" in "${spec}" is not a modifier: use Control, Shift, Alt or Meta, joined with + (Control+Shift+a).`,
      );
    }
    if (modifier === 'ctrlOrMeta') flags[isMac() ? 'meta' : 'ctrl'] = true;
    else flags[modifier] = true;
  }
  if (keyPart.length === 0) {
    throw new KeyParseError(`"${spec}" has no key after its modifiers: add one, as in Control+a or Shift+Tab.`);
  }
  // 'Control + a' reads as Control+a; a lone space stays the space key.
  if (keyPart.length > 1) keyPart = keyPart.trim() || keyPart;
  if ([...keyPart].length === 1) {
    const key = flags.shift && /^[a-z]$/.test(keyPart) ? keyPart.toUpperCase() : keyPart;
    return { key, code: codeOf(keyPart), ...flags };
  }
  const named = own(NAMED, keyPart.toLowerCase());
  if (!named) {
    throw new KeyParseError(`Unknown key "${keyPart}". Use a key name like ${KEY_EXAMPLES}.`);
  }
  return { key: named[0], code: named[1], ...flags };
}

/** Whether pressing the chord produces a character (a printable key without Control, Alt or Meta). */
export function isPrintable(chord: KeyChord): boolean {
  return [...chord.key].length === 1 && !chord.ctrl && !chord.meta && !chord.alt;
}

/** The chord written back as a spec string ('Control+Shift+A'), which parses to the same chord. */
export function formatKey(chord: KeyChord): string {
  const parts: string[] = [];
  if (chord.ctrl) parts.push('Control');
  if (chord.alt) parts.push('Alt');
  if (chord.meta) parts.push('Meta');
  if (chord.shift) parts.push('Shift');
  const key = chord.key === ' ' ? 'Space' : chord.key;
  return [...parts, key].join('+');
}

/** A table's own entry for a model-supplied name: never an inherited one like `__proto__` or `constructor`. */
function own<T>(table: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
