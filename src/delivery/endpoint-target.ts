// Outbound delivery: the attempt runner with a registered endpoint as its target. Many endpoints share
// a few queues, so an endpoint that hangs or fails is bounded explicitly, by limits every worker
// process shares in Redis: its breaker, its concurrency slots and its rate. A delivery over any of them
// waits (parked, no attempt spent). The event, in the endpoint's payload format, is signed with Standard
// Webhooks headers (one signature per live secret) and posted through the SSRF-guarded agent.
import type { Dispatcher } from "undici";
import { outboundAttemptMs } from "../config/attempt-bounds.ts";
import type { Config, RetryConfig } from "../config/schema.ts";
import { type Endpoint, liveSecrets } from "../domain/endpoint.ts";
import { type DeliveryResult, errorClassOf, permanent, wasCancelled } from "../domain/error-class.ts";
import type { EndpointId } from "../domain/ids.ts";
import { outboundBody } from "../domain/outbound-body.ts";
import type { DisableCause } from "../domain/operational-payloads.ts";
import { signStandardWebhook } from "../domain/signing.ts";
import { ssrfBlockOf } from "../fanout/ssrf-guard.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { AttemptAbort } from "../sinks/attempt-abort.ts";
import { httpTarget, sendHttp } from "../sinks/http-send.ts";
import { EVENT_ATTEMPT_FIELDS, toEventRecord } from "../store/event-store.ts";
import type { CountedAttempt, EndpointStatsStore } from "../store/endpoint-stats.ts";
import type { Keys } from "../store/keys.ts";
import type { DeliveryTicket } from "./delivery-ticket.ts";
import type { Admission, AttemptMetrics, DeliveryTarget, PreparedAttempt } from "./delivery-target.ts";
import { slotRider } from "./gate-rider.ts";
import type { InflightGate } from "./inflight-gate.ts";
import type { RateGate } from "./rate-gate.ts";
import { type InFlightAttempts, safeAttempt } from "./safe-deliver.ts";
import { type SharedBreaker, breakerResultOf } from "./shared-breaker.ts";

/** The endpoint store, as delivery uses it. */
export interface EndpointReader {
  get(id: string): Promise<Endpoint | undefined>;
  disableIfVersion(
    id: string,
    version: number,
    reason: string,
    now?: number,
    cause?: DisableCause,
  ): Promise<boolean>;
  markFailing(id: string, now?: number): Promise<number | undefined>;
  markHealthy(id: string): Promise<void>;
}

export interface EndpointTargetDeps {
  readonly config: Config;
  readonly keys: Keys;
  readonly endpoints: EndpointReader;
  readonly breaker: SharedBreaker;
  readonly inflight: InflightGate;
  readonly rate: RateGate;
  /**
   * Where each answered attempt is counted for the endpoint's health (GET /v1/endpoints/:id/stats), in
   * the same call that gives its concurrency slot back (the slots `inflight` took, by the same key).
   */
  readonly stats: Pick<EndpointStatsStore, "endAttempt">;
  /** The SSRF-guarded undici dispatcher every endpoint request goes through. */
  readonly dispatcher: Dispatcher;
  readonly inFlight?: InFlightAttempts;
  readonly onDisabled?: (endpoint: Endpoint, reason: string) => void;
  /** The detail of an SSRF refusal (what the host resolved to), for the log: the row keeps the public reason. */
  readonly onRefused?: (endpoint: Endpoint, detail: string) => void;
}

interface EndpointAttempt extends PreparedAttempt {
  readonly endpoint: Endpoint;
  /** Who holds the endpoint's concurrency slot for this attempt. */
  readonly holder: string;
  readonly eventId: string;
  /** The bytes signed and sent: the same on every attempt. */
  readonly body: Buffer;
}

/** An admitted outbound attempt: the endpoint read at admission, and the slot it holds. */
type Admitted = Admission & { readonly endpoint?: Endpoint };

const USER_AGENT = "Switchyard-Webhooks/1";

