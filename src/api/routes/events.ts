// POST /v1/events, GET /v1/events/:id and GET /v1/events/:id/deliveries: publishing an event to every
// subscribed endpoint, and seeing what became of it. The work is the publish use case's; this route
// parses, scopes to the caller's tenant and answers.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { NAME } from "../../config/schema.ts";
import { EVENT_ID } from "../../domain/event.ts";
import {
  type PublishDeps,
  PublishRefused,
  type PublishResult,
  publishEvent,
} from "../../fanout/publish-event.ts";
import type { RequestSpan, Tracing } from "../../observability/tracing.ts";
import type { EventStore } from "../../store/event-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { getEvent, listEventDeliveries, publishEvent as publishRoute } from "../contract/events.ts";
import { EVENT_ENVELOPE_BYTES } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";
import { deliveryView, isoAt } from "../views.ts";

export interface EventRouteDeps extends PublishDeps {
  readonly store: Pick<EventStore, "get" | "rows">;
  readonly auth: MiddlewareHandler<AdminEnv>;
  /** A server span per publish, whose context the event keeps. */
  readonly tracing: Tracing;
}

export function eventRoutes(deps: EventRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();
  // Read within the payload's cap and an envelope.
  const body = cappedJson<AdminEnv>(deps.maxPayloadBytes + EVENT_ENVELOPE_BYTES);

  /** Publish, and map a refusal to its answer. */
  const publish = async (
    body: unknown,
    tenant: string | undefined,
    traceparent: string | undefined,
  ): Promise<PublishResult> => {
    try {
      return await publishEvent(deps, body, tenant, traceparent);
    } catch (err) {
      if (!(err instanceof PublishRefused)) throw err;
      switch (err.kind) {
        case "invalid":
          throw new ApiError(400, "invalid_request", err.message);
        case "forbidden_tenant":
          throw new ApiError(404, "not_found", "no such tenant");
        case "conflict":
          throw new ApiError(409, "conflict", err.message);
      }
    }
  };

  // The publish's server span starts before its body is read and validated, so a refused body has one too;
  // the handler takes it over, and a span it never took is ended here with the answer's status.
  const spans = new WeakMap<Request, RequestSpan>();
  const traced: MiddlewareHandler<AdminEnv> = async (c, next) => {
    const span = deps.tracing.startRequest("POST /v1/events", c.req.raw.headers);
    if (span) spans.set(c.req.raw, span);
    await next();
    if (spans.get(c.req.raw) === span) span?.end(c.res.status);
  };

  app.openapi({ ...publishRoute, middleware: [deps.auth, traced, body] as const }, async (c) => {
    const span = spans.get(c.req.raw);
    spans.delete(c.req.raw);
    try {
      const result = await publish(c.req.valid("json"), c.get("principal").tenant, span?.traceparent);
      span?.end(202, { event_id: result.event_id });
      return c.json({ ...result, results: [...result.results] }, 202);
    } catch (err) {
      span?.end(err instanceof ApiError ? err.status : 500);
      throw err;
    }
  });

  /**
   * The event `id` in the caller's tenant: a bound token's own, or for an unbound token the one of the
   * tenant named by `?tenant=` (none: the tenantless event).
   */
  const visible = async (id: string, principalTenant: string | undefined, asked: string | undefined) => {
    const tenant = principalTenant ?? asked;
    const named = asked === undefined || NAME.test(asked);
    const event = named && EVENT_ID.test(id) ? await deps.store.get(tenant, id) : undefined;
    if (!event || !canSee({ tenant: principalTenant }, event.tenant))
      throw new ApiError(404, "not_found", "no such event");
    return event;
  };
  const visibleOf = (c: Context<AdminEnv>) =>
    visible(c.req.param("id") ?? "", c.get("principal").tenant, c.req.query("tenant"));

  app.openapi({ ...getEvent, middleware: [deps.auth] as const }, async (c) => {
    const event = await visibleOf(c);
    return c.json(
      {
        id: event.id,
        type: event.type,
        tenant: event.tenant,
        created_at: isoAt(event.createdAt),
        payload: JSON.parse(event.payload.toString("utf8")) as unknown,
      },
      200,
    );
  });

  app.openapi({ ...listEventDeliveries, middleware: [deps.auth] as const }, async (c) => {
    const event = await visibleOf(c);
    const rows = await deps.store.rows(event.tenant, event.id);
    return c.json(
      {
        data: rows.map((row) => ({
          endpoint_id: row.target.kind === "endpoint" ? row.target.id : undefined,
          ...deliveryView(row),
        })),
      },
      200,
    );
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}
