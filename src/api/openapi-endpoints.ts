// The /v1/endpoints part of the OpenAPI document, in its own module so the path list stays readable. It
// takes the document's helpers as arguments (rather than importing them) to keep one definition of each.
import { ref } from "./openapi-schemas.ts";

type Schema = Record<string, unknown>;

/** The helpers of openapi-document.ts that these paths use. */
export interface OpenApiHelpers {
  readonly json: (schema: Schema) => Schema;
  readonly error: (description: string) => Schema;
  readonly admin: readonly Schema[];
  readonly pathParam: (name: string, description: string) => Schema;
  readonly query: (name: string, description: string, schema?: Schema) => Schema;
  readonly adminErrors: Readonly<Record<string, Schema>>;
}

/** The paths of the outbound endpoints API. */
export function endpointPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin, pathParam, query, adminErrors } = h;
  return {
    "/v1/endpoints": {
      post: {
        tags: ["admin"],
        summary: "Register an outbound endpoint (its URL must not be internal)",
        security: admin,
        requestBody: { required: true, ...json(ref("EndpointInput")) },
        responses: {
          "201": {
            description: "Created; the secret is shown only here.",
            ...json(ref("EndpointCreated")),
          },
          "400": error("invalid_request: a field is invalid, or the URL is refused (internal destination)."),
          "401": error("No valid admin token."),
        },
      },
      get: {
        tags: ["admin"],
        summary: "Outbound endpoints in creation order, without secrets",
        security: admin,
        parameters: [
          query("tenant", "Only this tenant's (a tenant-bound token sees only its own)."),
          query("limit", "Page size, at most 1000.", { type: "integer", minimum: 1, maximum: 1000 }),
          query("cursor", "next_cursor of the previous page."),
        ],
        responses: {
          "200": {
            description: "A page of endpoints.",
            ...json({
              type: "object",
              properties: {
                data: { type: "array", items: ref("Endpoint") },
                next_cursor: { type: ["string", "null"] },
              },
            }),
          },
          "400": error("invalid_request."),
          "401": error("No valid admin token."),
        },
      },
    },
    "/v1/endpoints/{id}": {
      get: {
        tags: ["admin"],
        summary: "One outbound endpoint, without its secret",
        security: admin,
        parameters: [pathParam("id", "Endpoint id (ep_…).")],
        responses: { "200": { description: "The endpoint.", ...json(ref("Endpoint")) }, ...adminErrors },
      },
      patch: {
        tags: ["admin"],
        summary: "Change an endpoint (null clears description or rate_limit_per_s; the tenant is fixed)",
        security: admin,
        parameters: [pathParam("id", "Endpoint id (ep_…).")],
        requestBody: { required: true, ...json(ref("EndpointPatch")) },
        responses: {
          "200": { description: "Updated.", ...json(ref("Endpoint")) },
          "400": error("invalid_request."),
          ...adminErrors,
        },
      },
      delete: {
        tags: ["admin"],
        summary: "Remove an endpoint",
        security: admin,
        parameters: [pathParam("id", "Endpoint id (ep_…).")],
        responses: { "204": { description: "Removed." }, ...adminErrors },
      },
    },
    "/v1/endpoints/{id}/rotate-secret": {
      post: {
        tags: ["admin"],
        summary: "Make a new signing secret; the previous one keeps signing for 24 h",
        security: admin,
        parameters: [pathParam("id", "Endpoint id (ep_…).")],
        requestBody: {
          required: false,
          ...json({
            type: "object",
            properties: {
              secret: { type: "string", description: "whsec_ + base64 of 24–64 bytes; generated if absent." },
            },
          }),
        },
        responses: {
          "200": {
            description: "Rotated; the new secret is shown only here.",
            ...json(ref("EndpointWithSecret")),
          },
          "400": error("invalid_request."),
          ...adminErrors,
        },
      },
    },
  };
}
