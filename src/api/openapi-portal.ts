// The tenant portal's /v1 paths in the OpenAPI document: minting a magic link, and an endpoint's test
// event (which the portal offers and any admin client may use). The pages under /portal are HTML, not API.
import type { OpenApiHelpers } from "./openapi-endpoints.ts";

type Schema = Record<string, unknown>;

export function portalPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin, pathParam, adminErrors } = h;
  return {
    "/v1/portal/sessions": {
      post: {
        tags: ["admin"],
        summary: "Mint a single-use link into the tenant portal (an unscoped token, or one of that tenant)",
        security: admin,
        requestBody: {
          required: true,
          ...json({
            type: "object",
            additionalProperties: false,
            required: ["tenant"],
            properties: {
              tenant: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
              ttl_s: {
                type: "integer",
                minimum: 60,
                maximum: 604800,
                default: 3600,
                description: "How long the link, and the session it opens, last.",
              },
              read_only: {
                type: "boolean",
                default: false,
                description: "A session that changes nothing (403).",
              },
            },
          }),
        },
        responses: {
          "201": {
            description:
              "The link: `<public_url>/portal#<token>`, the token only in the fragment; usable once.",
            ...json({
              type: "object",
              properties: {
                url: { type: "string" },
                expires_at: { type: "string", format: "date-time" },
                tenant: { type: "string" },
                read_only: { type: "boolean" },
              },
            }),
          },
          "400": error("invalid_request."),
          "401": error("No valid admin token."),
          "404": error("A token bound to another tenant."),
        },
      },
    },
    "/v1/endpoints/{id}/test-event": {
      post: {
        tags: ["admin"],
        summary: "Publish a test event to this endpoint only (type switchyard.test unless named)",
        security: admin,
        parameters: [pathParam("id", "Endpoint id (ep_…).")],
        requestBody: {
          required: false,
          ...json({
            type: "object",
            additionalProperties: false,
            properties: { type: { type: "string", description: "An event type (no pattern)." } },
          }),
        },
        responses: {
          "202": { description: "Published, as POST /v1/events answers." },
          "400": error("invalid_request."),
          ...adminErrors,
        },
      },
    },
  };
}
