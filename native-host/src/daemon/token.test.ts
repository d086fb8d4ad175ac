import { describe, expect, it } from 'vitest';
import { tokenMatches } from './token';

describe("the daemon's token check", () => {
  it('compares tokens in full, whatever their lengths', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    expect(tokenMatches('abcabc', 'abc')).toBe(false);
  });
});
