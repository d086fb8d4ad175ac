/**
 * A parsed key chord (content/keys.ts) as the fields of CDP `Input.dispatchKeyEvent`: `key`, `code`, the Windows
 * virtual key code Chrome reads `keyCode`/`which` from, the text a printable key types, and the modifier bit mask.
 * US layout, from the same table the page agent's synthetic keys use.
 */
import { type KeyChord, keyInfo } from '../../content/keys';

/** CDP modifier bits: Alt=1, Control=2, Meta=4, Shift=8. */
export function modifierMask(c: Pick<KeyChord, 'alt' | 'ctrl' | 'meta' | 'shift'>): number {
  return (c.alt ? 1 : 0) | (c.ctrl ? 2 : 0) | (c.meta ? 4 : 0) | (c.shift ? 8 : 0);
}

/** The fields of one key's `keyDown`/`keyUp`, without `type`. */
export interface CdpKey {
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  /** 1 left, 2 right, 3 numpad; absent for standard keys. */
  location?: number;
  /** What the key types (absent for keys that type nothing, and for chords with Control, Alt or Meta). */
  text?: string;
  modifiers: number;
}

/** The CDP fields of `chord`, from the page agent's US key table (content/keys.ts), so both inputs agree. */
export function cdpKey(chord: KeyChord): CdpKey {
  const { key } = chord;
  const info = keyInfo(key);
  const printable = [...key].length === 1 && !chord.ctrl && !chord.alt && !chord.meta;
  const typed = key === 'Enter' && !chord.ctrl && !chord.alt && !chord.meta ? '\r' : printable ? key : undefined;
  return {
    key,
    code: chord.code || (info?.code ?? ''),
    windowsVirtualKeyCode: info?.keyCode ?? 0,
    ...(info && info.location !== 0 ? { location: info.location } : {}),
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
