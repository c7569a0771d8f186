// The contract of the routes that show what became of received hooks: one hook and its deliveries, the
// claim check, the DLQ and the quarantine. Enums come from the code that defines them.
import { z } from "@hono/zod-openapi";
import { ERROR_CLASSES, type ErrorClass } from "../../domain/error-class.ts";
import { MAX_LIMIT } from "../filters.ts";
import { adminRoute, idParams, instant, json, queryParam } from "./define-route.ts";

/** One of the error classes a failed attempt is sorted into. */
export const errorClass = z.enum(ERROR_CLASSES as readonly [ErrorClass, ...ErrorClass[]]);

export const limitParam = queryParam(`Page size, 1 to ${MAX_LIMIT} (default 100).`, {
  type: "integer",
  minimum: 1,
  maximum: MAX_LIMIT,
});
export const cursorParam = queryParam("next_cursor of the previous page.");
export const nextCursor = z.string().nullable().openapi({ description: "null on the last page." });

/** The states a delivery shows: its row's, with an attempt in flight shown as what it was before. */
export const DELIVERY_VIEW_STATES = ["pending", "retrying", "delivered", "dead"] as const;

export const Delivery = z
  .object({
    delivery_id: z.string(),
    state: z.enum(DELIVERY_VIEW_STATES),
    attempts: z.number().int(),
    first_attempt_at: instant.optional(),
    last_attempt_at: instant.optional(),
    next_attempt_at: instant.optional(),
    delivered_at: instant.optional(),
    dead_at: instant.optional(),
    last_error: z.string().optional(),
    error_class: errorClass.optional(),
    last_status_code: z.number().int().optional(),
    replay_id: z.string().optional(),
    dlq_id: z.string().optional().openapi({ description: "Set while the delivery is in the DLQ." }),
  })
  .openapi("Delivery", { description: "One delivery (a row of the delivery ledger)." });

export const Hook = z
  .object({
    id: z.string(),
    source: z.string(),
    tenant: z.string().optional(),
    received_at: instant,
    size: z.number().int(),
    content_type: z.string().optional(),
    sha256: z.string(),
    dedup_key: z.string(),
    idempotency_key: z.string(),
    headers: z.record(z.string(), z.string()),
    sinks: z.record(z.string(), Delivery),
    body_base64: z.string().optional().openapi({ description: "Only with ?include=body." }),
  })
  .openapi("Hook");

export const DlqEntry = z
  .object({
    id: z.string().openapi({ description: "The delivery id (dl_…)." }),
    direction: z.enum(["inbound", "outbound"]),
    target: z.string().openapi({ description: "The sink name (inbound) or endpoint id (outbound)." }),
    hook_id: z.string().optional().openapi({ description: "Inbound only: the hook delivered." }),
    event_id: z.string().optional().openapi({ description: "Outbound only: the event delivered." }),
    source: z.string().optional().openapi({ description: "Inbound only: the hook's source." }),
    event_type: z.string().optional().openapi({ description: "Outbound only: the event's type." }),
    tenant: z.string().optional(),
    sink: z.string().optional().openapi({ description: "Inbound only: the target sink." }),
    endpoint: z.string().optional().openapi({ description: "Outbound only: the target endpoint." }),
    error_class: errorClass,
    reason: z.string(),
    status_code: z.number().int().optional(),
    attempts: z.number().int(),
    first_attempt_at: instant.optional(),
    last_attempt_at: instant.optional(),
    dead_at: instant,
    replay_id: z.string().optional(),
  })
  .openapi("DlqEntry", {
    description: "A dead delivery, inbound (a hook to a sink) or outbound (an event to an endpoint).",
  });

export const QuarantinedHook = z
  .object({
    id: z.string(),
    source: z.string(),
    tenant: z.string().optional(),
    received_at: instant,
    reason: z.string(),
    size: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body_base64: z.string().optional().openapi({ description: "Only with ?include=body." }),
  })
  .openapi("QuarantinedHook");

const includeParam = queryParam("`body` adds body_base64.");

export const getHook = adminRoute({
  method: "get",
  path: "/v1/hooks/{id}",
  summary: "A hook record and its per-sink delivery state",
  request: { params: idParams("Hook id (hk_…)."), query: z.object({ include: includeParam }) },
  responses: { 200: json(Hook, "The record.") },
  errors: [404],
});

export const getClaim = adminRoute({
  method: "get",
  path: "/v1/claims/{id}",
  summary: "Claim check: the body bytes of a hook, exactly as received",
  description: "With a valid signed URL (exp, sig) no token is needed.",
  security: [{ bearer: [] }, {}],
  request: {
    params: idParams("Claim id (the hook id)."),
    query: z.object({
      exp: queryParam("Signed URL: expiry, Unix seconds."),
      sig: queryParam("Signed URL: base64url HMAC-SHA256 of `id.exp`."),
    }),
  },
  responses: {
    200: {
      description: "The body, as an application/octet-stream attachment.",
      headers: z.object({
        "x-switchyard-sha256": z.string().openapi({ description: "Hex sha256 of the body." }),
      }),
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
  errors: [404],
});

export const listDlq = adminRoute({
  method: "get",
  path: "/v1/dlq",
  summary: "Dead-lettered deliveries, newest first, without bodies",
  request: {
    query: z.object({
      source: queryParam("Source name (inbound entries)."),
      sink: queryParam("Sink name (inbound entries)."),
      endpoint: queryParam("Endpoint id, ep_… (outbound entries)."),
      error_class: queryParam("permanent, throttled or transient.", { enum: ERROR_CLASSES }),
      since: queryParam("ISO 8601 or epoch ms."),
      until: queryParam("ISO 8601 or epoch ms."),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(DlqEntry), next_cursor: nextCursor }), "A page of entries."),
  },
  errors: [400],
});

export const deleteDlqEntry = adminRoute({
  method: "delete",
  path: "/v1/dlq/{id}",
  summary: "Purge one DLQ entry",
  request: { params: idParams("DLQ id (the delivery id).") },
  responses: { 204: { description: "Purged." } },
  errors: [404],
});

export const listQuarantine = adminRoute({
  method: "get",
  path: "/v1/quarantine",
  summary: "Hooks that failed verification and were kept, newest first",
  request: {
    query: z.object({
      limit: limitParam,
      before: queryParam("Only entries received before this instant (ISO 8601 or epoch ms)."),
    }),
  },
  responses: { 200: json(z.object({ data: z.array(QuarantinedHook) }), "The entries, without bodies.") },
  errors: [400],
});

export const getQuarantined = adminRoute({
  method: "get",
  path: "/v1/quarantine/{id}",
  summary: "One quarantined hook",
  request: { params: idParams("Hook id (hk_…)."), query: z.object({ include: includeParam }) },
  responses: { 200: json(QuarantinedHook, "The entry.") },
  errors: [404],
});

export const LEDGER_ROUTES = [getHook, getClaim, listDlq, deleteDlqEntry, listQuarantine, getQuarantined];
