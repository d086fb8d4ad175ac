/** Bytes of `text` in UTF-8, as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * UTF-8 bytes that JSON.stringify writes for one UTF-16 unit inside a string, surrogate pairs aside
 * (a pair costs 4; a lone surrogate is escaped as \uXXXX, 6).
 */
export function jsonStringCost(c: number): number {
  if (c < 0x20) return c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
  if (c === 0x22 || c === 0x5c) return 2;
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdfff) return 6;
  return 3;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 decoding of one whole payload (a leading byte order mark is dropped); throws TypeError on invalid input. */
export function decodeUtf8(bytes: Uint8Array): string {
  return strict.decode(bytes);
}
