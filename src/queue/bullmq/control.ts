// The one place delivery outcomes become BullMQ's control flow. BullMQ knows three ways out of a
// processor besides success: an UnrecoverableError fails the job now (our dead letter, kept in the
// failed set for Bull Board), a DelayedError after moveToDelayed parks it without spending an attempt
// (every retry, every breaker or lease wait: our retry policy, not BullMQ's attempt count, decides),
// and a RateLimitError pauses the whole queue (unused: limits here are per destination, not per queue).
import { DelayedError, type Job, UnrecoverableError, WaitingChildrenError } from "bullmq";

/**
 * BullMQ stores a failed attempt's stack on the job, and Bull Board shows it: ours would only repeat
 * the reason and leak server paths, so the errors we throw carry their message alone.
 */
function bare<E extends Error>(err: E): E {
  err.stack = `${err.name}: ${err.message}`;
  return err;
}

/** Park `job` until `until` (ms) without spending an attempt; always throws the DelayedError BullMQ expects. */
export async function parkJob(
  job: Job,
  token: string | undefined,
  until: number,
  why: string,
): Promise<never> {
  await job.moveToDelayed(Math.round(until), token);
  throw bare(new DelayedError(why));
}

/** The error that fails a dead-lettered delivery's job for good. */
export function deadLetterError(reason: string): UnrecoverableError {
  return bare(new UnrecoverableError(reason));
}

/**
 * Spread wake-ups of parked jobs: up to 10 % of the wait, at most 1 s, so jobs parked for one
 * deadline do not all come back in the same instant.
 */
export function withJitter(until: number, now: number, random: () => number = Math.random): number {
  const wait = Math.max(0, until - now);
  return until + Math.floor(random() * Math.min(1000, wait / 10 + 50));
}

/** BullMQ's own control errors (and ours built on them): a processor passes them through untouched. */
export function isControl(err: unknown): boolean {
  return (
    err instanceof DelayedError || err instanceof UnrecoverableError || err instanceof WaitingChildrenError
  );
}
