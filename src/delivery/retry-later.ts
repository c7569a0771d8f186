// How a delivery attempt tells BullMQ "fail this attempt, and retry after exactly this long":
// the processor throws RetryLater, the worker's backoff strategy reads the delay back from it.
import type { BackoffStrategy } from "bullmq";

export class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = "RetryLater";
  }
}

/** Worker `settings.backoffStrategy`: the delay our retry policy chose. */
export const backoffFromError: BackoffStrategy = (_attemptsMade, _type, err) =>
  err instanceof RetryLater ? err.delayMs : 1000;
