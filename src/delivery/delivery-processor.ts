// One delivery attempt, in named phases: load the hook → ask the breaker → call the sink → record the
// outcome → tell BullMQ (done, retry after N ms, park without spending an attempt, or dead-letter).
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Config, RetryConfig } from "../config/schema.ts";
import type { SinkDeliveryState } from "../domain/delivery-state.ts";
import { type DeliveryResult, type SinkFailure, errorClassOf } from "../domain/error-class.ts";
import type { ClaimRef, Delivery, HookRecord } from "../domain/hook.ts";
import { type Random, decideRetry } from "../domain/retry-policy.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { DeliveryJobData } from "../queue/delivery-job.ts";
import type { Sink } from "../sinks/sink.ts";
import type { DlqStore } from "../store/dlq-store.ts";
import type { HookStore, StoredHook } from "../store/hook-store.ts";
import { RetryLater } from "./retry-later.ts";
import { type InFlightAttempts, safeDeliver } from "./safe-deliver.ts";
import type { SinkBreaker } from "./sink-breaker.ts";

export interface ProcessorDeps {
  readonly config: Config;
  readonly sink: Sink;
  readonly breaker: SinkBreaker;
  readonly hooks: HookStore;
  readonly dlq: DlqStore;
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

/**
 * BullMQ stores a failed attempt's stack on the job, and Bull Board shows it: ours would only repeat
 * the reason and leak server paths, so the errors we throw carry their message alone.
 */
function bare<E extends Error>(err: E): E {
  err.stack = `${err.name}: ${err.message}`;
  return err;
}

/** Build the BullMQ processor of one sink's queue. */
export function createDeliveryProcessor(
  deps: ProcessorDeps,
): (job: DeliveryJob, token?: string) => Promise<void> {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const { sink, breaker, metrics } = deps;
  // Label lookups cost a hash per call: keep the hot path's children.
  const okAttempts = metrics.dispatchAttempts.labels({ sink: sink.name, result: "ok" });
  const latency = metrics.deliveryLatency.labels({ sink: sink.name });

  const retryPolicy = (source: string): RetryConfig => ({
    ...deps.config.dispatch.retry,
    ...deps.config.sources[source]?.retry,
  });

  return async (job, token) => {
    const { hookId, replayId } = job.data;
    const attempt = job.attemptsMade + 1;

    // Phase 1: load. A record that is gone (retention passed) can never be delivered.
    const stored = await deps.hooks.load(hookId, sink.name);
    if (!stored) {
      metrics.dispatchAttempts.inc({ sink: sink.name, result: "missing" });
      throw bare(new UnrecoverableError(`hook ${hookId} no longer exists (retention passed)`));
    }
    const previous = stored.sinkStates[sink.name];
    const sameRun = previous?.replay_id === replayId;
    if (previous?.state === "delivered" && sameRun) return; // re-added by recovery after success

    // Phase 2: breaker. While open, park the job without spending an attempt.
    const gate = breaker.gate();
    if (!gate.pass) {
      metrics.dispatchAttempts.inc({ sink: sink.name, result: "parked" });
      await job.moveToDelayed(gate.parkUntil, token);
      throw new DelayedError(`breaker open for sink ${sink.name}`);
    }

    // Phase 3: call the sink.
    const delivery: Delivery = {
      hook: stored.hook,
      sink: sink.name,
      attempt,
      replayId,
      claim: deps.claimFor(stored.hook),
    };
    const startedAt = now();
    const result = await breaker.run(
      () => safeDeliver(sink, delivery, deps.config.dispatch.attempt_timeout_ms, deps.inFlight),
      gate.probe,
    );
    const finishedAt = now();
    const firstAttemptAt = (sameRun && previous?.first_attempt_at) || startedAt;
    const log = {
      hook_id: hookId,
      source: stored.hook.source,
      tenant: stored.hook.tenant,
      sink: sink.name,
      attempt,
      replay_id: replayId,
      duration_ms: finishedAt - startedAt,
    };

    // Phase 4: record the outcome and hand it to BullMQ.
    if (result.ok) {
      await onSuccess(stored, replayId, attempt, firstAttemptAt, finishedAt);
      deps.logger.info({ ...log, result: "ok" }, "delivered");
      return;
    }
    await onFailure(stored, replayId, result, attempt, firstAttemptAt, finishedAt, log);
  };

  async function onSuccess(
    stored: StoredHook,
    replayId: string | undefined,
    attempt: number,
    firstAttemptAt: number,
    at: number,
  ): Promise<void> {
    const { hook } = stored;
    okAttempts.inc();
    latency.observe((at - hook.receivedAt) / 1000);
    const state: SinkDeliveryState = {
      state: "delivered",
      attempts: attempt,
      first_attempt_at: firstAttemptAt,
      last_attempt_at: at,
      delivered_at: at,
      ...(replayId ? { replay_id: replayId } : {}),
    };
    await deps.hooks.setSinkState(hook.id, sink.name, state);
    if (stored.sinkStates[sink.name]?.state === "dead") await deps.dlq.remove(`${hook.id}-${sink.name}`);
  }

  async function onFailure(
    stored: StoredHook,
    replayId: string | undefined,
    result: Extract<DeliveryResult, { ok: false }>,
    attempt: number,
    firstAttemptAt: number,
    at: number,
    log: Record<string, unknown>,
  ): Promise<never> {
    const { hook } = stored;
    const failure: SinkFailure = result.failure;
    const errorClass = errorClassOf(failure);
    metrics.dispatchAttempts.inc({ sink: sink.name, result: errorClass });
    const decision = decideRetry({
      failure,
      attempt,
      firstAttemptAt,
      now: at,
      policy: retryPolicy(hook.source),
      maxRetryAfterMs: deps.config.dispatch.max_retry_after_ms,
      random,
    });
    const base: Omit<SinkDeliveryState, "state"> = {
      attempts: attempt,
      first_attempt_at: firstAttemptAt,
      last_attempt_at: at,
      last_error: failure.reason,
      error_class: errorClass,
      ...(replayId ? { replay_id: replayId } : {}),
    };
    if (decision.kind === "retry") {
      const next = at + decision.delayMs;
      await deps.hooks.setSinkState(hook.id, sink.name, {
        state: "retrying",
        ...base,
        next_attempt_at: next,
      });
      deps.logger.warn(
        { ...log, result: errorClass, reason: failure.reason, retry_in_ms: decision.delayMs },
        "attempt failed",
      );
      throw bare(new RetryLater(failure.reason, decision.delayMs));
    }
    // Count first: whoever sees the dead state (an alert, a test) sees the metrics too.
    metrics.deadLettered.inc({ source: hook.source, sink: sink.name, error_class: errorClass });
    if (failure.kind === "permanent" && failure.config) metrics.configErrors.inc({ sink: sink.name });
    await deps.hooks.setSinkState(hook.id, sink.name, { state: "dead", ...base });
    await deps.dlq.add({
      id: `${hook.id}-${sink.name}`,
      hook_id: hook.id,
      source: hook.source,
      tenant: hook.tenant,
      sink: sink.name,
      error_class: errorClass,
      reason: failure.reason,
      attempts: attempt,
      first_attempt_at: firstAttemptAt,
      last_attempt_at: at,
      dead_at: at,
      ...(replayId ? { replay_id: replayId } : {}),
    });
    deps.logger.error(
      { ...log, result: errorClass, reason: failure.reason, why: decision.why },
      "dead-lettered",
    );
    throw bare(new UnrecoverableError(`${errorClass}: ${failure.reason}`));
  }
}
