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

// ignoreBOM: a U+FEFF at the start of a piece is text, not a byte order mark; whole payloads are treated the same way
// so that the outcome never depends on where chunks were cut.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding of one whole payload; throws TypeError on invalid input. */
export function decodeUtf8(bytes: Uint8Array): string {
  return strict.decode(bytes);
}

/**
 * Strict UTF-8 decoding of a payload held as several views, without first copying them into one array:
 * each view is decoded up to its last whole character and the 1-3 bytes of a character cut by a view boundary are
 * decoded together with the bytes that complete it. Throws TypeError on invalid input, like decodeUtf8.
 */
export function decodeUtf8Parts(parts: readonly Uint8Array[]): string {
  let text = '';
  let carry: Uint8Array | undefined;
  for (const part of parts) {
    let start = 0;
    if (carry) {
      const size = sequenceLength(carry[0]!);
      // Continuation bytes (10xxxxxx) that finish the carried character.
      while (start < part.length && carry.length + start < size && (part[start]! & 0xc0) === 0x80) start++;
      const joined = new Uint8Array(carry.length + start);
      joined.set(carry);
      joined.set(part.subarray(0, start), carry.length);
      if (joined.length < size && start === part.length) {
        // This view ended inside the character too (tiny chunks): keep carrying.
        carry = joined;
        continue;
      }
      text += strict.decode(joined);
      carry = undefined;
    }
    let end = part.length;
    const lead = lastLeadByte(part, start, end);
    if (lead >= 0 && end - lead < sequenceLength(part[lead]!)) {
      carry = part.slice(lead, end);
      end = lead;
    }
    text += strict.decode(part.subarray(start, end));
  }
  // A character cut off at the very end: decoding it alone throws, as it must.
  if (carry) text += strict.decode(carry);
  return text;
}

/** Index of the last byte in [start, end) that starts a multi-byte character within the last 4 bytes, else -1. */
function lastLeadByte(bytes: Uint8Array, start: number, end: number): number {
  for (let i = end - 1; i >= start && i >= end - 4; i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue;
    return b >= 0xc0 ? i : -1;
  }
  return -1;
}

/** Bytes of the UTF-8 sequence a lead byte starts (an invalid lead byte counts as 1: the decoder rejects it). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return lead <= 0xf4 ? 4 : 1;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc2) return 2;
  return 1;
}
