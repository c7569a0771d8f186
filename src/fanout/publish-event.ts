// Publishing an event, the outbound use case: validate it → match the subscribed, enabled endpoints
// (read from indexes, never a scan) → write the event, one pending delivery row per endpoint and its job
// (write-fanout.ts: rows and jobs in one script call per page where the store can write jobs, as
// ingest's persist does; otherwise rows first and one job per new row behind them). One endpoint's
// failure never stops the others: a row whose job could not be added is marked enqueue_failed, and
// reconcile (or a re-publish) adds it later. Global failures (an invalid event, a tenant the caller may
// not use, an id taken by another event) write nothing. A long fanout is written a page of endpoints at
// a time (each page one atomic, idempotent script), so no script names more than a page of keys; a
// publish cut short between pages is completed by publishing the same id again, or by recovery
// (fanout-resume.ts), which needs no id. The answer counts every row and lists the first few;
// GET /v1/events/:id/deliveries has them all.
import { type Endpoint, liveSecrets } from "../domain/endpoint.ts";
import { type EventInput, parseEventInput } from "../domain/event.ts";
import { OPERATIONAL_PREFIX, isOperationalType } from "../domain/operational-events.ts";
import type { EndpointId } from "../domain/ids.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { EventStore } from "../store/event-store.ts";
import {
  type EndpointResult,
  type FanoutEvents,
  type JobAdder,
  type JobRef,
  type PublishStatus,
  writeFanout,
} from "./write-fanout.ts";

/** The endpoint store, as publishing uses it. */
export interface EndpointMatcher {
  match(tenant: string | undefined, eventType: string): Promise<Endpoint[]>;
}

export type { JobAdder, PublishStatus };

/** Rows listed at most in a publish's answer; `counts` covers them all. */
export const MAX_RESULTS_LISTED = 100;

export interface PublishResult {
  readonly event_id: string;
  /** How many endpoints ended in each status. */
  readonly counts: Readonly<Record<PublishStatus, number>>;
  /** The first MAX_RESULTS_LISTED endpoints' results (errors first, then in page order). */
  readonly results: readonly EndpointResult[];
  /** True when `results` lists fewer endpoints than `counts` adds up to. */
  readonly results_truncated: boolean;
}

/** Why an event was refused as a whole (nothing was written). */
export class PublishRefused extends Error {
  constructor(
    readonly kind: "invalid" | "forbidden_tenant" | "conflict",
    message: string,
  ) {
    super(message);
  }
}

export interface PublishDeps {
  readonly events: FanoutEvents & Pick<EventStore, "resolveRef">;
  readonly endpoints: EndpointMatcher;
  readonly jobs: JobAdder;
  readonly metrics: Metrics;
  readonly staleAfterMs: number;
  /** The expiry of an event no live row holds (retention_s). */
  readonly retentionS: number;
  readonly maxPayloadBytes: number;
  /** Endpoints written per publish script (outbound.fanout_page_size). */
  readonly pageSize: number;
  /**
   * With `durability.wait_replicas`: resolves once enough replicas hold the event (its record and rows)
   * and `jobs`, else throws a store outage (503; publishing again is idempotent).
   */
  readonly confirmReplicas?: (eventRef: string, jobs: readonly JobRef[]) => Promise<void>;
  readonly now?: () => number;
  /**
   * May publish under the reserved `switchyard.` namespace: only the gateway's own publishers (the
   * operational events' drainer, an endpoint's test event) set it; POST /v1/events never does.
   */
  readonly mayPublishReserved?: boolean;
}

/** An endpoint that cannot be delivered to as configured (it has no usable secret). */
export function endpointProblem(endpoint: Endpoint, now: number): string | undefined {
  try {
    return liveSecrets(endpoint, now).length === 0 ? "no signing secret" : undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Publish `body` on behalf of a caller bound to `callerTenant` (undefined: an unbound admin token, which
 * may publish for any tenant named in the body). `traceparent`: the publishing request's span, kept
 * with the event so its attempts join that trace (tracing on only).
 */
export async function publishEvent(
  deps: PublishDeps,
  body: unknown,
  callerTenant: string | undefined,
  traceparent?: string,
): Promise<PublishResult> {
  const now = deps.now?.() ?? Date.now();
  const parsed = parseEventInput(body, { maxPayloadBytes: deps.maxPayloadBytes, now });
  if (!parsed.ok) throw new PublishRefused("invalid", parsed.errors.join("; "));
  const input: EventInput = parsed.event;
  if (isOperationalType(input.type) && deps.mayPublishReserved !== true)
    throw new PublishRefused(
      "invalid",
      `type: ${OPERATIONAL_PREFIX}* types are reserved for the gateway's own operational events (only Switchyard publishes them); publish under another name`,
    );
  if (callerTenant !== undefined && input.tenant !== undefined && input.tenant !== callerTenant)
    throw new PublishRefused("forbidden_tenant", "this token may not publish for that tenant");
  const tenant = callerTenant ?? input.tenant;
  const tenantLabel = deps.metrics.tenantLabel(tenant);

  const matched = await deps.endpoints.match(tenant, input.type);
  const usable: Endpoint[] = [];
  const results: EndpointResult[] = [];
  for (const endpoint of matched) {
    const problem = endpointProblem(endpoint, now);
    if (problem) results.push({ endpoint_id: endpoint.id, status: "endpoint_error", error: problem });
    else usable.push(endpoint);
  }
  // A tenant event 0.1.0 stored under its bare id is still this event (see EventStore#resolveRef).
  const ref = await deps.events.resolveRef(tenant, input.id);
  const record = { id: input.id, type: input.type, tenant, createdAt: now, payload: input.body, traceparent };
  const written = await writeFanout(
    deps,
    record,
    usable.map((e) => e.id as EndpointId),
    () => deps.metrics.outboundEvents.inc({ tenant: tenantLabel, outcome: "accepted" }),
    ref,
  );
  if (written.kind === "conflict") {
    deps.metrics.outboundEvents.inc({ tenant: tenantLabel, outcome: "conflict" });
    throw new PublishRefused("conflict", `event id ${input.id} is taken by an event of another type`);
  }
  results.push(...written.results);
  const confirmed = written.confirmed;
  // A 202 promises the event on the replicas too, a re-publish (duplicates) as much as the first.
  if (deps.confirmReplicas) await deps.confirmReplicas(ref, confirmed);
  const counts: Record<PublishStatus, number> = {
    created: 0,
    duplicate: 0,
    enqueue_failed: 0,
    endpoint_error: 0,
  };
  for (const r of results) counts[r.status] += 1;
  for (const [status, n] of Object.entries(counts))
    if (n > 0) deps.metrics.outboundDeliveriesCreated.inc({ tenant: tenantLabel, status }, n);
  return {
    event_id: input.id,
    counts,
    results: results.slice(0, MAX_RESULTS_LISTED),
    results_truncated: results.length > MAX_RESULTS_LISTED,
  };
}
