// GET /v1/deliveries/:id, GET /v1/endpoints/:id/deliveries and GET /v1/endpoints/:id/stats: one delivery of
// either direction with its attempt history, an endpoint's deliveries newest first, and an endpoint's
// health. What a tenant's developers look at to see why their endpoint is failing; tenant-scoped like
// every /v1 route (another tenant's delivery or endpoint answers 404).
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { Attempt } from "../../domain/attempt.ts";
import type { DeliveryRow } from "../../domain/delivery.ts";
import type { Endpoint } from "../../domain/endpoint.ts";
import { eventIdOf } from "../../domain/event.ts";
import { isId } from "../../domain/ids.ts";
import type { BreakerView } from "../../delivery/shared-breaker.ts";
import type { DeliveryStore } from "../../store/delivery-store.ts";
import type { EndpointDeliveryIndex, ListedState } from "../../store/endpoint-delivery-index.ts";
import type { EndpointStatsStore } from "../../store/endpoint-stats.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import {
  type Attempt as AttemptView,
  type DeliveryListed,
  getDelivery,
  getEndpointStats,
  listEndpointDeliveries,
} from "../contract/deliveries.ts";
import { DELIVERY_VIEW_STATES } from "../contract/ledger.ts";
import { decodeCursor, encodeCursor, parseInstant, parseLimit } from "../filters.ts";
import { apiGroup } from "../route-group.ts";
import { deliveryView, iso, isoAt } from "../views.ts";

export interface DeliveryRouteDeps {
  readonly ledger: Pick<DeliveryStore, "getWithAttempts" | "getMany">;
  readonly endpoints: Pick<EndpointStore, "get">;
  readonly index: Pick<EndpointDeliveryIndex, "page">;
  readonly stats: Pick<EndpointStatsStore, "read">;
  readonly endpointBreaker: (id: string) => Promise<BreakerView>;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

type DeliveryFields = ReturnType<typeof deliveryView>;

const invalid = (message: string): ApiError => new ApiError(400, "invalid_request", message);

/** One attempt as the API shows it. */
export function attemptView(a: Attempt): z.infer<typeof AttemptView> {
  return {
    at: isoAt(a.at),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    error_class: a.errorClass,
    reason: a.reason,
    response_excerpt: a.responseExcerpt,
    signature_headers: a.signatureHeaders,
  };
}

/** Where a delivery goes and what it delivers, in either direction. */
function directionView(row: DeliveryRow): Omit<z.infer<typeof DeliveryListed>, keyof DeliveryFields> {
  const common = { id: row.id, created_at: isoAt(row.createdAt) };
  return row.target.kind === "sink"
    ? { ...common, direction: "inbound", target: row.target.name, hook_id: row.parentId, source: row.source }
    : {
        ...common,
        direction: "outbound",
        target: row.target.id,
        event_id: eventIdOf(row.parentId),
        event_type: row.source,
      };
}

function parseState(value: string | undefined): ListedState | undefined {
  if (value === undefined || value === "") return undefined;
  if (!(DELIVERY_VIEW_STATES as readonly string[]).includes(value))
    throw invalid(`state must be one of ${DELIVERY_VIEW_STATES.join(", ")}`);
  return value as ListedState;
}

export function deliveryRoutes(deps: DeliveryRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  const visibleEndpoint = async (id: string, tenant: string | undefined): Promise<Endpoint> => {
    const endpoint = isId("ep", id) ? await deps.endpoints.get(id) : undefined;
    if (!endpoint || !canSee({ tenant }, endpoint.tenant))
      throw new ApiError(404, "not_found", "no such endpoint");
    return endpoint;
  };

  app.openapi({ ...getDelivery, middleware: [deps.auth] as const }, async (c) => {
    const id = c.req.param("id");
    const found = isId("dl", id) ? await deps.ledger.getWithAttempts(id) : undefined;
    // Another tenant's delivery answers exactly like a missing one.
    if (!found || !canSee(c.get("principal"), found.row.tenant))
      throw new ApiError(404, "not_found", "no such delivery");
    const { row, attempts } = found;
    return c.json(
      {
        ...directionView(row),
        tenant: row.tenant,
        ...deliveryView(row),
        attempt_count: row.attempts,
        attempts: attempts.map(attemptView),
      },
      200,
    );
  });

  app.openapi({ ...listEndpointDeliveries, middleware: [deps.auth] as const }, async (c) => {
    const endpoint = await visibleEndpoint(c.req.param("id"), c.get("principal").tenant);
    const q = c.req.query();
    const state = parseState(q.state);
    const page = await deps.index.page(deps.ledger, endpoint.id, {
      limit: parseLimit(q.limit),
      ...(state !== undefined ? { state } : {}),
      ...(q.since !== undefined && q.since !== "" ? { since: parseInstant(q.since, "since") } : {}),
      ...(q.cursor !== undefined && q.cursor !== "" ? { after: decodeCursor(q.cursor) } : {}),
    });
    return c.json(
      {
        data: page.rows.map((row) => ({ ...directionView(row), ...deliveryView(row) })),
        next_cursor: page.next === undefined ? null : encodeCursor(page.next),
      },
      200,
    );
  });

  app.openapi({ ...getEndpointStats, middleware: [deps.auth] as const }, async (c) => {
    const endpoint = await visibleEndpoint(c.req.param("id"), c.get("principal").tenant);
    const [stats, breaker] = await Promise.all([
      deps.stats.read(endpoint.id),
      deps.endpointBreaker(endpoint.id),
    ]);
    return c.json(
      {
        endpoint_id: endpoint.id,
        last_hour: stats.last_hour,
        last_day: stats.last_day,
        last_status: stats.last_status,
        last_attempt_at: iso(stats.last_attempt_at ?? undefined) ?? null,
        breaker: { state: breaker.state, open_until: iso(breaker.openUntil ?? undefined) ?? null },
        disabled: endpoint.disabled,
        disabled_reason: endpoint.disabled_reason ?? null,
        failing_since: iso(endpoint.failing_since) ?? null,
      },
      200,
    );
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}
