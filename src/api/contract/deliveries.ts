// The contract of the delivery history and endpoint health routes: one delivery of either direction with
// its attempts, an endpoint's deliveries newest first, and an endpoint's health over the last hour and day.
// Declared here (not beside the handlers) so /openapi.json and the client are generated from them.
import { z } from "@hono/zod-openapi";
import { adminRoute, idParams, instant, json, queryParam } from "./define-route.ts";
import { DELIVERY_VIEW_STATES, Delivery, cursorParam, errorClass, limitParam, nextCursor } from "./ledger.ts";

export const Attempt = z
  .object({
    at: instant.openapi({ description: "When the attempt was sent." }),
    duration_ms: z.number().int(),
    status_code: z.number().int().optional(),
    error_class: errorClass.optional().openapi({ description: "A failed attempt's." }),
    reason: z.string().optional().openapi({ description: "Why it failed (at most 512 characters)." }),
    response_excerpt: z
      .string()
      .optional()
      .openapi({ description: "The first ≤ 1 KiB of the response body." }),
    signature_headers: z.record(z.string(), z.string()).optional().openapi({
      description: "The Standard Webhooks headers the request carried (signed requests).",
    }),
  })
  .openapi("Attempt");

/** Where a delivery goes and what it delivers, in either direction. */
const direction = {
  id: z.string().openapi({ description: "dl_…" }),
  direction: z.enum(["inbound", "outbound"]),
  target: z.string().openapi({ description: "The sink's name (inbound) or the endpoint's id (outbound)." }),
  hook_id: z.string().optional().openapi({ description: "Inbound: the hook delivered." }),
  source: z.string().optional().openapi({ description: "Inbound: the hook's source." }),
  event_id: z.string().optional().openapi({ description: "Outbound: the event delivered." }),
  event_type: z.string().optional().openapi({ description: "Outbound: the event's type." }),
  created_at: instant,
};

// Flat objects, not extensions of Delivery: here `attempts` is the history, there the count, and an allOf
// of both would contradict itself.
export const DeliveryListed = z.object({ ...Delivery.shape, ...direction }).openapi("DeliveryListed");

export const DeliveryWithAttempts = z
  .object({
    ...Delivery.shape,
    ...direction,
    tenant: z.string().optional(),
    attempt_count: z
      .number()
      .int()
      .openapi({ description: "Attempts made (the history keeps the last 10)." }),
    attempts: z.array(Attempt).openapi({ description: "Newest last, at most 10." }),
  })
  .openapi("DeliveryWithAttempts");

const WindowStats = z
  .object({
    attempts: z.number().int(),
    successes: z.number().int(),
    success_rate: z
      .number()
      .nullable()
      .openapi({ description: "successes / attempts; null without attempts." }),
    p50_ms: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Median attempt duration (histogram bin bound)." }),
    p99_ms: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "99th percentile attempt duration (bin bound)." }),
  })
  .openapi("WindowStats");

export const EndpointStats = z
  .object({
    endpoint_id: z.string(),
    last_hour: WindowStats,
    last_day: WindowStats,
    last_status: z.union([z.number().int(), z.string()]).nullable().openapi({
      description: "The newest attempt's status code, or its error class when nothing answered.",
    }),
    last_attempt_at: instant.nullable(),
    breaker: z.object({ state: z.enum(["closed", "half_open", "open"]), open_until: instant.nullable() }),
    disabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    failing_since: instant.nullable(),
  })
  .openapi("EndpointStats");

const endpointId = idParams("Endpoint id (ep_…).");

export const getDelivery = adminRoute({
  method: "get",
  path: "/v1/deliveries/{id}",
  summary: "One delivery (inbound or outbound) with its attempt history",
  description: "Another tenant's delivery answers 404, like a missing one.",
  request: { params: idParams("Delivery id (dl_…).") },
  responses: { 200: json(DeliveryWithAttempts, "The delivery.") },
  errors: [404],
});

export const listEndpointDeliveries = adminRoute({
  method: "get",
  path: "/v1/endpoints/{id}/deliveries",
  summary: "An endpoint's deliveries, newest first",
  description: "A sparse state filter may answer a short (even empty) page with a next_cursor: follow it.",
  request: {
    params: endpointId,
    query: z.object({
      state: queryParam("Only deliveries in this state.", { enum: [...DELIVERY_VIEW_STATES] }),
      since: queryParam("Only deliveries created at or after this time (ISO 8601 or ms)."),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(DeliveryListed), next_cursor: nextCursor }), "A page of deliveries."),
  },
  errors: [400, 404],
  errorMeaning: { 400: "invalid_request: a bad state, since, limit or cursor." },
});

export const getEndpointStats = adminRoute({
  method: "get",
  path: "/v1/endpoints/{id}/stats",
  summary: "An endpoint's health over the last hour and day",
  request: { params: endpointId },
  responses: { 200: json(EndpointStats, "The endpoint's health.") },
  errors: [404],
});

export const DELIVERY_ROUTES = [getDelivery, listEndpointDeliveries, getEndpointStats];
