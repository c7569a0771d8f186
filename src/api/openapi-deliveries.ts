// The delivery history, endpoint health and event catalog part of the OpenAPI document
// (/v1/deliveries/{id}, /v1/endpoints/{id}/deliveries, /v1/endpoints/{id}/stats, /v1/event-types) and the
// shapes they answer with (and the created endpoint's warnings of event types the catalog lacks).
import type { OpenApiHelpers } from "./openapi-endpoints.ts";
import { ref } from "./openapi-schemas.ts";

type Schema = Record<string, unknown>;

const instant = { type: "string", format: "date-time" } as const;
const instantOrNull = { type: ["string", "null"], format: "date-time" } as const;
const state = { enum: ["pending", "retrying", "delivered", "dead"] } as const;

/** What every delivery view has (views.ts deliveryView), either direction. */
const deliveryFields = {
  id: { type: "string", description: "dl_…" },
  direction: { enum: ["inbound", "outbound"] },
  target: { type: "string", description: "The sink's name (inbound) or the endpoint's id (outbound)." },
  hook_id: { type: "string", description: "Inbound: the hook delivered." },
  source: { type: "string", description: "Inbound: the hook's source." },
  event_id: { type: "string", description: "Outbound: the event delivered." },
  event_type: { type: "string", description: "Outbound: the event's type." },
  created_at: instant,
  delivery_id: { type: "string" },
  state,
  first_attempt_at: instant,
  last_attempt_at: instant,
  next_attempt_at: { ...instant, description: "When a retrying delivery is due again." },
  delivered_at: instant,
  dead_at: instant,
  last_error: { type: "string" },
  error_class: { enum: ["permanent", "throttled", "transient"] },
  last_status_code: { type: "integer" },
  replay_id: { type: "string" },
  dlq_id: { type: "string" },
} as const;

const windowStats = {
  type: "object",
  properties: {
    attempts: { type: "integer" },
    successes: { type: "integer" },
    success_rate: { type: ["number", "null"], description: "successes / attempts; null without attempts." },
    p50_ms: { type: ["integer", "null"], description: "Median attempt duration (histogram bin bound)." },
    p99_ms: { type: ["integer", "null"], description: "99th percentile attempt duration (bin bound)." },
  },
} as const;

export const deliverySchemas = {
  Attempt: {
    type: "object",
    properties: {
      at: { ...instant, description: "When the attempt was sent." },
      duration_ms: { type: "integer" },
      status_code: { type: "integer" },
      error_class: { enum: ["permanent", "throttled", "transient"], description: "A failed attempt's." },
      reason: { type: "string", description: "Why it failed (at most 512 characters)." },
      response_excerpt: { type: "string", description: "The first ≤ 1 KiB of the response body." },
      signature_headers: {
        type: "object",
        description: "The Standard Webhooks headers the request carried (signed requests).",
        additionalProperties: { type: "string" },
      },
    },
  },
  DeliveryListed: { type: "object", properties: { ...deliveryFields, attempts: { type: "integer" } } },
  DeliveryWithAttempts: {
    type: "object",
    properties: {
      ...deliveryFields,
      tenant: { type: "string" },
      attempt_count: { type: "integer", description: "Attempts made (the history keeps the last 10)." },
      attempts: { type: "array", items: ref("Attempt"), description: "Newest last, at most 10." },
    },
  },
  EndpointStats: {
    type: "object",
    properties: {
      endpoint_id: { type: "string" },
      last_hour: windowStats,
      last_day: windowStats,
      last_status: {
        type: ["integer", "string", "null"],
        description: "The newest attempt's status code, or its error class when nothing answered.",
      },
      last_attempt_at: instantOrNull,
      breaker: {
        type: "object",
        properties: { state: { enum: ["closed", "half_open", "open"] }, open_until: instantOrNull },
      },
      disabled: { type: "boolean" },
      disabled_reason: { type: ["string", "null"] },
      failing_since: instantOrNull,
    },
  },
  EventTypeInput: {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { type: "string", description: "An exact event type (no wildcard)." },
      description: { type: "string", maxLength: 1024 },
      schema: { type: "object", description: "A JSON Schema of the payload (kept, not enforced)." },
      example: { description: "An example payload." },
    },
  },
  EndpointCreated: {
    allOf: [
      ref("EndpointWithSecret"),
      {
        type: "object",
        properties: {
          warnings: {
            type: "array",
            description: "Subscriptions no event type in the catalog answers to (none without a catalog).",
            items: {
              type: "object",
              properties: {
                code: { const: "undeclared_event_type" },
                event_type: { type: "string" },
                message: { type: "string" },
              },
            },
          },
        },
      },
    ],
  },
  EventType: {
    type: "object",
    properties: {
      name: { type: "string" },
      description: { type: "string" },
      schema: { type: "object" },
      example: {},
      origin: { enum: ["config", "api"] },
      created_at: instant,
    },
  },
} as const;

