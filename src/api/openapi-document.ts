// The OpenAPI 3.1 document of Switchyard's HTTP API, written by hand and kept small: the paths, their
// auth, status codes and the main fields. The README states the contract; this is its machine-readable index.
import { breakerPaths, breakerSchemas } from "./openapi-breakers.ts";
import { deliveryPaths, deliverySchemas } from "./openapi-deliveries.ts";
import { endpointPaths } from "./openapi-endpoints.ts";
import { eventPaths } from "./openapi-events.ts";
import { portalPaths } from "./openapi-portal.ts";
import { replayPaths } from "./openapi-replays.ts";
import { openApiSchemas, ref } from "./openapi-schemas.ts";

const json = (schema: Record<string, unknown>): Record<string, unknown> => ({
  content: { "application/json": { schema } },
});
const error = (description: string): Record<string, unknown> => ({ description, ...json(ref("Error")) });
// The JSON API takes bearer tokens only; basic auth is for the dashboard's browsers.
const admin = [{ bearer: [] }];
const pathParam = (name: string, description: string): Record<string, unknown> => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
const query = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const adminErrors = {
  "401": error("No valid admin token."),
  "404": error("Unknown id, or it belongs to a tenant the token is not bound to."),
};

const WRITES = new Set(["post", "put", "patch", "delete"]);

/** Add the answers every admin write can get (the cross-site guard) to each write of `paths`. */
function withWriteErrors(
  paths: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const writeErrors = {
    "403": error("forbidden: sent from a page of another origin that admin.allowed_origins does not list."),
    "415": error("unsupported_media_type: a write must be Content-Type: application/json, body or not."),
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      !path.startsWith("/v1/")
        ? ops
        : Object.fromEntries(
            Object.entries(ops).map(([method, op]) => {
              if (!WRITES.has(method)) return [method, op];
              const { responses } = op as { responses: Record<string, unknown> };
              return [method, { ...(op as object), responses: { ...responses, ...writeErrors } }];
            }),
          ),
    ]),
  );
}

const ingest = (summary: string, params: Record<string, unknown>[]): Record<string, unknown> => ({
  post: {
    tags: ["inbound"],
    summary,
    description:
      "Verify, dedup and persist a webhook; answered only after Redis acknowledged the record and its jobs.",
    parameters: params,
    requestBody: { required: true, content: { "*/*": { schema: { type: "string", format: "binary" } } } },
    responses: {
      "202": { description: "Accepted.", ...json(ref("IngestAccepted")) },
      "200": {
        description: "Duplicate of a hook seen within the dedup TTL; nothing enqueued.",
        ...json(ref("IngestDuplicate")),
      },
      "401": error("verification_failed: bad or missing signature, or a stale timestamp."),
      "404": error("unknown_source."),
      "413": error("payload_too_large."),
      "429": error("overloaded (with Retry-After)."),
      "503": error("store_unavailable or shutting down (with Retry-After)."),
    },
  },
});

