// The /v1/breakers part of the OpenAPI document and the shapes it answers with.
import type { OpenApiHelpers } from "./openapi-endpoints.ts";
import { ref } from "./openapi-schemas.ts";

type Schema = Record<string, unknown>;

const instantOrNull = { type: ["string", "null"], format: "date-time" } as const;
const breakerState = { enum: ["closed", "half_open", "open"] } as const;

export const breakerSchemas = {
  SinkBreaker: {
    type: "object",
    properties: {
      sink: { type: "string" },
      state: { ...breakerState, description: "The sink's shared breaker, as Redis holds it." },
      open_until: instantOrNull,
      probe_until: instantOrNull,
    },
  },
  EndpointBreaker: {
    type: "object",
    properties: {
      endpoint: { type: "string" },
      tenant: { type: ["string", "null"] },
      url: { type: "string" },
      state: breakerState,
      open_until: instantOrNull,
      probe_until: instantOrNull,
    },
  },
} as const;

export function breakerPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin } = h;
  return {
    "/v1/breakers": {
      get: {
        tags: ["admin"],
        summary: "Circuit breakers: every sink's and the endpoints' that are not closed",
        description:
          "A tenant-bound token sees no sinks (they serve every tenant), only its own endpoints. At most " +
          "10000 endpoints are looked at per request (endpoints_truncated says when more exist).",
        security: admin,
        responses: {
          "200": {
            description: "The breakers.",
            ...json({
              type: "object",
              properties: {
                sinks: { type: "array", items: ref("SinkBreaker") },
                endpoints: { type: "array", items: ref("EndpointBreaker") },
                endpoints_checked: { type: "integer" },
                endpoints_truncated: { type: "boolean" },
              },
            }),
          },
          "401": error("No valid admin token."),
        },
      },
    },
  };
}
