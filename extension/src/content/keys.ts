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
  capslock: ['CapsLock', 'CapsLock'],
  contextmenu: ['ContextMenu', 'ContextMenu'],
  pause: ['Pause', 'Pause'],
  control: ['Control', 'ControlLeft'],
  shift: ['Shift', 'ShiftLeft'],
  alt: ['Alt', 'AltLeft'],
  meta: ['Meta', 'MetaLeft'],
};
for (let f = 1; f <= 24; f++) NAMED[`f${f}`] = [`F${f}`, `F${f}`];

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

/** A key of the US layout as KeyboardEvent fields: `code`, the legacy `keyCode`/`which`, and `location`. */
export interface KeyInfo {
  readonly code: string;
  /** The Windows virtual key code browsers give as `keyCode` and `which` on keydown and keyup. */
  readonly keyCode: number;
  /** 0 standard, 1 left (modifiers), 2 right, 3 numpad. */
  readonly location: number;
  /** The character needs Shift on a US keyboard ('A', '!', '?'). */
  readonly shifted: boolean;
}

const KEY_TABLE = new Map<string, KeyInfo>();
function define(key: string, code: string, keyCode: number, location = 0, shifted = false): void {
  KEY_TABLE.set(key, { code, keyCode, location, shifted });
}
for (let c = 65; c <= 90; c++) {
  const upper = String.fromCharCode(c);
  define(upper.toLowerCase(), `Key${upper}`, c);
  define(upper, `Key${upper}`, c, 0, true);
}
const SHIFTED_DIGITS = ')!@#$%^&*(';
for (let d = 0; d <= 9; d++) {
  define(String(d), `Digit${d}`, 48 + d);
  define(SHIFTED_DIGITS[d] as string, `Digit${d}`, 48 + d, 0, true);
}
for (const [plain, shifted, keyCode, code] of [
  [';', ':', 186, 'Semicolon'],
  ['=', '+', 187, 'Equal'],
  [',', '<', 188, 'Comma'],
  ['-', '_', 189, 'Minus'],
  ['.', '>', 190, 'Period'],
  ['/', '?', 191, 'Slash'],
  ['`', '~', 192, 'Backquote'],
  ['[', '{', 219, 'BracketLeft'],
  ['\\', '|', 220, 'Backslash'],
  [']', '}', 221, 'BracketRight'],
  ["'", '"', 222, 'Quote'],
] as const) {
  define(plain, code, keyCode);
  define(shifted, code, keyCode, 0, true);
}
for (const [key, code, keyCode, location] of [
  [' ', 'Space', 32, 0],
  ['Backspace', 'Backspace', 8, 0],
  ['Tab', 'Tab', 9, 0],
  ['Enter', 'Enter', 13, 0],
  ['Shift', 'ShiftLeft', 16, 1],
  ['Control', 'ControlLeft', 17, 1],
  ['Alt', 'AltLeft', 18, 1],
  ['Pause', 'Pause', 19, 0],
  ['CapsLock', 'CapsLock', 20, 0],
  ['Escape', 'Escape', 27, 0],
  ['PageUp', 'PageUp', 33, 0],
  ['PageDown', 'PageDown', 34, 0],
  ['End', 'End', 35, 0],
  ['Home', 'Home', 36, 0],
  ['ArrowLeft', 'ArrowLeft', 37, 0],
  ['ArrowUp', 'ArrowUp', 38, 0],
  ['ArrowRight', 'ArrowRight', 39, 0],
  ['ArrowDown', 'ArrowDown', 40, 0],
  ['Insert', 'Insert', 45, 0],
  ['Delete', 'Delete', 46, 0],
  ['Meta', 'MetaLeft', 91, 1],
  ['ContextMenu', 'ContextMenu', 93, 0],
] as const) {
  define(key, code, keyCode, location);
}
for (let f = 1; f <= 24; f++) define(`F${f}`, `F${f}`, 111 + f);

/** The US-layout facts of a `KeyboardEvent.key` value; undefined for a character no US key types ('é', '€'). */
export function keyInfo(key: string): KeyInfo | undefined {
  return KEY_TABLE.get(key);
}

/** What the key types with Shift held on a US keyboard ('a' -> 'A', '1' -> '!'); other keys are unchanged. */
export function withShift(key: string): string {
  const info = KEY_TABLE.get(key);
  if (!info || info.shifted || [...key].length !== 1) return key;
  for (const [other, o] of KEY_TABLE) if (o.code === info.code && o.shifted) return other;
  return key;
}

function codeOf(char: string): string {
  return KEY_TABLE.get(char)?.code ?? '';
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
    const key = flags.shift ? withShift(keyPart) : keyPart;
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
