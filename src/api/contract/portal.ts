// The contract of the tenant portal's /v1 routes: minting a single-use link into the portal, and an
// endpoint's test event (which the portal offers and any admin client may use). The portal's pages and
// its cookie exchange (/portal, /portal/session) are browser pages, not JSON API, and stay out of the
// document; /portal/api/v1/* serves these same declared routes behind a portal session.
import { z } from "@hono/zod-openapi";
import { NAME } from "../../config/schema.ts";
import { isEventType } from "../../domain/event.ts";
import { adminRoute, idParams, instant, json, jsonBody } from "./define-route.ts";
import { PublishResult } from "./events.ts";

export const PORTAL_DEFAULT_TTL_S = 3600;
export const PORTAL_MAX_TTL_S = 7 * 86_400;

// Defaults are the handler's and only described here: openapi-typescript makes a field with a declared
// default required in the client's types, and a caller may omit these.
export const PortalSessionInput = z
  .strictObject({
    tenant: z.string().regex(NAME, "must match [A-Za-z0-9_-]{1,64}"),
    ttl_s: z
      .number()
      .int()
      .min(60)
      .max(PORTAL_MAX_TTL_S)
      .optional()
      .openapi({
        description: `How long the link, and the session it opens, last (default ${PORTAL_DEFAULT_TTL_S}).`,
      }),
    read_only: z
      .boolean()
      .optional()
      .openapi({ description: "A session that changes nothing (403); default false." }),
  })
  .openapi("PortalSessionInput");

export const PortalLink = z
  .object({
    url: z.string().openapi({
      description: "`<public_url>/portal#<token>`: the token only in the fragment; usable once.",
    }),
    expires_at: instant,
    tenant: z.string(),
    read_only: z.boolean(),
  })
  .openapi("PortalLink");

export const TestEventInput = z
  .strictObject({
    type: z
      .string()
      .refine(isEventType, "must be an event type (no pattern)")
      .optional()
      .openapi({ description: "An event type (no pattern); switchyard.test unless named." }),
  })
  .openapi("TestEventInput");

export const createPortalSession = adminRoute({
  method: "post",
  path: "/v1/portal/sessions",
  summary: "Mint a single-use link into the tenant portal (an unscoped token, or one of that tenant)",
  request: { body: jsonBody(PortalSessionInput) },
  responses: { 201: json(PortalLink, "The link.") },
  errors: [404],
  errorMeaning: { 404: "not_found: a token bound to another tenant." },
});

export const sendTestEvent = adminRoute({
  method: "post",
  path: "/v1/endpoints/{id}/test-event",
  summary: "Publish a test event to this endpoint only (type switchyard.test unless named)",
  request: { params: idParams("Endpoint id (ep_…)."), body: jsonBody(TestEventInput, false) },
  responses: { 202: json(PublishResult, "Published, as POST /v1/events answers.") },
  errors: [404],
});

export const PORTAL_ROUTES = [createPortalSession, sendTestEvent];
