import { describe, expect, it } from 'vitest';
import { decodeUtf8, decodeUtf8Parts, jsonStringCost, utf8ByteLength } from './utf8';

const enc = new TextEncoder();

/** `bytes` cut before each index in `cuts`. */
function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    parts.push(bytes.subarray(at, c));
    at = c;
  }
  return parts;
}

describe('decodeUtf8Parts', () => {
  it('decodes characters cut at every byte by the view boundaries', () => {
    const text = 'aé日😀b\u{10ffff}';
    const bytes = enc.encode(text);
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++) expect(decodeUtf8Parts(cut(bytes, [i, j]))).toBe(text);
    }
  });

  it('decodes a payload delivered one byte a view', () => {
    const text = '😀日é'.repeat(3);
    const bytes = enc.encode(text);
    expect(decodeUtf8Parts(Array.from(bytes, (b) => Uint8Array.of(b)))).toBe(text);
  });

  it('keeps a U+FEFF at the start of a view as text', () => {
    const bytes = enc.encode('a\ufeffb');
    expect(decodeUtf8Parts(cut(bytes, [1]))).toBe('a\ufeffb');
    expect(decodeUtf8(enc.encode('\ufeff1'))).toBe('\ufeff1');
  });

  it('rejects a character cut off at the end, a stray continuation byte and an invalid lead byte', () => {
    const smile = enc.encode('😀');
    expect(() => decodeUtf8Parts([Uint8Array.of(0x61), smile.subarray(0, 3)])).toThrow(TypeError);
    expect(() => decodeUtf8Parts([Uint8Array.of(0x61), Uint8Array.of(0x80, 0x61)])).toThrow(TypeError);
    expect(() => decodeUtf8Parts([Uint8Array.of(0xe6), Uint8Array.of(0x61, 0x61)])).toThrow(TypeError);
    expect(() => decodeUtf8Parts([Uint8Array.of(0xff), Uint8Array.of(0x80)])).toThrow(TypeError);
  });
});

describe('utf8ByteLength and jsonStringCost', () => {
  it('count what TextEncoder and JSON.stringify write', () => {
    const samples = ['', 'abc', 'é', '日本', '😀', '\ud800', 'a\udc00b', '"\\\n\u0001\u007f\u2028'];
    for (const s of samples) {
      expect(utf8ByteLength(s)).toBe(enc.encode(s).length);
      let cost = 0;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
        cost += pair ? 4 : jsonStringCost(c);
        if (pair) i++;
      }
      expect(cost).toBe(enc.encode(JSON.stringify(s)).length - 2);
    }
  });
});
