// The contract of /v1/endpoints: the outbound endpoints events fan out to. The request bodies are the
// schemas of endpoint-body.ts, which the routes validate with.
import { z } from "@hono/zod-openapi";
import { PAYLOAD_FORMATS } from "../../domain/outbound-body.ts";
import { createEndpointBody, patchEndpointBody, rotateSecretBody } from "../endpoint-body.ts";
import { adminRoute, idParams, instant, json, jsonBody, queryParam } from "./define-route.ts";
import { cursorParam, limitParam, nextCursor } from "./ledger.ts";

export const Endpoint = z
  .object({
    id: z.string().openapi({ description: "ep_…" }),
    url: z.string().openapi({ description: "A password in the URL is shown as ***." }),
    event_types: z.array(z.string()).openapi({
      description: "Event types (order.paid), prefix wildcards (order.*) or *.",
    }),
    tenant: z.string().optional().openapi({
      description: "Receives only this tenant's events; unset: only events without a tenant.",
    }),
    headers: z.record(z.string(), z.string()).openapi({
      description: "Extra request headers; credential-like values are shown as [redacted].",
    }),
    rate_limit_per_s: z.number().int().optional(),
    payload_format: z.enum(PAYLOAD_FORMATS).openapi({
      description:
        'The delivery body. standard: {"type","timestamp","data":<payload>} (Standard Webhooks). raw: the payload alone.',
    }),
    disabled: z.boolean(),
    disabled_reason: z.string().optional(),
    disabled_at: instant.optional(),
    description: z.string().optional(),
    version: z.number().int().openapi({
      description: "Bumped by every change of url, event_types, headers, payload_format, secret or disabled.",
    }),
    created_at: instant,
    updated_at: instant,
    failing_since: instant.optional(),
  })
  .openapi("Endpoint");

export const EndpointWithSecret = Endpoint.extend({
  secret: z.string().openapi({ description: "whsec_…; shown only in this answer." }),
}).openapi("EndpointWithSecret");

// Flat, not an extension: an allOf of an allOf would hide its fields from strict readers of the document.
export const EndpointCreated = z
  .object({
    ...EndpointWithSecret.shape,
    warnings: z
      .array(
        z.object({
          code: z.enum(["undeclared_event_type"]),
          event_type: z.string(),
          message: z.string(),
        }),
      )
      .openapi({
        description: "Subscriptions no event type in the catalog answers to (none without a catalog).",
      }),
  })
  .openapi("EndpointCreated");

const endpointId = idParams("Endpoint id (ep_…).");

export const createEndpoint = adminRoute({
  method: "post",
  path: "/v1/endpoints",
  summary: "Register an outbound endpoint (its URL must not be internal)",
  request: { body: jsonBody(createEndpointBody) },
  responses: { 201: json(EndpointCreated, "Created; the secret is shown only here.") },
  errors: [409],
  errorMeaning: {
    400: "invalid_request: a field is invalid, or the URL is refused (internal destination).",
    409: "too_many_endpoints: the deployment's endpoint limit is reached.",
  },
});

export const listEndpoints = adminRoute({
  method: "get",
  path: "/v1/endpoints",
  summary: "Outbound endpoints in creation order, without secrets",
  request: {
    query: z.object({
      tenant: queryParam("Only this tenant's (a tenant-bound token sees only its own)."),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(Endpoint), next_cursor: nextCursor }), "A page of endpoints."),
  },
  errors: [400],
});

export const getEndpoint = adminRoute({
  method: "get",
  path: "/v1/endpoints/{id}",
  summary: "One outbound endpoint, without its secret",
  request: { params: endpointId },
  responses: { 200: json(Endpoint, "The endpoint.") },
  errors: [404],
});

export const patchEndpoint = adminRoute({
  method: "patch",
  path: "/v1/endpoints/{id}",
  summary: "Change an endpoint (null clears description or rate_limit_per_s; the tenant is fixed)",
  request: { params: endpointId, body: jsonBody(patchEndpointBody) },
  responses: { 200: json(Endpoint, "Updated.") },
  errors: [404],
});

export const deleteEndpoint = adminRoute({
  method: "delete",
  path: "/v1/endpoints/{id}",
  summary: "Remove an endpoint",
  request: { params: endpointId },
  responses: { 204: { description: "Removed." } },
  errors: [404],
});

export const rotateEndpointSecret = adminRoute({
  method: "post",
  path: "/v1/endpoints/{id}/rotate-secret",
  summary: "Make a new signing secret; the previous one keeps signing for 24 h",
  request: { params: endpointId, body: jsonBody(rotateSecretBody, false) },
  responses: { 200: json(EndpointWithSecret, "Rotated; the new secret is shown only here.") },
  errors: [404],
});

export const ENDPOINT_ROUTES = [
  createEndpoint,
  listEndpoints,
  getEndpoint,
  patchEndpoint,
  deleteEndpoint,
  rotateEndpointSecret,
];
