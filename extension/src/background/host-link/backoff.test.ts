import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from './backoff';

describe('retryDelayMs', () => {
  it('doubles from half a second and stops at the maximum', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, 0.5))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(20, 0.5)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('spreads retries by plus or minus twenty percent', () => {
    expect(retryDelayMs(3, 0)).toBe(1600);
    expect(retryDelayMs(3, 0.999999)).toBe(2400);
  });
});
