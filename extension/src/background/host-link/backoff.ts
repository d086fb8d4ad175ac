/** Reconnect delays: exponential from 500 ms to 30 s with ±20% jitter, so many browsers do not retry in lockstep. */

/** Longest wait between attempts. */
export const MAX_RETRY_DELAY_MS = 30_000;
const FIRST_RETRY_DELAY_MS = 500;

/** Delay before reconnect attempt number `attempt` (1 = first retry); `random` is in [0, 1). */
export function retryDelayMs(attempt: number, random: number = Math.random()): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random));
}
