import { describe, expect, it } from 'vitest';
import { actionEnd } from './settle';

describe('when an action ended, for its start and quiet windows', () => {
  it('is the last input event the page saw when the browser made the input, since settle comes a round trip later', () => {
    expect(actionEnd(1_040, 1_012)).toBe(1_012);
  });

  it('is when settle was called when no input event was seen (the input went to another frame, or was synthetic)', () => {
    expect(actionEnd(1_040, undefined)).toBe(1_040);
  });

  it('is never later than when settle was called', () => {
    expect(actionEnd(1_040, 1_041)).toBe(1_040);
  });
});
