// One delivery attempt of ANY delivery, in named phases: admit (the target's breaker and limits,
// before anything is read, so a parked delivery costs no payload read) → claim the row (lease + fencing
// token, and the parent record, in one round trip) → prepare and send through the target → record the
// outcome through the fenced ledger → say how it ended (done, parked until the next attempt, or dead),
// for the queue that handed it out to carry out. The ledger row, never the queue's entry, holds the
// state; the retry policy, never the queue's attempt count, decides every retry and every death.
// Inbound sinks and outbound endpoints differ only in their DeliveryTarget.
import { attemptOf } from "../domain/attempt.ts";
import { type DeliveryResult, type SinkFailure, errorClassOf, wasCancelled } from "../domain/error-class.ts";
import { type Random, decideRetry } from "../domain/retry-policy.ts";
import { LogThrottle } from "../observability/log-throttle.ts";
import type { Logger } from "../observability/logger.ts";
import { type AttemptSpan, TRACING_OFF, type Tracing } from "../observability/tracing.ts";
import { timeline } from "../observability/timeline.ts";
import { deliveryOf } from "../queue/delivery-job.ts";
import type { ClaimResult } from "../store/claim-reply.ts";
import type { DeliveryStore, Finish } from "../store/delivery-store.ts";
import { asStoreUnavailable } from "../store/store-errors.ts";
import { type AttemptEnd, DONE, dead, park, withJitter } from "../domain/attempt-end.ts";
import type { DeliveryTicket } from "./delivery-ticket.ts";
import { LeaseGuard } from "./lease-guard.ts";
import { type LedgerRow, outcomeWriter } from "./outcome-writer.ts";
import { settleMissingRow } from "./missing-row.ts";
import type {
  Admission,
  AttemptMetrics,
  ClaimedDelivery,
  DeliveryTarget,
  PreparedAttempt,
} from "./delivery-target.ts";

export interface RunnerDeps<P extends PreparedAttempt> {
  readonly target: DeliveryTarget<P>;
  readonly ledger: DeliveryStore;
  readonly metrics: AttemptMetrics;
  readonly logger: Logger;
  /** The lease an attempt holds on its row; renewed while the attempt runs. */
  readonly leaseMs: number;
  readonly maxRetryAfterMs: number;
  /** A span per attempt, child of the hook's or event's stored trace context (default: off). */
  readonly tracing?: Tracing;
  readonly now?: () => number;
  readonly random?: Random;
}

/** The claim an attempt holds, so an unexpected error can hand it back. */
interface Held {
  admission?: Admission | undefined;
  row?: LedgerRow | undefined;
  writer?: { fence: number };
  span?: AttemptSpan | undefined;
}

/** How long a job waits when the ledger could not be read (Redis away): no attempt is spent. */
const STORE_PARK_MS = 2000;
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** Run one attempt of the delivery a queue handed out; `token`: the queue's, the lease's owner. */
export type AttemptRun = (job: DeliveryTicket, token?: string) => Promise<AttemptEnd>;

