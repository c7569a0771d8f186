// The contract of /v1/breakers: the circuit breakers an operator looks at in an incident.
import { z } from "@hono/zod-openapi";
import { adminRoute, instant, json } from "./define-route.ts";

const breakerState = z.enum(["closed", "half_open", "open"]);

export const SinkBreaker = z
  .object({
    sink: z.string(),
    state: breakerState.openapi({ description: "The sink's shared breaker, as Redis holds it." }),
    open_until: instant.nullable(),
    probe_until: instant.nullable(),
  })
  .openapi("SinkBreaker");

export const EndpointBreaker = z
  .object({
    endpoint: z.string(),
    tenant: z.string().nullable(),
    url: z.string(),
    state: breakerState,
    open_until: instant.nullable(),
    probe_until: instant.nullable(),
  })
  .openapi("EndpointBreaker");

export const listBreakers = adminRoute({
  method: "get",
  path: "/v1/breakers",
  summary: "Circuit breakers: every sink's and the endpoints' that are not closed",
  description:
    "A tenant-bound token sees no sinks (they serve every tenant), only its own endpoints. At most " +
    "10000 endpoints are looked at per request (endpoints_truncated says when more exist).",
  responses: {
    200: json(
      z.object({
        sinks: z.array(SinkBreaker),
        endpoints: z.array(EndpointBreaker),
        endpoints_checked: z.number().int(),
        endpoints_truncated: z.boolean(),
      }),
      "The breakers.",
    ),
  },
});

export const BREAKER_ROUTES = [listBreakers];
