// Publishing an event, the outbound use case: validate it → match the subscribed, enabled endpoints
// (read from indexes, never a scan) → write the event and one pending delivery row per endpoint, before
// anything is enqueued → add one job per new row. One endpoint's failure never stops the others: a row
// whose job could not be added is marked enqueue_failed, and reconcile (or a re-publish) adds it later.
// Global failures (an invalid event, a tenant the caller may not use, an id taken by another event)
// write nothing.
import { type Endpoint, liveSecrets } from "../domain/endpoint.ts";
import { type EventInput, parseEventInput } from "../domain/event.ts";
import type { DeliveryRow } from "../domain/delivery.ts";
import type { EndpointId } from "../domain/ids.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type EventStore, endpointDeliveryId } from "../store/event-store.ts";

/** The endpoint store, as publishing uses it. */
export interface EndpointMatcher {
  match(tenant: string | undefined, eventType: string): Promise<Endpoint[]>;
}

/** The delivery queues, as publishing uses them. */
type JobRef = Pick<DeliveryRow, "id" | "parentId" | "target">;

export interface JobAdder {
  enqueue(rows: readonly JobRef[]): Promise<void>;
}

export type PublishStatus = "created" | "duplicate" | "enqueue_failed" | "endpoint_error";

export interface PublishResult {
  readonly event_id: string;
  readonly results: readonly {
    readonly endpoint_id: string;
    readonly status: PublishStatus;
    readonly error?: string;
  }[];
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
  readonly events: Pick<EventStore, "publish" | "markEnqueueFailed">;
  readonly endpoints: EndpointMatcher;
  readonly jobs: JobAdder;
  readonly metrics: Metrics;
  readonly staleAfterMs: number;
  readonly maxPayloadBytes: number;
  /**
   * With `durability.wait_replicas`: resolves once enough replicas hold the event (its record and rows)
   * and `jobs`, else throws a store outage (503; publishing again is idempotent).
   */
  readonly confirmReplicas?: (eventId: string, jobs: readonly JobRef[]) => Promise<void>;
  readonly now?: () => number;
}

/** An endpoint that cannot be delivered to as configured (it has no usable secret). */
function endpointProblem(endpoint: Endpoint, now: number): string | undefined {
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
  if (callerTenant !== undefined && input.tenant !== undefined && input.tenant !== callerTenant)
    throw new PublishRefused("forbidden_tenant", "this token may not publish for that tenant");
  const tenant = callerTenant ?? input.tenant;
  const tenantLabel = deps.metrics.tenantLabel(tenant);

  const matched = await deps.endpoints.match(tenant, input.type);
  const usable: Endpoint[] = [];
  const results: { endpoint_id: string; status: PublishStatus; error?: string }[] = [];
  for (const endpoint of matched) {
    const problem = endpointProblem(endpoint, now);
    if (problem) results.push({ endpoint_id: endpoint.id, status: "endpoint_error", error: problem });
    else usable.push(endpoint);
  }
  const outcome = await deps.events.publish(
    { id: input.id, type: input.type, tenant, createdAt: now, payload: input.body, traceparent },
    usable.map((e) => e.id as EndpointId),
    { staleAfterMs: deps.staleAfterMs },
  );
  if (outcome.kind === "conflict") {
    deps.metrics.outboundEvents.inc({ tenant: tenantLabel, outcome: "conflict" });
    throw new PublishRefused(
      "conflict",
      `event id ${input.id} is taken by an event of another type or tenant`,
    );
  }
  deps.metrics.outboundEvents.inc({ tenant: tenantLabel, outcome: "accepted" });

  // Each new row's job on its own: a failure is that endpoint's alone.
  const settled = await Promise.all(
    usable.map(
      async (endpoint, i): Promise<{ endpoint_id: string; status: PublishStatus; error?: string }> => {
        const status = outcome.rows[i];
        if (status === "duplicate" || status === undefined)
          return { endpoint_id: endpoint.id, status: "duplicate" };
        const id = endpointDeliveryId(input.id, endpoint.id as EndpointId);
        try {
          await deps.jobs.enqueue([
            { id, parentId: input.id, target: { kind: "endpoint", id: endpoint.id as EndpointId } },
          ]);
          return { endpoint_id: endpoint.id, status: "created" };
        } catch (err) {
          const error = (err as Error).message;
          await deps.events.markEnqueueFailed(id, error).catch(() => undefined);
          return { endpoint_id: endpoint.id, status: "enqueue_failed", error };
        }
      },
    ),
  );
  results.push(...settled);
  // A 202 promises the event on the replicas too, a re-publish (duplicates) as much as the first.
  if (deps.confirmReplicas) {
    const jobs = usable
      .filter((_, i) => settled[i]?.status !== "enqueue_failed")
      .map((endpoint) => ({
        id: endpointDeliveryId(input.id, endpoint.id as EndpointId),
        parentId: input.id,
        target: { kind: "endpoint" as const, id: endpoint.id as EndpointId },
      }));
    await deps.confirmReplicas(input.id, jobs);
  }
  for (const r of results)
    deps.metrics.outboundDeliveriesCreated.inc({ tenant: tenantLabel, status: r.status });
  return { event_id: input.id, results };
}
