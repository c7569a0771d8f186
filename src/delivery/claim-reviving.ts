// The claim step of an attempt, with the one case where a dead row is claimed anyway: an operator
// retried its failed job (Bull Board's "retry"), which means "deliver it again", so the row is revived
// first. Any other final row is reported as it is. And what a job whose row is missing does.
import type { DeliveryId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import { type DeliveryJob, deliveryOf } from "../queue/delivery-job.ts";
import type { ClaimResult, DeliveryStore } from "../store/delivery-store.ts";
import { parkJob } from "./bullmq-control.ts";
import type { AttemptMetrics, DeliveryTarget, PreparedAttempt } from "./delivery-target.ts";

/**
 * How long a job whose hook is not written yet waits before its second look. Ingest adds a hook's
 * jobs right behind its persist; on a cluster the job's node can answer first.
 */
export const UNWRITTEN_RECHECK_MS = 1000;

export interface ClaimDeps<P extends PreparedAttempt> {
  readonly ledger: DeliveryStore;
  readonly target: Pick<DeliveryTarget<P>, "parentKey" | "parentFields">;
  readonly logger: Logger;
  readonly leaseMs: number;
  readonly now: () => number;
}

/** Claim the row of `job`'s delivery, reviving first a dead row whose failed job was retried by hand. */
export async function claimReviving<P extends PreparedAttempt>(
  deps: ClaimDeps<P>,
  job: DeliveryJob,
  token: string | undefined,
  id: DeliveryId,
): Promise<ClaimResult> {
  const { ledger, target, leaseMs, now } = deps;
  const claim = () =>
    ledger.claim(id, target.parentKey(job), token ?? String(job.id), leaseMs, target.parentFields, now());
  const first = await claim();
  if (first.kind !== "dead") return first;
  const row = await ledger.get(id);
  if (!row || (await ledger.revive(row, undefined, Infinity, now())) !== "moved") return first;
  deps.logger.info({ delivery_id: id, parent_id: job.data.p }, "dead delivery retried by an operator");
  return claim();
}

/**
 * A job whose row is missing. Its parent is there too: the row was removed by hand, which is worth a
 * warning. Neither is there: on the job's first run the hook may not be written yet, so it looks once
 * more shortly; after that it is a job of a hook that was never stored (a duplicate's, whose record
 * was refused, or one whose write failed) and is dropped quietly.
 */
export async function settleMissingRow(
  deps: { readonly logger: Logger; readonly metrics: AttemptMetrics; readonly now: () => number },
  job: DeliveryJob,
  token: string | undefined,
  parentExists: boolean,
): Promise<void> {
  const ids = { delivery_id: deliveryOf(job), parent_id: job.data.p };
  if (!parentExists && job.attemptsStarted <= 1) {
    deps.metrics.attempt(undefined, "parked");
    return parkJob(job, token, deps.now() + UNWRITTEN_RECHECK_MS, "its hook is not written yet");
  }
  deps.metrics.attempt(undefined, "missing");
  if (parentExists) deps.logger.warn(ids, "job names no delivery row");
  else deps.logger.debug(ids, "dropped a job of a hook that was never stored");
}
