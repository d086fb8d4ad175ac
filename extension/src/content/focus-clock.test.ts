import { describe, expect, it } from 'vitest';
import { FOCUS_SETTLE_MS, settleWaitMs } from './focus-clock';

describe('how long a caret move in an editor waits after focus', () => {
  it('waits out what is left of the settle time when focus moved in just now', () => {
    expect(settleWaitMs(1_000, 1_122)).toBe(FOCUS_SETTLE_MS - 122);
    expect(settleWaitMs(1_000, 1_000)).toBe(FOCUS_SETTLE_MS);
  });

  it('does not wait once the settle time has passed since focus, as for every key a user presses later', () => {
    expect(settleWaitMs(1_000, 1_000 + FOCUS_SETTLE_MS)).toBe(0);
    expect(settleWaitMs(1_000, 60_000)).toBe(0);
  });

  it('does not wait when focus moved before the agent watched, or into another element', () => {
    expect(settleWaitMs(undefined, 1_000)).toBe(0);
  });

  it('never waits longer than the settle time, even with a focus time from a later clock reading', () => {
    expect(settleWaitMs(2_000, 1_000)).toBe(FOCUS_SETTLE_MS);
  });
});
