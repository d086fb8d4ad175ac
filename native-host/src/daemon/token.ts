/**
 * The daemon's check of the token a client presents in its first line. Apart from handshake.ts, which a relaying
 * `tether host` loads before its first answer: node:crypto took a host 20-40 ms to load, and only the daemon needs it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented token with the daemon's in constant time (both hashed, so their lengths leak nothing). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
