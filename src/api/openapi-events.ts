// The /v1/events part of the OpenAPI document: publishing an event and following its deliveries.
import type { OpenApiHelpers } from "./openapi-endpoints.ts";
import { ref } from "./openapi-schemas.ts";

type Schema = Record<string, unknown>;

const PUBLISH_STATUSES = ["created", "duplicate", "enqueue_failed", "endpoint_error"] as const;

/** The paths of the outbound events API. */
export function eventPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin, pathParam, query, adminErrors } = h;
  const eventId = pathParam("id", "Event id (ev_…, or the publisher's own id), within the caller's tenant.");
  const tenantQuery = query(
    "tenant",
    "With a token not bound to a tenant: the tenant whose event id this is (none: a tenantless event).",
  );
  return {
    "/v1/events": {
      post: {
        tags: ["admin"],
        summary: "Publish an event to every subscribed, enabled endpoint of its tenant",
        security: admin,
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["type", "payload"],
            properties: {
              type: { type: "string", description: "Dot-separated name, e.g. order.paid." },
              payload: {
                description:
                  'Any JSON value. Endpoints receive it as data of {"type","timestamp","data"} (the Standard Webhooks payload shape), or as is with payload_format raw.',
              },
              id: { type: "string", description: "Your id (makes re-publishing idempotent per endpoint)." },
              tenant: { type: "string", description: "Only with a token not bound to a tenant." },
            },
          }),
        },
        responses: {
          "202": {
            description: "One delivery row per matching endpoint, written before anything was enqueued.",
            ...json({
              type: "object",
              properties: {
                event_id: { type: "string" },
                counts: {
                  type: "object",
                  description: "How many endpoints ended in each status (every matching endpoint).",
                  properties: Object.fromEntries(PUBLISH_STATUSES.map((s) => [s, { type: "integer" }])),
                },
                results_truncated: {
                  type: "boolean",
                  description:
                    "results lists only the first 100; GET /v1/events/{id}/deliveries has them all.",
                },
                results: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: {
                      endpoint_id: { type: "string" },
                      status: { enum: PUBLISH_STATUSES },
                      error: { type: "string" },
                    },
                  },
                },
              },
            }),
          },
          "400": error("invalid_request: the event is invalid; nothing was written."),
          "401": error("No valid admin token."),
          "404": error("not_found: a tenant this token may not publish for; nothing was written."),
          "409": error("conflict: the id belongs to an event of this tenant with another type."),
        },
      },
    },
    "/v1/events/{id}": {
      get: {
        tags: ["admin"],
        summary: "A published event",
        security: admin,
        parameters: [eventId, tenantQuery],
        responses: {
          "200": {
            description: "The event.",
            ...json({
              type: "object",
              properties: {
                id: { type: "string" },
                type: { type: "string" },
                tenant: { type: "string" },
                created_at: { type: "string", format: "date-time" },
                payload: {},
              },
            }),
          },
          ...adminErrors,
        },
      },
    },
    "/v1/events/{id}/deliveries": {
      get: {
        tags: ["admin"],
        summary: "One delivery per endpoint: state, attempts, next attempt, last status code",
        security: admin,
        parameters: [eventId, tenantQuery],
        responses: {
          "200": {
            description: "The deliveries.",
            ...json({
              type: "object",
              properties: { data: { type: "array", items: ref("SinkState") } },
            }),
          },
          ...adminErrors,
        },
      },
    },
  };
}
