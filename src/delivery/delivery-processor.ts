// One delivery attempt of an inbound hook to a sink, in named phases: ask the breaker (no I/O, so a
// parked job never reads the body) → claim the row (lease + fencing token, and the record, in one
// round trip) → call the sink → record the outcome through the fenced ledger → tell BullMQ (done,
// parked until the next attempt, or failed for good). The ledger row, never the job, holds the state.
import { DelayedError, type Job, UnrecoverableError, WaitingChildrenError } from "bullmq";
import type { Config, RetryConfig } from "../config/schema.ts";
import { type DeliveryResult, type SinkFailure, errorClassOf } from "../domain/error-class.ts";
import type { ClaimRef, Delivery, HookRecord } from "../domain/hook.ts";
import type { DeliveryId, HookId } from "../domain/ids.ts";
import { type Random, decideRetry } from "../domain/retry-policy.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type DeliveryJobData, deliveryOf } from "../queue/delivery-job.ts";
import type { Sink } from "../sinks/sink.ts";
import type { ClaimResult, DeliveryStore, Finish } from "../store/delivery-store.ts";
import { HOOK_ATTEMPT_FIELDS, toHookRecord } from "../store/hook-store.ts";
import { deadLetterError, parkJob, withJitter } from "./bullmq-control.ts";
import { type InFlightAttempts, safeDeliver } from "./safe-deliver.ts";
import type { SinkBreaker } from "./sink-breaker.ts";

export interface ProcessorDeps {
  readonly config: Config;
  readonly sink: Sink;
  readonly breaker: SinkBreaker;
  readonly ledger: DeliveryStore;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** The claim every sink of the hook's source gets, if its body is large. */
  readonly claimFor: (hook: HookRecord) => ClaimRef | undefined;
  /** Lets a forced shutdown abort every attempt in flight. */
  readonly inFlight?: InFlightAttempts;
  readonly now?: () => number;
  readonly random?: Random;
}

export type DeliveryJob = Job<DeliveryJobData, void, string>;

/** The claim an attempt holds, so an unexpected error can hand it back. */
interface Held {
  row?: Parameters<DeliveryStore["finish"]>[0] | undefined;
  writer?: { fence: number };
}

/** BullMQ's own control errors (and ours built on them) pass through untouched. */
function isControl(err: unknown): boolean {
  return (
    err instanceof DelayedError || err instanceof UnrecoverableError || err instanceof WaitingChildrenError
  );
}

/** How long a job waits when the ledger could not be read (Redis away): no attempt is spent. */
const STORE_PARK_MS = 2000;

