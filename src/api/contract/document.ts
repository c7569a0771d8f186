// The OpenAPI 3.1 document of the HTTP API, generated from the routes' declarations (src/api/contract/):
// served at GET /openapi.json, committed as openapi/openapi.json (`npm run openapi:check` fails when
// they differ) and the source of the client package's types.
import { OpenAPIHono } from "@hono/zod-openapi";
import { BREAKER_ROUTES } from "./breakers.ts";
import { DELIVERY_ROUTES } from "./deliveries.ts";
import { ENDPOINT_ROUTES } from "./endpoints.ts";
import { EVENT_TYPE_ROUTES } from "./event-types.ts";
import { EVENT_ROUTES } from "./events.ts";
import { LEDGER_ROUTES } from "./ledger.ts";
import { OPERATION_ROUTES } from "./operations.ts";
import { PORTAL_ROUTES } from "./portal.ts";
import { REPLAY_ROUTES } from "./replays.ts";

/** The API's version: the client package's follows it (a breaking change bumps the major). */
export const API_VERSION = "1.3.0";

/** Every route the app serves; a test fails for a served route missing here. */
export const ALL_ROUTES = [
  ...OPERATION_ROUTES,
  ...LEDGER_ROUTES,
  ...REPLAY_ROUTES,
  ...BREAKER_ROUTES,
  ...ENDPOINT_ROUTES,
  ...EVENT_ROUTES,
  ...DELIVERY_ROUTES,
  ...EVENT_TYPE_ROUTES,
  ...PORTAL_ROUTES,
];

function generate(): Record<string, unknown> {
  const registry = new OpenAPIHono();
  registry.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An admin token from `admin.tokens`.",
  });
  registry.openAPIRegistry.registerComponent("securitySchemes", "basic", {
    type: "http",
    scheme: "basic",
    description: "Any user name, an admin token as the password: /admin/queues only, never the /v1 API.",
  });
  for (const route of ALL_ROUTES) registry.openAPIRegistry.registerPath(route);
  return registry.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Switchyard HTTP API",
      version: API_VERSION,
      description:
        'Webhook gateway: inbound webhooks, health, metrics, and the admin API (DLQ, replay, breakers, claims, quarantine, outbound endpoints and events, delivery history, endpoint health, the event catalog, portal links). The admin API takes bearer tokens only; every write (POST, PUT, PATCH, DELETE) must be Content-Type: application/json and is refused from another origin\'s pages unless admin.allowed_origins lists it. Every refusal is {"error":{"code","message"}}.',
    },
    tags: [{ name: "inbound" }, { name: "operations" }, { name: "admin" }],
  }) as unknown as Record<string, unknown>;
}

let cached: Record<string, unknown> | undefined;

/** The document (generated once per process). */
export function openApiDocument(): Record<string, unknown> {
  cached ??= generate();
  return cached;
}
