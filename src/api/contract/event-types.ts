// The contract of the event catalog (/v1/event-types): the types an application publishes, with their
// meaning, schema and example. The body is the config's own schema (config/event-type-schema.ts), so a
// type declared in config and one posted here are checked alike.
import { z } from "@hono/zod-openapi";
import { eventTypeSchema } from "../../config/event-type-schema.ts";
import { CATALOG_ORIGINS } from "../../domain/event-catalog.ts";
import { adminRoute, instant, json, jsonBody } from "./define-route.ts";

// A clone: the config's schema may be built before @hono/zod-openapi extends zod, and only schemas made
// after it have .openapi().
export const EventTypeInput = eventTypeSchema.clone().openapi("EventTypeInput", {
  description: "An exact event type (no wildcard); the schema is kept, not enforced.",
});

export const EventType = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()).optional(),
    example: z.unknown().optional(),
    origin: z.enum(CATALOG_ORIGINS).openapi({
      description: "builtin: an operational event type (switchyard.*), documented by Switchyard itself.",
    }),
    created_at: instant.optional().openapi({ description: "When it was declared by API." }),
  })
  .openapi("EventType");

export const listEventTypes = adminRoute({
  method: "get",
  path: "/v1/event-types",
  summary:
    "The event catalog: the built-in operational types (switchyard.*), then types declared in config (outbound.event_types) and by API",
  responses: { 200: json(z.object({ data: z.array(EventType) }), "Every declared event type, by name.") },
});

export const declareEventType = adminRoute({
  method: "post",
  path: "/v1/event-types",
  summary: "Declare (or redeclare) an event type (a token bound to no tenant)",
  request: { body: jsonBody(EventTypeInput) },
  responses: {
    200: json(EventType, "Redeclared (replaced)."),
    201: json(EventType, "Declared."),
  },
  errors: [409],
  errorMeaning: {
    403: "forbidden: a tenant-bound token, or a write from a page of another origin.",
    409: "conflict: declared in config, or the catalog is full.",
  },
});

export const EVENT_TYPE_ROUTES = [listEventTypes, declareEventType];