/** Build the attempt runner of one delivery queue. */
export function createAttemptRunner<P extends PreparedAttempt>(deps: RunnerDeps<P>): AttemptRun {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const { target, ledger, metrics, leaseMs, logger } = deps;
  const tracing = deps.tracing ?? TRACING_OFF;
  const outageLog = new LogThrottle(OUTAGE_LOG_INTERVAL_MS, now);
  const { record, deadLetter } = outcomeWriter({ target, ledger, metrics, logger, now });

  return async (job, token) => {
    const held: Held = {};
    try {
      return await attempt(job, token, held);
    } catch (err) {
      // A bug or an infrastructure error mid-attempt: never let the queue fail the delivery for it (its
      // attempt count is not ours). Hand the row back unattempted and come back shortly. A Redis
      // outage is expected weather, not a bug: one warning per interval, not an error per job.
      if (asStoreUnavailable(err))
        outageLog.warn(logger, { err: (err as Error).message }, "delivery store unavailable; jobs parked");
      else logger.error({ job_id: job.id, err: (err as Error).message }, "attempt failed unexpectedly");
      held.span?.end("error", "released");
      if (held.admission) await target.unadmit(job, held.admission).catch(() => undefined);
      if (held.row && held.writer)
        await ledger.finish(held.row, held.writer, { outcome: "release" }).catch(() => undefined);
      return park(now() + STORE_PARK_MS, "unexpected error, retrying");
    }
  };

  async function attempt(job: DeliveryTicket, token: string | undefined, held: Held): Promise<AttemptEnd> {
    const id = deliveryOf(job);
    const pickedUp = timeline.now();

    // Phase 1: admission. Parked here, a job reads nothing and spends no attempt.
    const admission = await target.admit(job);
    if (!admission.pass) {
      metrics.attempt(undefined, "parked");
      return park(withJitter(admission.until, now(), random), admission.why);
    }
    held.admission = admission;

    // Phase 2: claim the row, reading its parent with it.
    let claim: ClaimResult;
    const claimedAt = now();
    const owner = token ?? String(job.id);
    try {
      claim = await ledger.claim(id, target.parentKey(job), owner, leaseMs, target.parentFields, claimedAt);
    } catch (err) {
      await target.unadmit(job, admission);
      logger.warn({ delivery_id: id, err: (err as Error).message }, "could not claim a delivery");
      return park(now() + STORE_PARK_MS, "delivery store unavailable");
    }
    const claimReturned = timeline.now();
    if (claim.kind !== "ok") {
      held.admission = undefined;
      await target.unadmit(job, admission);
      switch (claim.kind) {
        case "leased":
          // Another worker's attempt is (or was, until its lease runs out) in flight.
          return park(withJitter(claim.until, now(), random), "another worker holds the lease");
        case "missing":
          return settleMissingRow({ logger, metrics, now }, job, claim.parentExists);
        case "delivered":
        case "dead":
          // Final: nothing to run. A dead row comes back only on purpose (a replay revives
          // it, see replay-mover.ts), never because its job ran again (a worker that died between
          // the dead write and failing the job, an operator's retry in Bull Board).
          return DONE;
      }
    }
    const writer = { fence: claim.fence };
    const claimed: ClaimedDelivery = {
      id,
      parentId: job.data.p,
      attempt: claim.attempt,
      replayId: claim.replayId,
      parent: claim.parent,
    };
    const prepared = await target.prepare(job, claimed);
    if (typeof prepared === "string") {
      held.admission = undefined;
      await target.unadmit(job, admission);
      const row = await ledger.get(id);
      if (row)
        await ledger.finish(row, writer, { outcome: "dead", reason: prepared, errorClass: "permanent" });
      logger.error({ delivery_id: id, parent_id: job.data.p, reason: prepared }, "dead-lettered");
      return dead(prepared);
    }
    const row: LedgerRow = {
      id,
      parentId: job.data.p,
      target: prepared.target,
      source: prepared.source,
      tenant: prepared.tenant,
    };
    held.row = row;
    held.writer = writer;
    const log = { delivery_id: id, ...prepared.log, attempt: claim.attempt, replay_id: claim.replayId };

    // The budget is the current config's, read against the row: workers that died mid-attempt spent
    // attempts too, and a lowered max_attempts applies to deliveries already in flight.
    if (claim.attempt > prepared.policy.max_attempts) {
      held.admission = undefined;
      await target.unadmit(job, admission);
      const reason = `out of attempts before attempt ${claim.attempt} (interrupted attempts or a lowered max_attempts)`;
      return deadLetter(prepared, row, writer, { kind: "transient", reason }, log, "attempts");
    }

    // Phase 3: send under the lease (renewed while it runs, the attempt cancelled if it cannot be: see
    // LeaseGuard). The attempt is a span of the hook's trace, and its log lines carry the trace id.
    const span = tracing.startAttempt(prepared.target, prepared.traceParent, log);
    held.span = span;
    const traced = span ? { ...log, trace_id: span.traceId } : log;
    const startedAt = now();
    const sending = timeline.now();
    const lease = new LeaseGuard({
      renew: (until) => ledger.renew(id, claim.fence, until),
      leaseMs,
      until: claimedAt + leaseMs,
      now,
    });
    let result: DeliveryResult;
    try {
      result = await target.send(prepared, claimed, admission, span?.traceparent, lease);
    } finally {
      lease.stop();
    }
    // From here the target accounts for the admission itself (settled, or unadmit when handed back).
    held.admission = undefined;
    const finishedAt = now();
    const attemptLog = (extra?: object) => ({ ...traced, duration_ms: finishedAt - startedAt, ...extra });

    // Phase 4: record the outcome, then hand it to BullMQ.
    if (result.ok) {
      span?.end("ok", "delivered");
      const answered = timeline.now();
      metrics.attempt(prepared, "ok");
      metrics.delivered(prepared, (finishedAt - prepared.receivedAt) / 1000);
      const delivered: Finish = {
        outcome: "delivered",
        statusCode: result.trace?.statusCode,
        attempt: attemptOf(result, startedAt, finishedAt),
      };
      if ((await record(row, writer, delivered, finishedAt)) && logger.isLevelEnabled("info"))
        logger.info(attemptLog({ result: "ok" }), "delivered");
      if (timeline.on)
        timeline.markAll(job.data.p, [
          // When BullMQ's worker asked for the job (its moveToActive stamp, whole ms): the wait before
          // it is the queue's, the wait after it is the worker's loop.
          ...(job.processedOn === undefined ? [] : [["activated", job.processedOn] as const]),
          ["picked_up", pickedUp],
          ["claimed", claimReturned],
          ["sending", sending],
          ["answered", answered],
          ["recorded"],
        ]);
      await target.settled?.(prepared, result, true);
      return DONE;
    }
    const failure: SinkFailure = result.failure;
    if (wasCancelled(result)) {
      // Not the destination's answer (this process is stopping, the breaker opened first, or the lease
      // could not be renewed): hand the delivery back as it was, unattempted.
      span?.end("cancelled", "released");
      held.row = undefined;
      await target.unadmit(job, admission);
      await record(row, writer, { outcome: "release" }, finishedAt);
      logger.info(attemptLog({ result: "cancelled", reason: failure.reason }), "attempt handed back");
      return park(finishedAt, failure.reason);
    }
    const errorClass = errorClassOf(failure);
    metrics.attempt(prepared, errorClass);
    const decision = decideRetry({
      failure,
      attempt: claim.attempt,
      firstAttemptAt: claim.firstAttemptAt,
      now: finishedAt,
      policy: prepared.policy,
      maxRetryAfterMs: deps.maxRetryAfterMs,
      random,
    });
    span?.end(errorClass, decision.kind === "dead" ? "dead" : "retrying", failure.statusCode);
    if (decision.kind === "dead")
      return deadLetter(prepared, row, writer, failure, attemptLog(), decision.why, {
        result,
        attempt: attemptOf(result, startedAt, finishedAt),
      });
    const next = finishedAt + decision.delayMs;
    const written = await record(
      row,
      writer,
      {
        outcome: "retrying",
        nextAttemptAt: next,
        reason: failure.reason,
        errorClass,
        statusCode: failure.statusCode,
        attempt: attemptOf(result, startedAt, finishedAt),
      },
      finishedAt,
    );
    await target.settled?.(prepared, result, false);
    if (!written) return DONE;
    logger.warn(
      attemptLog({ result: errorClass, reason: failure.reason, retry_in_ms: decision.delayMs }),
      "attempt failed",
    );
    return park(next, failure.reason);
  }
}