/** The document served at `GET /openapi.json`. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Switchyard HTTP API",
    version: "1.0.0",
    description:
      "Webhook gateway: inbound webhooks, health, metrics, and the admin API (DLQ, replay, breakers, claims, outbound endpoints). The admin API takes bearer tokens only; every write (POST, PUT, PATCH, DELETE) must be Content-Type: application/json and is refused from another origin's pages unless admin.allowed_origins lists it.",
  },
  tags: [{ name: "inbound" }, { name: "operations" }, { name: "admin" }],
  paths: withWriteErrors({
    "/webhooks/{source}": ingest("Receive a webhook for a source", [pathParam("source", "Source name.")]),
    "/webhooks/{tenant}/{source}": ingest("Receive a webhook for a source, tenant from the path", [
      pathParam(
        "tenant",
        "Tenant: one the source lists in `tenants`, or its fixed `tenant`; any other is 404.",
      ),
      pathParam("source", "Source name."),
    ]),
    "/healthz": {
      get: {
        tags: ["operations"],
        summary: "Process is alive",
        responses: { "200": { description: "Alive." } },
      },
    },
    "/readyz": {
      get: {
        tags: ["operations"],
        summary: "Redis is reachable and the process is not draining",
        responses: { "200": { description: "Ready." }, "503": error("not_ready (with Retry-After).") },
      },
    },
    "/metrics": {
      get: {
        tags: ["operations"],
        summary: "Prometheus metrics",
        responses: { "200": { description: "Prometheus text format.", content: { "text/plain": {} } } },
      },
    },
    "/asyncapi.json": {
      get: {
        tags: ["operations"],
        summary: "AsyncAPI 3.0 document of the queue sinks' channels (no credentials)",
        responses: { "200": { description: "AsyncAPI document.", ...json({ type: "object" }) } },
      },
    },
    "/openapi.json": {
      get: {
        tags: ["operations"],
        summary: "This document",
        responses: { "200": { description: "OpenAPI." } },
      },
    },
    "/v1/hooks/{id}": {
      get: {
        tags: ["admin"],
        summary: "A hook record and its per-sink delivery state",
        security: admin,
        parameters: [pathParam("id", "Hook id (hk_…)."), query("include", "`body` adds body_base64.")],
        responses: { "200": { description: "The record.", ...json(ref("Hook")) }, ...adminErrors },
      },
    },
    "/v1/claims/{id}": {
      get: {
        tags: ["admin"],
        summary: "Claim check: the body bytes of a hook, exactly as received",
        security: [...admin, {}],
        parameters: [
          pathParam("id", "Claim id (the hook id)."),
          query("exp", "Signed URL: expiry, Unix seconds."),
          query("sig", "Signed URL: base64url HMAC-SHA256 of `id.exp`; with a valid one no token is needed."),
        ],
        responses: {
          "200": {
            description: "The body, as application/octet-stream, an attachment.",
            headers: {
              "x-switchyard-sha256": { description: "Hex sha256 of the body.", schema: { type: "string" } },
            },
            content: { "*/*": { schema: { type: "string", format: "binary" } } },
          },
          ...adminErrors,
          "503": error("store_unavailable."),
        },
      },
    },
    "/v1/dlq": {
      get: {
        tags: ["admin"],
        summary: "Dead-lettered deliveries, newest first, without bodies",
        security: admin,
        parameters: [
          query("source", "Source name (inbound entries)."),
          query("sink", "Sink name (inbound entries)."),
          query("endpoint", "Endpoint id, ep_… (outbound entries)."),
          query("error_class", "permanent, throttled or transient."),
          query("since", "ISO 8601 or epoch ms."),
          query("until", "ISO 8601 or epoch ms."),
          query("limit", "Page size, at most 1000.", { type: "integer", minimum: 1, maximum: 1000 }),
          query("cursor", "next_cursor of the previous page."),
        ],
        responses: {
          "200": {
            description: "A page of entries.",
            ...json({
              type: "object",
              properties: {
                data: { type: "array", items: ref("DlqEntry") },
                next_cursor: { type: ["string", "null"] },
              },
            }),
          },
          "400": error("invalid_request."),
          "401": error("No valid admin token."),
        },
      },
    },
    "/v1/dlq/{id}": {
      delete: {
        tags: ["admin"],
        summary: "Purge one DLQ entry",
        security: admin,
        parameters: [pathParam("id", "DLQ id (<hook id>-<sink>).")],
        responses: { "204": { description: "Purged." }, ...adminErrors },
      },
    },
    ...replayPaths({ json, error, admin, pathParam, query, adminErrors }),
    ...breakerPaths({ json, error, admin, pathParam, query, adminErrors }),
    ...endpointPaths({ json, error, admin, pathParam, query, adminErrors }),
    ...eventPaths({ json, error, admin, pathParam, query, adminErrors }),
    ...portalPaths({ json, error, admin, pathParam, query, adminErrors }),
    ...deliveryPaths({ json, error, admin, pathParam, query, adminErrors }),
    "/admin/queues": {
      get: {
        tags: ["admin"],
        summary: "Bull Board dashboard over every queue (HTML; basic auth with the token as password)",
        description:
          "The board's own writes (retry, clean, promote, …) are refused from pages of other origins (403); its POSTs must be JSON (415).",
        security: [{ basic: [] }, { bearer: [] }],
        responses: {
          "200": { description: "Dashboard.", content: { "text/html": {} } },
          "401": error("No valid admin token."),
        },
      },
    },
  }),
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "An admin token from `admin.tokens`." },
      basic: {
        type: "http",
        scheme: "basic",
        description: "Any user name, an admin token as the password: /admin/queues only, never the /v1 API.",
      },
    },
    schemas: { ...openApiSchemas, ...breakerSchemas, ...deliverySchemas },
  },
} as const;
