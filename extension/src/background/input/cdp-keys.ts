/**
 * A parsed key chord (content/keys.ts) as the fields of CDP `Input.dispatchKeyEvent`: `key`, `code`, the Windows
 * virtual key code Chrome reads `keyCode`/`which` from, the text a printable key types, and the modifier bit mask.
 * US layout, as the chord's `code` already assumes.
 */
import type { KeyChord } from '../../content/keys';

/** CDP modifier bits: Alt=1, Control=2, Meta=4, Shift=8. */
export function modifierMask(c: Pick<KeyChord, 'alt' | 'ctrl' | 'meta' | 'shift'>): number {
  return (c.alt ? 1 : 0) | (c.ctrl ? 2 : 0) | (c.meta ? 4 : 0) | (c.shift ? 8 : 0);
}

const NAMED_VK: Record<string, number> = {
  Backspace: 8,
  Tab: 9,
  Enter: 13,
  Shift: 16,
  Control: 17,
  Alt: 18,
  Escape: 27,
  ' ': 32,
  PageUp: 33,
  PageDown: 34,
  End: 35,
  Home: 36,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  Insert: 45,
  Delete: 46,
  Meta: 91,
};
for (let f = 1; f <= 24; f++) NAMED_VK[`F${f}`] = 111 + f;

/** US punctuation: the character (unshifted or shifted) -> [virtual key code, code]. */
const PUNCTUATION: Record<string, readonly [number, string]> = {};
for (const [plain, shifted, vk, code] of [
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
  PUNCTUATION[plain] = [vk, code];
  PUNCTUATION[shifted] = [vk, code];
}
const SHIFTED_DIGITS = ')!@#$%^&*(';

/** The fields of one key's `keyDown`/`keyUp`, without `type`. */
export interface CdpKey {
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  /** What the key types (absent for keys that type nothing, and for chords with Control, Alt or Meta). */
  text?: string;
  modifiers: number;
}

/** The CDP fields of `chord`. */
export function cdpKey(chord: KeyChord): CdpKey {
  const { key } = chord;
  let vk = NAMED_VK[key] ?? 0;
  let code = chord.code;
  if (vk === 0 && [...key].length === 1) {
    if (/^[a-z]$/i.test(key)) {
      vk = key.toUpperCase().charCodeAt(0);
      code ||= `Key${key.toUpperCase()}`;
    } else if (/^[0-9]$/.test(key)) {
      vk = key.charCodeAt(0);
      code ||= `Digit${key}`;
    } else if (SHIFTED_DIGITS.includes(key)) {
      const digit = String(SHIFTED_DIGITS.indexOf(key));
      vk = digit.charCodeAt(0);
      code ||= `Digit${digit}`;
    } else {
      const p = PUNCTUATION[key];
      if (p) {
        vk = p[0];
        code ||= p[1];
      }
    }
  }
  const printable = [...key].length === 1 && !chord.ctrl && !chord.alt && !chord.meta;
  const typed = key === 'Enter' && !chord.ctrl && !chord.alt && !chord.meta ? '\r' : printable ? key : undefined;
  return {
    key,
    code,
    windowsVirtualKeyCode: vk,
    ...(typed === undefined ? {} : { text: typed }),
    modifiers: modifierMask(chord),
  };
}

/** The modifier keys held for a chord, in the order a user presses them, as chords of their own. */
export function modifierKeys(chord: KeyChord): KeyChord[] {
  const none = { ctrl: false, shift: false, alt: false, meta: false };
  const out: KeyChord[] = [];
  if (chord.ctrl) out.push({ key: 'Control', code: 'ControlLeft', ...none });
  if (chord.alt) out.push({ key: 'Alt', code: 'AltLeft', ...none });
  if (chord.meta) out.push({ key: 'Meta', code: 'MetaLeft', ...none });
  if (chord.shift) out.push({ key: 'Shift', code: 'ShiftLeft', ...none });
  return out;
}
