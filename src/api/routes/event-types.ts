// GET /v1/event-types and POST /v1/event-types: the event catalog, the types an application publishes
// with their meaning, schema and example. Any token reads it (every tenant's developers pick from it);
// only a token bound to no tenant declares types, since the catalog is the whole deployment's.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { CatalogEntry } from "../../domain/event-catalog.ts";
import type { EventCatalogStore } from "../../store/event-catalog-store.ts";
import type { AdminEnv } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { type EventType, declareEventType, listEventTypes } from "../contract/event-types.ts";
import { ENDPOINT_BODY_MAX_BYTES } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";
import { iso } from "../views.ts";

export interface EventTypeRouteDeps {
  readonly catalog: Pick<EventCatalogStore, "list" | "put">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** A catalog entry as the API shows it. */
export function eventTypeView(t: CatalogEntry): z.infer<typeof EventType> {
  return {
    name: t.name,
    description: t.description,
    schema: t.schema,
    example: t.example,
    origin: t.origin,
    created_at: iso(t.createdAt),
  };
}

export function eventTypeRoutes(deps: EventTypeRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  app.openapi({ ...listEventTypes, middleware: [deps.auth] as const }, async (c) => {
    return c.json({ data: (await deps.catalog.list()).map(eventTypeView) }, 200);
  });

  // The tenant check comes before the body is read: a tenant-bound token learns nothing from its body.
  const unscoped: MiddlewareHandler<AdminEnv> = async (c, next) => {
    if (c.get("principal").tenant !== undefined)
      throw new ApiError(403, "forbidden", "only a token bound to no tenant declares event types");
    await next();
  };
  const body = cappedJson<AdminEnv>(ENDPOINT_BODY_MAX_BYTES);
  app.openapi({ ...declareEventType, middleware: [deps.auth, unscoped, body] as const }, async (c) => {
    const declared = c.req.valid("json");
    const now = Date.now();
    switch (await deps.catalog.put(declared, now)) {
      case "configured":
        throw new ApiError(
          409,
          "conflict",
          `event type "${declared.name}" is declared in config (outbound.event_types)`,
        );
      case "full":
        throw new ApiError(409, "conflict", "the event catalog holds as many API-declared types as it may");
      case "created":
        return c.json(eventTypeView({ ...declared, origin: "api", createdAt: now }), 201);
      case "replaced":
        return c.json(eventTypeView({ ...declared, origin: "api", createdAt: now }), 200);
    }
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}