/** Build the BullMQ processor of one sink's queue. */
export function createDeliveryProcessor(
  deps: ProcessorDeps,
): (job: DeliveryJob, token?: string) => Promise<void> {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const { sink, breaker, metrics, ledger, config } = deps;
  // Label lookups cost a hash per call: keep the hot path's children.
  const okAttempts = metrics.dispatchAttempts.labels({ sink: sink.name, result: "ok" });
  const latency = metrics.deliveryLatency.labels({ sink: sink.name });
  // A lease outlives the BullMQ lock a little, so a job BullMQ hands to another worker after a crash
  // finds the lease expired, or waits (parked) for it; running attempts renew it.
  const leaseMs = config.dispatch.lock_ms;

  const retryPolicy = (source: string): RetryConfig => ({
    ...config.dispatch.retry,
    ...config.sources[source]?.retry,
  });

  return async (job, token) => {
    const held: Held = {};
    try {
      return await attempt(job, token, held);
    } catch (err) {
      if (isControl(err)) throw err;
      // A bug or an infrastructure error mid-attempt: never let BullMQ fail the job for it (its
      // attempt count is not ours). Hand the row back unattempted and come back shortly.
      deps.logger.error(
        { job_id: job.id, sink: sink.name, err: (err as Error).message },
        "attempt failed unexpectedly",
      );
      if (held.row && held.writer)
        await ledger.finish(held.row, held.writer, { outcome: "release" }).catch(() => undefined);
      return parkJob(job, token, now() + STORE_PARK_MS, "unexpected error, retrying");
    }
  };

  async function attempt(job: DeliveryJob, token: string | undefined, held: Held): Promise<void> {
    const id = deliveryOf(job);
    const parentId = job.data.p as HookId;

    // Phase 1: breaker. While open, park the job without reading anything or spending an attempt.
    const gate = breaker.gate();
    if (!gate.pass) {
      metrics.dispatchAttempts.inc({ sink: sink.name, result: "parked" });
      return parkJob(
        job,
        token,
        withJitter(gate.parkUntil, now(), random),
        `breaker open for sink ${sink.name}`,
      );
    }

    // Phase 2: claim the row, reading the record with it.
    let claim: ClaimResult;
    try {
      claim = await claimOnce(job, token, id, parentId);
    } catch (err) {
      breaker.release(gate);
      deps.logger.warn({ delivery_id: id, err: (err as Error).message }, "could not claim a delivery");
      return parkJob(job, token, now() + STORE_PARK_MS, "delivery store unavailable");
    }
    if (claim.kind !== "ok") {
      breaker.release(gate);
      switch (claim.kind) {
        case "leased":
          // Another worker's attempt is (or was, until its lease runs out) in flight.
          return parkJob(
            job,
            token,
            withJitter(claim.until, now(), random),
            "another worker holds the lease",
          );
        case "missing":
          metrics.dispatchAttempts.inc({ sink: sink.name, result: "missing" });
          deps.logger.warn(
            { delivery_id: id, hook_id: parentId, sink: sink.name },
            "job names no delivery row",
          );
          return;
        case "delivered":
        case "dead":
          return;
      }
    }
    const row = { id, parentId, target: { kind: "sink" as const, name: sink.name } };
    const writer = { fence: claim.fence };
    const hook = toHookRecord(parentId, ...(claim.parent as [Buffer?, Buffer?, Buffer?]));
    if (!hook) {
      breaker.release(gate);
      await record({ ...row, source: "unknown", tenant: undefined }, writer, {
        outcome: "dead",
        reason: "the hook record is gone",
        errorClass: "permanent",
      });
      throw deadLetterError("the hook record is gone");
    }
    const ledgerRow = { ...row, source: hook.source, tenant: hook.tenant };
    held.row = ledgerRow;
    held.writer = writer;
    const log = {
      hook_id: hook.id,
      delivery_id: id,
      source: hook.source,
      tenant: hook.tenant,
      sink: sink.name,
      attempt: claim.attempt,
      replay_id: claim.replayId,
    };

    // The budget is the current config's, read against the row: workers that died mid-attempt spent
    // attempts too, and a lowered max_attempts applies to deliveries already in flight.
    const policy = retryPolicy(hook.source);
    const startedAt = now();
    if (claim.attempt > policy.max_attempts) {
      breaker.release(gate);
      const reason = `out of attempts before attempt ${claim.attempt} (interrupted attempts or a lowered max_attempts)`;
      return deadLetter(ledgerRow, writer, hook, { kind: "transient", reason }, log, "attempts", false);
    }

    // Phase 3: call the sink, renewing the lease while the attempt runs long.
    const delivery: Delivery = {
      hook,
      sink: sink.name,
      attempt: claim.attempt,
      replayId: claim.replayId,
      claim: deps.claimFor(hook),
    };
    const renewal = setInterval(
      () => {
        ledger.renew(id, claim.fence, now() + leaseMs).catch(() => undefined);
      },
      Math.max(250, Math.floor(leaseMs / 2)),
    );
    let result: DeliveryResult;
    try {
      result = await breaker.run(
        () => safeDeliver(sink, delivery, config.dispatch.attempt_timeout_ms, deps.inFlight),
        gate.probe,
      );
    } finally {
      clearInterval(renewal);
    }
    const finishedAt = now();
    const attemptLog = { ...log, duration_ms: finishedAt - startedAt };

    // Phase 4: record the outcome, then hand it to BullMQ.
    if (result.ok) {
      okAttempts.inc();
      latency.observe((finishedAt - hook.receivedAt) / 1000);
      if (await record(ledgerRow, writer, { outcome: "delivered" }, finishedAt))
        deps.logger.info({ ...attemptLog, result: "ok" }, "delivered");
      return;
    }
    const failure: SinkFailure = result.failure;
    if (failure.kind === "transient" && failure.cancelled) {
      // Not the destination's answer (this process is stopping, or the breaker opened first): hand
      // the delivery back as it was, unattempted.
      held.row = undefined;
      await record(ledgerRow, writer, { outcome: "release" }, finishedAt);
      deps.logger.info({ ...attemptLog, result: "cancelled", reason: failure.reason }, "attempt handed back");
      return parkJob(job, token, finishedAt, failure.reason);
    }
    const errorClass = errorClassOf(failure);
    metrics.dispatchAttempts.inc({ sink: sink.name, result: errorClass });
    const decision = decideRetry({
      failure,
      attempt: claim.attempt,
      firstAttemptAt: claim.firstAttemptAt,
      now: finishedAt,
      policy,
      maxRetryAfterMs: config.dispatch.max_retry_after_ms,
      random,
    });
    if (decision.kind === "dead")
      return deadLetter(ledgerRow, writer, hook, failure, attemptLog, decision.why);
    const next = finishedAt + decision.delayMs;
    const written = await record(
      ledgerRow,
      writer,
      {
        outcome: "retrying",
        nextAttemptAt: next,
        reason: failure.reason,
        errorClass,
        statusCode: failure.statusCode,
      },
      finishedAt,
    );
    if (!written) return;
    deps.logger.warn(
      { ...attemptLog, result: errorClass, reason: failure.reason, retry_in_ms: decision.delayMs },
      "attempt failed",
    );
    return parkJob(job, token, next, failure.reason);
  }

  /** Claim, reviving first a dead row whose failed job an operator has retried (Bull Board). */
  async function claimOnce(
    job: DeliveryJob,
    token: string | undefined,
    id: DeliveryId,
    parentId: HookId,
  ): Promise<ClaimResult> {
    const claim = () =>
      ledger.claim(
        id,
        ledger.keys.hook(parentId),
        token ?? String(job.id),
        leaseMs,
        HOOK_ATTEMPT_FIELDS,
        now(),
      );
    const first = await claim();
    if (first.kind !== "dead") return first;
    const row = await ledger.get(id);
    if (!row || (await ledger.revive(row, undefined, Infinity, now())) !== "moved") return first;
    deps.logger.info(
      { delivery_id: id, hook_id: parentId, sink: sink.name },
      "dead delivery retried by an operator",
    );
    return claim();
  }

  /** Write an outcome; a refusal means another worker owns the row now, which is counted, not an error. */
  async function record(
    row: Parameters<DeliveryStore["finish"]>[0],
    writer: { fence: number },
    finish: Finish,
    at = now(),
  ): Promise<boolean> {
    const written = await ledger.finish(row, writer, finish, at);
    if (!written) {
      metrics.fencedWrites.inc({ sink: sink.name });
      deps.logger.warn(
        { delivery_id: row.id, sink: sink.name, outcome: finish.outcome },
        "outcome refused: the lease was lost to another worker",
      );
    }
    return written;
  }

  async function deadLetter(
    row: Parameters<DeliveryStore["finish"]>[0],
    writer: { fence: number },
    hook: HookRecord,
    failure: SinkFailure,
    log: Record<string, unknown>,
    why: string,
    attempted = true,
  ): Promise<never> {
    const errorClass = errorClassOf(failure);
    // Count first: whoever sees the dead row (an alert, a test) sees the metrics too.
    metrics.deadLettered.inc({ source: hook.source, sink: sink.name, error_class: errorClass });
    if (failure.kind === "permanent" && failure.config) metrics.configErrors.inc({ sink: sink.name });
    if (
      await record(row, writer, {
        outcome: "dead",
        reason: failure.reason,
        errorClass,
        statusCode: failure.statusCode,
        attempted,
      })
    )
      deps.logger.error({ ...log, result: errorClass, reason: failure.reason, why }, "dead-lettered");
    throw deadLetterError(`${errorClass}: ${failure.reason}`);
  }
}
