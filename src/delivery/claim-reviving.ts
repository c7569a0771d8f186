// The claim step of an attempt, with the one case where a dead row is claimed anyway: an operator
// retried its failed job (Bull Board's "retry"), which means "deliver it again", so the row is revived
// first. Any other final row is reported as it is.
import type { DeliveryId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { DeliveryJob } from "../queue/delivery-job.ts";
import type { ClaimResult } from "../store/claim-reply.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { DeliveryTarget, PreparedAttempt } from "./delivery-target.ts";

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
