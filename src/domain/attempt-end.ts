// How an attempt ended, for the queue that handed the delivery out to carry out: the runner decides
// (from the ledger and the retry policy), the queue's adapter moves its entry accordingly (BullMQ's:
// queue/bullmq/control.ts). So the runner knows nothing of the queue it is fed from.

export type AttemptEnd =
  /** Nothing more to do: delivered, already final, or a delivery with no row to run. */
  | { readonly kind: "done" }
  /** Run it again at `until` (ms): a retry, or a wait that spent no attempt (limits, a lease, Redis away). */
  | { readonly kind: "park"; readonly until: number; readonly why: string }
  /** Dead-lettered (the ledger has recorded it): never run it again. */
  | { readonly kind: "dead"; readonly reason: string };

export const DONE: AttemptEnd = { kind: "done" };

export function park(until: number, why: string): AttemptEnd {
  return { kind: "park", until, why };
}

export function dead(reason: string): AttemptEnd {
  return { kind: "dead", reason };
}

/**
 * Spread wake-ups of parked deliveries: up to 10 % of the wait, at most 1 s, so deliveries parked for one
 * deadline do not all come back in the same instant.
 */
export function withJitter(until: number, now: number, random: () => number = Math.random): number {
  const wait = Math.max(0, until - now);
  return until + Math.floor(random() * Math.min(1000, wait / 10 + 50));
}