export function endpointTarget(deps: EndpointTargetDeps): DeliveryTarget<EndpointAttempt> {
  const { config, endpoints, breaker, inflight, rate } = deps;
  const outbound = config.outbound;
  const policy: RetryConfig = { ...config.dispatch.retry, ...outbound.retry };
  // The endpoint each admitted job read, so prepare() does not read it again.
  const admitted = new Map<string, Endpoint>();
  // Each answered attempt's slot release and count, still running while the runner records the outcome.
  const ending = new Map<string, Promise<unknown>>();
  const holder = (job: DeliveryTicket): string => String(job.id);

  return {
    parentKey: (job) => deps.keys.event(job.data.p),
    parentFields: EVENT_ATTEMPT_FIELDS,

    admit: async (job): Promise<Admitted> => {
      const id = job.data.e;
      if (id === undefined) return { pass: true, probe: false };
      // The record, the breaker and a concurrency slot are asked for together: one wait before every
      // attempt, not two, and the breaker and the slot in one script call when the breaker's state has
      // to come from Redis. No slot is taken when the breaker parks; one taken is given back in the rare
      // case the record then says no.
      const leaseMs = config.dispatch.lock_ms + outbound.timeout_ms;
      const max = outbound.max_in_flight_per_endpoint;
      const [endpoint, { gate, ride: early }] = await Promise.all([
        endpoints.get(id),
        breaker.gateWith(id, slotRider(inflight, id, holder(job), max, leaseMs)),
      ]);
      const unslot = async (): Promise<void> => {
        if (early?.ok) await inflight.release(id, holder(job));
      };
      // A deleted or disabled endpoint is admitted, so prepare() can end its delivery.
      if (!endpoint || endpoint.disabled) {
        await unslot();
        if (gate.pass && gate.probe) await breaker.record(id, "ignored", true);
        return { pass: true, probe: false };
      }
      if (!gate.pass) {
        return { pass: false, until: gate.parkUntil, why: `breaker open for endpoint ${endpoint.id}` };
      }
      const slot = early ?? (await inflight.acquire(id, holder(job), max, leaseMs));
      if (!slot.ok) {
        await breaker.record(endpoint.id, "ignored", gate.probe);
        return { pass: false, until: Date.now() + slot.retryInMs, why: "endpoint at its concurrency limit" };
      }
      if (endpoint.rate_limit_per_s !== undefined) {
        const taken = await rate.take(endpoint.id, endpoint.rate_limit_per_s);
        if (!taken.ok) {
          await inflight.release(endpoint.id, holder(job));
          await breaker.record(endpoint.id, "ignored", gate.probe);
          return { pass: false, until: Date.now() + taken.retryInMs, why: "endpoint at its rate limit" };
        }
      }
      admitted.set(holder(job), endpoint);
      return gate;
    },

    unadmit: async (job, admission) => {
      const endpoint = admitted.get(holder(job));
      admitted.delete(holder(job));
      if (!endpoint || !admission.pass) return;
      await inflight.release(endpoint.id, holder(job));
      await breaker.record(endpoint.id, "ignored", admission.probe);
    },

    prepare: async (job, claimed) => {
      const event = toEventRecord(job.data.p, claimed.parent[0], claimed.parent[1]);
      if (!event) return "the event record is gone";
      const endpoint =
        admitted.get(holder(job)) ?? (job.data.e ? await endpoints.get(job.data.e) : undefined);
      if (!endpoint) return "the endpoint was deleted";
      if (endpoint.disabled)
        return `the endpoint is disabled: ${endpoint.disabled_reason ?? "by an operator"}`;
      return {
        target: { kind: "endpoint", id: endpoint.id as EndpointId },
        source: event.type,
        tenant: event.tenant,
        receivedAt: event.createdAt,
        policy,
        log: { event_id: event.id, event_type: event.type, tenant: event.tenant, endpoint: endpoint.id },
        traceParent: event.traceparent,
        endpoint,
        holder: holder(job),
        eventId: event.id,
        body: outboundBody(event, endpoint.payload_format),
      };
    },

    send: async (p, _claimed, admission, traceparent, lease) => {
      const startedAt = Date.now();
      const result = await safeAttempt(
        (signal, abort) => post(p, signal, abort, traceparent),
        outboundAttemptMs(config),
        deps.inFlight,
        lease,
      );
      const probe = admission.pass && admission.probe;
      // A cancelled attempt is handed back with its slot (unadmit); any other has used it. The slot is
      // given back and the attempt counted as soon as the answer is in, alongside the runner's record of
      // the outcome (not before it: one round trip less per attempt); settled() waits for it, so the
      // job reaches BullMQ, and a retry of it can start, only once the slot is free. Both are advisory:
      // a failed call never fails the attempt (the slot's lease frees it).
      if (!wasCancelled(result)) {
        const ended = deps.stats
          .endAttempt(p.endpoint.id, p.holder, countedAttempt(result, startedAt, Date.now()))
          .catch(() => false);
        ending.set(p.holder, ended);
        void ended.then(() => {
          if (ending.get(p.holder) === ended) ending.delete(p.holder);
        });
        await breaker.record(p.endpoint.id, breakerResultOf(result), probe, p.endpoint.tenant);
      }
      return result;
    },

    settled: async (p, result, final) => {
      admitted.delete(p.holder);
      await ending.get(p.holder);
      if (result.ok) {
        if (p.endpoint.failing_since !== undefined) await endpoints.markHealthy(p.endpoint.id);
        return;
      }
      const now = Date.now();
      if (result.failure.statusCode === 410) {
        await disable(p, "the endpoint answered 410 Gone", "gone");
        return;
      }
      if (result.failure.kind === "permanent" && !final) return;
      const since = await endpoints.markFailing(p.endpoint.id, now);
      if (since !== undefined && now - since >= outbound.disable_after_ms)
        await disable(p, `failing without a success since ${new Date(since).toISOString()}`, "failing");
    },
  };

  async function disable(p: EndpointAttempt, reason: string, cause: DisableCause): Promise<void> {
    // Only if nobody changed the endpoint since this attempt read it: a fixed URL is not disabled.
    if (await endpoints.disableIfVersion(p.endpoint.id, p.endpoint.version, reason, Date.now(), cause))
      deps.onDisabled?.(p.endpoint, reason);
  }

  function post(
    p: EndpointAttempt,
    signal: AbortSignal,
    abort: AttemptAbort,
    traceparent: string | undefined,
  ): Promise<DeliveryResult> {
    const now = Date.now();
    const signed = signStandardWebhook({
      id: p.eventId,
      timestampS: Math.floor(now / 1000),
      body: p.body,
      secrets: liveSecrets(p.endpoint, now),
    });
    const refusal = (err: unknown): DeliveryResult | undefined => {
      const blocked = ssrfBlockOf(err);
      if (!blocked) return undefined;
      deps.onRefused?.(p.endpoint, blocked.message);
      return permanent(`refused by the SSRF guard: ${blocked.publicMessage}`, { config: true });
    };
    return sendHttp(
      {
        dispatcher: deps.dispatcher,
        target: httpTarget(new URL(p.endpoint.url)),
        method: "POST",
        headers: {
          ...p.endpoint.headers,
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          ...signed,
        },
        body: p.body,
        signal,
        abort,
        timeoutMs: outbound.timeout_ms,
        traceparent,
      },
      refusal,
    );
  }
}

/** An attempt as the endpoint's health counts it: its status, or its error class without an answer. */
function countedAttempt(result: DeliveryResult, startedAt: number, finishedAt: number): CountedAttempt {
  const status = result.ok ? result.trace?.statusCode : result.failure.statusCode;
  return {
    ok: result.ok,
    at: startedAt,
    durationMs: finishedAt - startedAt,
    outcome: status !== undefined ? String(status) : result.ok ? "ok" : errorClassOf(result.failure),
  };
}

/** Outbound attempts count in their own series, labelled by tenant (tenantLabel: bounded), not endpoint. */
export function endpointMetrics(metrics: Metrics): AttemptMetrics {
  const tenantOf = (p: PreparedAttempt | undefined): string => metrics.tenantLabel(p?.tenant);
  return {
    attempt: (p, result) => metrics.outboundAttempts.inc({ tenant: tenantOf(p), result }),
    delivered: (p, latencyS) => metrics.outboundLatency.observe({ tenant: tenantOf(p) }, latencyS),
    deadLettered: (p, errorClass) =>
      metrics.outboundDeadLettered.inc({ tenant: tenantOf(p), error_class: errorClass }),
    fenced: () => metrics.outboundFencedWrites.inc(),
  };
}
