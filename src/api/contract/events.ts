// The contract of /v1/events: publish an event to every subscribed endpoint of its tenant, and follow
// what became of it. The body's rules are the domain's (parseEventInput); the schema states them with
// the same messages, so a refused field reads the same whichever check met it first.
import { z } from "@hono/zod-openapi";
import { NAME } from "../../config/schema.ts";
import { EVENT_ID, EVENT_TYPE_MAX_LENGTH, isEventType } from "../../domain/event.ts";
import { adminRoute, idParams, instant, json, jsonBody, queryParam } from "./define-route.ts";
import { Delivery } from "./ledger.ts";

const PUBLISH_STATUSES = ["created", "duplicate", "enqueue_failed", "endpoint_error"] as const;
const idRule = "must be 1–128 characters of A-Z a-z 0-9 _ . : -";

export const EventInput = z
  .strictObject(
    {
      type: z
        .string({ error: "required, a string" })
        .refine(
          isEventType,
          `must be dot-separated segments of A-Z a-z 0-9 _ - (at most ${EVENT_TYPE_MAX_LENGTH} characters)`,
        )
        .openapi({
          description:
            "Dot-separated name, e.g. order.paid. Names starting switchyard. are reserved for the gateway's own operational events (400).",
          example: "order.paid",
        }),
      payload: z
        .unknown()
        .refine((value) => value !== undefined, "required (any JSON value, null included)")
        .openapi({
          description:
            'Any JSON value. Endpoints receive it as data of {"type","timestamp","data"} (Standard Webhooks), or as is with payload_format raw.',
        }),
      id: z
        .string({ error: idRule })
        .regex(EVENT_ID, idRule)
        .optional()
        .openapi({ description: "Your id: publishing the same id again is idempotent (per endpoint)." }),
      tenant: z
        .string({ error: "must match [A-Za-z0-9_-]{1,64}" })
        .regex(NAME, "must match [A-Za-z0-9_-]{1,64}")
        .optional()
        .openapi({ description: "Only with a token not bound to a tenant." }),
    },
    { error: "must be a JSON object" },
  )
  .openapi("EventInput");

export const PublishResult = z
  .object({
    event_id: z.string(),
    counts: z
      .object(
        Object.fromEntries(PUBLISH_STATUSES.map((s) => [s, z.number().int()])) as Record<
          (typeof PUBLISH_STATUSES)[number],
          z.ZodNumber
        >,
      )
      .openapi({ description: "How many matching endpoints ended in each status." }),
    results_truncated: z.boolean().openapi({
      description: "results lists only the first 100; GET /v1/events/{id}/deliveries has them all.",
    }),
    results: z.array(
      z.object({
        endpoint_id: z.string(),
        status: z.enum(PUBLISH_STATUSES),
        error: z.string().optional(),
      }),
    ),
  })
  .openapi("PublishResult");

export const Event = z
  .object({
    id: z.string(),
    type: z.string(),
    tenant: z.string().optional(),
    created_at: instant,
    payload: z.unknown().openapi({ description: "The payload as published." }),
  })
  .openapi("Event");

export const EventDelivery = Delivery.extend({
  endpoint_id: z.string().optional(),
}).openapi("EventDelivery");

const eventParams = idParams("Event id (ev_…, or the publisher's own id), within the caller's tenant.");
const tenantQuery = z.object({
  tenant: queryParam(
    "With a token not bound to a tenant: the tenant whose event id this is (none: a tenantless event).",
  ),
});

export const publishEvent = adminRoute({
  method: "post",
  path: "/v1/events",
  summary: "Publish an event to every subscribed, enabled endpoint of its tenant",
  request: { body: jsonBody(EventInput) },
  responses: {
    202: json(PublishResult, "One delivery row per matching endpoint, written before anything was enqueued."),
  },
  errors: [404, 409],
  errorMeaning: {
    400: "invalid_request: the event is invalid (a switchyard.* type included: reserved); nothing was written.",
    404: "not_found: a tenant this token may not publish for; nothing was written.",
    409: "conflict: the id belongs to an event of this tenant with another type.",
  },
});

export const getEvent = adminRoute({
  method: "get",
  path: "/v1/events/{id}",
  summary: "A published event",
  request: { params: eventParams, query: tenantQuery },
  responses: { 200: json(Event, "The event.") },
  errors: [404],
});

export const listEventDeliveries = adminRoute({
  method: "get",
  path: "/v1/events/{id}/deliveries",
  summary: "One delivery per endpoint: state, attempts, next attempt, last status code",
  request: { params: eventParams, query: tenantQuery },
  responses: { 200: json(z.object({ data: z.array(EventDelivery) }), "The deliveries.") },
  errors: [404],
});

export const EVENT_ROUTES = [publishEvent, getEvent, listEventDeliveries];