export function deliveryPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin, pathParam, query, adminErrors } = h;
  const endpointId = pathParam("id", "Endpoint id (ep_…).");
  return {
    "/v1/deliveries/{id}": {
      get: {
        tags: ["admin"],
        summary: "One delivery (inbound or outbound) with its attempt history",
        description: "Another tenant's delivery answers 404, like a missing one.",
        security: admin,
        parameters: [pathParam("id", "Delivery id (dl_…).")],
        responses: {
          "200": { description: "The delivery.", ...json(ref("DeliveryWithAttempts")) },
          ...adminErrors,
        },
      },
    },
    "/v1/endpoints/{id}/deliveries": {
      get: {
        tags: ["admin"],
        summary: "An endpoint's deliveries, newest first",
        description:
          "A sparse state filter may answer a short (even empty) page with a next_cursor: follow it.",
        security: admin,
        parameters: [
          endpointId,
          query("state", "Only deliveries in this state.", state),
          query("since", "Only deliveries created at or after this time (ISO 8601 or ms)."),
          query("limit", "Page size, at most 1000.", { type: "integer", minimum: 1, maximum: 1000 }),
          query("cursor", "next_cursor of the previous page."),
        ],
        responses: {
          "200": {
            description: "A page of deliveries.",
            ...json({
              type: "object",
              properties: {
                data: { type: "array", items: ref("DeliveryListed") },
                next_cursor: { type: ["string", "null"] },
              },
            }),
          },
          "400": error("invalid_request: a bad state, since, limit or cursor."),
          ...adminErrors,
        },
      },
    },
    "/v1/endpoints/{id}/stats": {
      get: {
        tags: ["admin"],
        summary: "An endpoint's health over the last hour and day",
        security: admin,
        parameters: [endpointId],
        responses: {
          "200": { description: "The endpoint's health.", ...json(ref("EndpointStats")) },
          ...adminErrors,
        },
      },
    },
    "/v1/event-types": {
      get: {
        tags: ["admin"],
        summary: "The event catalog: types declared in config (outbound.event_types) and by API",
        security: admin,
        responses: {
          "200": {
            description: "Every declared event type, by name.",
            ...json({ type: "object", properties: { data: { type: "array", items: ref("EventType") } } }),
          },
          "401": error("No valid admin token."),
        },
      },
      post: {
        tags: ["admin"],
        summary: "Declare (or redeclare) an event type (a token bound to no tenant)",
        security: admin,
        requestBody: { required: true, ...json(ref("EventTypeInput")) },
        responses: {
          "201": { description: "Declared.", ...json(ref("EventType")) },
          "200": { description: "Redeclared (replaced).", ...json(ref("EventType")) },
          "400": error("invalid_request: a field is invalid."),
          "401": error("No valid admin token."),
          "403": error("forbidden: a tenant-bound token."),
          "409": error("conflict: declared in config, or the catalog is full."),
        },
      },
    },
  };
}
