// The contract of the public routes (health, metrics, the documents), the providers' door (ingest) and
// the dashboard. Ingest is the hot path: its routes are described here but never validated by zod (the
// route reads and checks the request itself), and the dashboard is Bull Board's own app.
import { z } from "@hono/zod-openapi";
import { ErrorBody, errorResponses, json, publicRoute } from "./define-route.ts";

const Status = (value: string) => z.object({ status: z.literal(value) });

export const healthz = publicRoute("operations", {
  method: "get",
  path: "/healthz",
  summary: "Process is alive",
  responses: { 200: json(Status("ok"), "Alive.") },
});

export const readyz = publicRoute("operations", {
  method: "get",
  path: "/readyz",
  summary: "Redis is reachable and the process is not draining",
  responses: {
    200: json(Status("ready"), "Ready."),
    ...errorResponses([503], { 503: "not_ready (with Retry-After)." }),
  },
});

export const metrics = publicRoute("operations", {
  method: "get",
  path: "/metrics",
  summary: "Prometheus metrics",
  responses: {
    200: { description: "Prometheus text format.", content: { "text/plain": { schema: z.string() } } },
  },
});

const document = z.record(z.string(), z.unknown());

export const asyncApi = publicRoute("operations", {
  method: "get",
  path: "/asyncapi.json",
  summary: "AsyncAPI 3.0 document of the queue sinks' channels (no credentials)",
  responses: { 200: json(document, "AsyncAPI document.") },
});

export const openApi = publicRoute("operations", {
  method: "get",
  path: "/openapi.json",
  summary: "This document",
  responses: { 200: json(document, "OpenAPI 3.1 document.") },
});

export const IngestAccepted = z
  .object({ status: z.literal("accepted"), id: z.string().openapi({ description: "The hook id (hk_…)." }) })
  .openapi("IngestAccepted");
export const IngestDuplicate = z
  .object({
    status: z.literal("duplicate"),
    id: z.string().openapi({ description: "Id of the first copy." }),
  })
  .openapi("IngestDuplicate");

const pathName = (description: string) =>
  z.string().openapi({ pattern: "^[A-Za-z0-9_-]{1,64}$", description });

function ingestRoute<P extends string>(path: P, params: z.ZodObject, summary: string) {
  return publicRoute("inbound", {
    method: "post",
    path,
    summary,
    description:
      "Verify, dedup and persist a webhook; answered only after Redis acknowledged the record and its jobs.",
    request: {
      params,
      body: {
        required: true,
        content: { "*/*": { schema: z.string().openapi({ format: "binary", description: "Any bytes." }) } },
      },
    },
    responses: {
      202: json(IngestAccepted, "Accepted."),
      200: json(IngestDuplicate, "Duplicate of a hook seen within the dedup TTL; nothing enqueued."),
      ...errorResponses([401, 404, 413, 429, 503], {
        401: "verification_failed: bad or missing signature, or a stale timestamp.",
        404: "unknown_source: no such source (or tenant for it).",
        413: "payload_too_large.",
        429: "overloaded (with Retry-After).",
        503: "store_unavailable or shutting_down (with Retry-After).",
      }),
    },
  });
}

export const ingest = ingestRoute(
  "/webhooks/{source}",
  z.object({ source: pathName("Source name.") }),
  "Receive a webhook for a source",
);

export const ingestForTenant = ingestRoute(
  "/webhooks/{tenant}/{source}",
  z.object({
    tenant: pathName("A tenant the source lists in `tenants`, or its fixed `tenant`; any other is 404."),
    source: pathName("Source name."),
  }),
  "Receive a webhook for a source, tenant from the path",
);

export const bullBoard = publicRoute("operations", {
  method: "get",
  path: "/admin/queues",
  summary: "Bull Board dashboard over every queue (HTML; basic auth with the token as password)",
  description:
    "The board's own writes (retry, clean, promote, …) are refused from pages of other origins (403); its POSTs must be JSON (415). A tenant-bound token may not open it (404).",
  security: [{ basic: [] }, { bearer: [] }],
  responses: {
    200: { description: "Dashboard.", content: { "text/html": { schema: z.string() } } },
    401: json(ErrorBody, "unauthorized: no valid admin token."),
    404: json(ErrorBody, "not_found: a tenant-bound token."),
  },
});

export const OPERATION_ROUTES = [
  healthz,
  readyz,
  metrics,
  asyncApi,
  openApi,
  ingest,
  ingestForTenant,
  bullBoard,
];
