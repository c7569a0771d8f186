// Inbound delivery: the attempt runner with a sink as its target. The sink's breaker (shared by every
// worker process, in Redis) admits or parks, the hook record is what a claim reads, and the sink sends it.
import { inboundAttemptMs } from "../config/attempt-bounds.ts";
import type { Config, RetryConfig } from "../config/schema.ts";
import { type DeliveryResult, wasCancelled } from "../domain/error-class.ts";
import type { ClaimRef, Delivery, HookRecord } from "../domain/hook.ts";
import type { HookId } from "../domain/ids.ts";
import type { Random } from "../domain/retry-policy.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Tracing } from "../observability/tracing.ts";
import type { Sink } from "../sinks/sink.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import { HOOK_ATTEMPT_FIELDS, toHookRecord } from "../store/hook-store.ts";
import { type AttemptRun, createAttemptRunner } from "./attempt-runner.ts";
import type { Admission, AttemptMetrics, DeliveryTarget, PreparedAttempt } from "./delivery-target.ts";
import { type InFlightAttempts, safeDeliver } from "./safe-deliver.ts";
import { type SharedBreaker, breakerResultOf } from "./shared-breaker.ts";

export interface SinkTargetDeps {
  readonly config: Config;
  readonly sink: Sink;
  /** The sinks' breakers, keyed by sink name. */
  readonly breaker: SharedBreaker;
  readonly ledger: DeliveryStore;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** The claim every sink of the hook's source gets, if its body is large. */
  readonly claimFor: (hook: HookRecord) => ClaimRef | undefined;
  /** Lets a forced shutdown abort every attempt in flight. */
  readonly inFlight?: InFlightAttempts;
  readonly tracing?: Tracing;
  readonly now?: () => number;
  readonly random?: Random;
}

interface SinkAttempt extends PreparedAttempt {
  readonly delivery: Delivery;
}

/** The sink as a delivery target. */
function sinkTarget(deps: SinkTargetDeps): DeliveryTarget<SinkAttempt> {
  const { sink, breaker, config } = deps;
  // The config is fixed for the process's life: merge each source's policy once.
  const policies = new Map<string, RetryConfig>();
  const retryPolicy = (source: string): RetryConfig => {
    let policy = policies.get(source);
    if (!policy) {
      policy = { ...config.dispatch.retry, ...config.sources[source]?.retry };
      policies.set(source, policy);
    }
    return policy;
  };
  return {
    parentKey: (job) => deps.ledger.keys.hook(job.data.p as HookId),
    parentFields: HOOK_ATTEMPT_FIELDS,
    admit: async (): Promise<Admission> => {
      const gate = await breaker.gate(sink.name);
      return gate.pass
        ? gate
        : { pass: false, until: gate.parkUntil, why: `breaker open for sink ${sink.name}` };
    },
    // An admission not used frees the probe it held (if any) for the next caller.
    unadmit: async (_job, admission) => {
      if (admission.pass && admission.probe) await breaker.record(sink.name, "ignored", true);
    },
    prepare: async (job, claimed) => {
      const hook = toHookRecord(job.data.p as HookId, ...(claimed.parent as [Buffer?, Buffer?, Buffer?]));
      if (!hook) return "the hook record is gone";
      return {
        target: { kind: "sink", name: sink.name },
        source: hook.source,
        tenant: hook.tenant,
        receivedAt: hook.receivedAt,
        policy: retryPolicy(hook.source),
        log: { hook_id: hook.id, source: hook.source, tenant: hook.tenant, sink: sink.name },
        traceParent: hook.traceparent,
        delivery: {
          hook,
          sink: sink.name,
          attempt: claimed.attempt,
          replayId: claimed.replayId,
          claim: deps.claimFor(hook),
        },
      };
    },
    send: async (p, _claimed, admission, traceparent, lease): Promise<DeliveryResult> => {
      const delivery = traceparent === undefined ? p.delivery : { ...p.delivery, traceparent };
      const result = await safeDeliver(sink, delivery, inboundAttemptMs(config), deps.inFlight, lease);
      // A cancelled attempt is no answer from the sink: the runner hands it back (unadmit). Counting is
      // best effort: a breaker write that fails must not make a delivered send look failed.
      if (!wasCancelled(result))
        await breaker
          .record(sink.name, breakerResultOf(result), admission.pass && admission.probe)
          .catch((err: Error) =>
            deps.logger.warn({ sink: sink.name, err: err.message }, "breaker write failed"),
          );
      return result;
    },
  };
}

/** Inbound attempts count in the dispatch metrics, labelled by sink. */
function sinkMetrics(metrics: Metrics, sink: string): AttemptMetrics {
  // Label lookups cost a hash per call: keep the hot path's children.
  const ok = metrics.dispatchAttempts.labels({ sink, result: "ok" });
  const latency = metrics.deliveryLatency.labels({ sink });
  return {
    attempt: (_p, result) => (result === "ok" ? ok.inc() : metrics.dispatchAttempts.inc({ sink, result })),
    delivered: (_p, latencyS) => latency.observe(latencyS),
    deadLettered: (p, errorClass, config) => {
      metrics.deadLettered.inc({ source: p.source, sink, error_class: errorClass });
      if (config) metrics.configErrors.inc({ sink });
    },
    fenced: () => metrics.fencedWrites.inc({ sink }),
  };
}

/** Build the attempt runner of one sink's queues. */
export function createDeliveryProcessor(deps: SinkTargetDeps): AttemptRun {
  return createAttemptRunner({
    target: sinkTarget(deps),
    ledger: deps.ledger,
    metrics: sinkMetrics(deps.metrics, deps.sink.name),
    logger: deps.logger,
    // A dead worker's lease lapses about when BullMQ hands its job to another worker.
    leaseMs: deps.config.dispatch.lock_ms,
    maxRetryAfterMs: deps.config.dispatch.max_retry_after_ms,
    ...(deps.tracing ? { tracing: deps.tracing } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });
}
