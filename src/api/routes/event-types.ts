// GET /v1/event-types and POST /v1/event-types: the event catalog, the types an application publishes
// with their meaning, schema and example. Any token reads it (every tenant's developers pick from it);
// only a token bound to no tenant declares types, since the catalog is the whole deployment's.
import { Hono, type MiddlewareHandler } from "hono";
import { eventTypeSchema } from "../../config/event-type-schema.ts";
import type { CatalogEntry } from "../../domain/event-catalog.ts";
import type { EventCatalogStore } from "../../store/event-catalog-store.ts";
import type { AdminEnv } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { readBody } from "../endpoint-body.ts";
import { iso } from "../views.ts";

export interface EventTypeRouteDeps {
  readonly catalog: Pick<EventCatalogStore, "list" | "put">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** A catalog entry as the API shows it. */
export function eventTypeView(t: CatalogEntry): Record<string, unknown> {
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
  const app = new Hono<AdminEnv>();

  app.get("/v1/event-types", deps.auth, async (c) => {
    return c.json({ data: (await deps.catalog.list()).map(eventTypeView) });
  });

  app.post("/v1/event-types", deps.auth, async (c) => {
    if (c.get("principal").tenant !== undefined)
      throw new ApiError(403, "forbidden", "only a token bound to no tenant declares event types");
    const body = await readBody(c.req.raw, eventTypeSchema);
    const declared = { ...body, schema: body.schema, example: body.example };
    const now = Date.now();
    switch (await deps.catalog.put(declared, now)) {
      case "configured":
        throw new ApiError(
          409,
          "conflict",
          `event type "${body.name}" is declared in config (outbound.event_types)`,
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
