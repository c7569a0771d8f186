// The one place delivery outcomes become BullMQ's control flow. BullMQ knows three ways out of a
// processor besides success: an UnrecoverableError fails the job now (our dead letter, kept in the
// failed set for Bull Board), a DelayedError after moveToDelayed parks it without spending an attempt
// (every retry, every breaker or lease wait: our retry policy, not BullMQ's attempt count, decides),
// and a RateLimitError pauses the whole queue (unused: limits here are per destination, not per queue).
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { AttemptEnd } from "../../domain/attempt-end.ts";

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
 * Carry out how an attempt ended (attempt-end.ts) on its job: done, parked (moveToDelayed, then the
 * DelayedError BullMQ expects), or failed for good (UnrecoverableError). A park that cannot be written
 * (Redis away, the job's lock lost) fails the job instead; its row is in its bucket's watch set, and
 * recovery retries a failed job whose row is still live (DeliveryQueues.ensure).
 */
export async function carryOut(job: Job, token: string | undefined, end: AttemptEnd): Promise<void> {
  switch (end.kind) {
    case "done":
      return;
    case "park":
      return parkJob(job, token, end.until, end.why);
    case "dead":
      throw deadLetterError(end.reason);
  }
}
