// How long a sink waits before its next connect attempt after `failures` in a row: short enough that a broker
// restart costs well under a second of failed deliveries, long enough that a down broker sees a few attempts
// a second at most, and jittered so many workers do not reconnect in lockstep.

const INITIAL_MS = 100;
const MAX_MS = 5_000;
const JITTER = 0.2;

/** Delay before the next connect attempt; `failures` >= 1. `random` is injectable for tests. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const exp = Math.min(MAX_MS, INITIAL_MS * 2 ** Math.max(0, failures - 1));
  const jittered = exp * (1 - JITTER + 2 * JITTER * random());
  return Math.min(MAX_MS, Math.round(jittered));
}
