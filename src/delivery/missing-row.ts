// What an attempt does when its job names a delivery row that does not exist. On a cluster ingest adds
// a hook's jobs right behind its persist, so a job can (rarely) run before its row is written, and a
// duplicate's jobs name rows that never will be: neither is an anomaly worth a warning.
import type { Logger } from "../observability/logger.ts";
import { deliveryOf } from "../queue/delivery-job.ts";
import { type AttemptEnd, DONE, park } from "../domain/attempt-end.ts";
import type { DeliveryTicket } from "./delivery-ticket.ts";
import type { AttemptMetrics } from "./delivery-target.ts";

/** How long a job whose hook is not written yet waits before its second look. */
export const UNWRITTEN_RECHECK_MS = 1000;

/**
 * A job whose row is missing. Its parent is there: the row was removed by hand, which is worth a
 * warning. Neither is there: on the job's first run the hook may not be written yet, so it looks once
 * more shortly; after that it is a job of a hook that was never stored (a duplicate's, whose record
 * was refused, or one whose write failed) and is dropped quietly.
 */
export function settleMissingRow(
  deps: { readonly logger: Logger; readonly metrics: AttemptMetrics; readonly now: () => number },
  job: DeliveryTicket,
  parentExists: boolean,
): AttemptEnd {
  if (!parentExists && job.attemptsStarted <= 1) {
    deps.metrics.attempt(undefined, "parked");
    return park(deps.now() + UNWRITTEN_RECHECK_MS, "its hook is not written yet");
  }
  deps.metrics.attempt(undefined, "missing");
  const ids = { delivery_id: deliveryOf(job), parent_id: job.data.p };
  if (parentExists) deps.logger.warn(ids, "job names no delivery row");
  else deps.logger.debug(ids, "dropped a job of a hook that was never stored");
  return DONE;
}
