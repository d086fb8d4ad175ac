import { describe, expect, it } from 'vitest';
import { decodeUtf8, jsonStringCost, utf8ByteLength } from './utf8';

const enc = new TextEncoder();

describe('decodeUtf8', () => {
  it('decodes UTF-8, drops a leading byte order mark and rejects invalid bytes', () => {
    expect(decodeUtf8(enc.encode('aé日😀'))).toBe('aé日😀');
    expect(decodeUtf8(enc.encode('\ufeff[1]'))).toBe('[1]');
    expect(() => decodeUtf8(Uint8Array.of(0x61, 0xf0, 0x9f, 0x98))).toThrow(TypeError);
    expect(() => decodeUtf8(Uint8Array.of(0x80))).toThrow(TypeError);
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
