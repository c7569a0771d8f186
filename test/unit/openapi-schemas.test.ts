// /openapi.json must describe what the admin API actually answers: every field the views produce is
// declared in its schema.
import { type DeliveryRouteDeps, attemptView, deliveryRoutes } from "../../src/api/routes/deliveries.ts";
import { type EventTypeRouteDeps, eventTypeRoutes, eventTypeView } from "../../src/api/routes/event-types.ts";
import type { MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { createEndpointBody, patchEndpointBody } from "../../src/api/endpoint-body.ts";
import { openApiDocument } from "../../src/api/openapi-document.ts";
import { openApiSchemas } from "../../src/api/openapi-schemas.ts";
import { endpointRoutes, endpointView } from "../../src/api/routes/endpoints.ts";
import {
  type BreakerRouteDeps,
  breakerRoutes,
  endpointBreakerView,
  sinkBreakerView,
} from "../../src/api/routes/breakers.ts";
import {
  type EndpointTestEventDeps,
  endpointTestEventRoutes,
} from "../../src/api/routes/endpoint-test-event.ts";
import { type PortalSessionRouteDeps, portalLinkRoutes } from "../../src/api/routes/portal-sessions.ts";
import { type ReplayRouteDeps, replayRoutes, replayView } from "../../src/api/routes/replays.ts";
import { deliveryView, dlqEntryView } from "../../src/api/views.ts";
import type { DeliveryRow } from "../../src/domain/delivery.ts";
import type { Endpoint } from "../../src/domain/endpoint.ts";
import type { EndpointStore } from "../../src/store/endpoint-store.ts";
import type { ReplayRecord } from "../../src/store/replay-store.ts";

const declared = (schema: { properties: object }) => Object.keys(schema.properties).sort();

describe("OpenAPI schemas", () => {
  it("declare every field of a delivery view", () => {
    const row: DeliveryRow = {
      id: "dl_00000000000000000000000000",
      parentId: "hk_00000000000000000000000000",
      target: { kind: "sink", name: "out" },
      state: "dead",
      attempts: 3,
      createdAt: 0,
      firstAttemptAt: 1,
      lastAttemptAt: 2,
      nextAttemptAt: 3,
      deliveredAt: 4,
      deadAt: 5,
      lastError: "x",
      errorClass: "transient",
      statusCode: 503,
      leaseOwner: undefined,
      leaseUntil: undefined,
      fence: 3,
      replayId: "rp_x",
      source: "s",
      tenant: undefined,
      enqueueFailed: false,
      purged: false,
    };
    const view = deliveryView(row);
    expect(declared(openApiSchemas.SinkState)).toEqual(expect.arrayContaining(Object.keys(view)));
  });

  it("declare every field of a DLQ entry view", () => {
    const view = dlqEntryView({
      id: "dl_x",
      direction: "inbound",
      target: "out",
      hook_id: "hk_x",
      event_id: undefined,
      source: "s",
      event_type: undefined,
      tenant: "t",
      sink: "out",
      endpoint: undefined,
      error_class: "permanent",
      reason: "r",
      status_code: 410,
      attempts: 1,
      first_attempt_at: 1,
      last_attempt_at: 2,
      dead_at: 3,
      replay_id: "rp_x",
    });
    expect(declared(openApiSchemas.DlqEntry)).toEqual(expect.arrayContaining(Object.keys(view)));
  });

  it("declare every field of a replay view", () => {
    const record = {
      id: "rp_x",
      state: "running",
      tenant: undefined,
      filter: {},
      rate_per_s: 10,
      created_at: 1,
      updated_at: 2,
      finished_at: undefined,
      matched: 0,
      moved: 0,
      failed: 0,
      total_estimate: 0,
      index: undefined,
      targets: undefined,
      cursor: null,
      inflight: undefined,
    } as unknown as ReplayRecord;
    expect(declared(openApiSchemas.Replay)).toEqual(expect.arrayContaining(Object.keys(replayView(record))));
  });

  it("declare every field of an endpoint view, and the secret of the answers that show it", () => {
    const endpoint: Endpoint = {
      id: "ep_00000000000000000000000000",
      url: "https://example.com/",
      event_types: ["*"],
      tenant: "t",
      headers: { a: "b" },
      rate_limit_per_s: 1,
      payload_format: "raw",
      disabled: true,
      disabled_reason: "r",
      disabled_at: 1,
      description: "d",
      version: 2,
      created_at: 1,
      updated_at: 2,
      failing_since: 3,
      secret: "whsec_x",
      previous_secrets: [],
    };
    const view = endpointView(endpoint);
    expect(declared(openApiSchemas.Endpoint)).toEqual(Object.keys(view).sort());
    expect(Object.keys(openApiSchemas.EndpointWithSecret.allOf[1].properties)).toEqual(["secret"]);
  });

  it("declare exactly the fields the endpoint request bodies accept", () => {
    expect(declared(openApiSchemas.EndpointInput)).toEqual(Object.keys(createEndpointBody.shape).sort());
    const patchable = Object.keys(patchEndpointBody.shape).filter((k) => k !== "tenant");
    expect(declared(openApiSchemas.EndpointPatch)).toEqual(patchable.sort());
  });

  it("declare every field of an attempt, an event type and the event type body", () => {
    const schemas = openApiDocument.components.schemas;
    const attempt = attemptView({
      at: 1,
      durationMs: 2,
      statusCode: 500,
      errorClass: "transient",
      reason: "r",
      responseExcerpt: "x",
      signatureHeaders: {},
    });
    expect(declared(schemas.Attempt)).toEqual(Object.keys(attempt).sort());
    const type = eventTypeView({
      name: "a.b",
      description: "d",
      schema: {},
      example: 1,
      origin: "api",
      createdAt: 1,
    });
    expect(declared(schemas.EventType)).toEqual(Object.keys(type).sort());
    expect(declared(schemas.EventTypeInput)).toEqual(["description", "example", "name", "schema"]);
  });

  it("declare every field of a sink's and an endpoint's breaker view", () => {
    const sink = sinkBreakerView("out", { state: "open", openUntil: 2, probeUntil: null });
    const schemas = openApiDocument.components.schemas;
    expect(declared(schemas.SinkBreaker)).toEqual(Object.keys(sink).sort());
    const endpoint = endpointBreakerView(
      { id: "ep_x", url: "https://e.example/", tenant: "t" },
      {
        state: "half_open",
        openUntil: 1,
        probeUntil: 2,
      },
    );
    expect(declared(schemas.EndpointBreaker)).toEqual(Object.keys(endpoint).sort());
  });

  const noAuth: MiddlewareHandler = async (_c, next) => next();
  it.each([
    [
      "endpoints",
      endpointRoutes({
        endpoints: {} as EndpointStore,
        catalog: { names: async () => [] },
        auth: noAuth,
        allowPrivate: false,
      }),
      6,
    ],
    ["deliveries", deliveryRoutes({ auth: noAuth } as unknown as DeliveryRouteDeps), 3],
    ["event types", eventTypeRoutes({ auth: noAuth } as unknown as EventTypeRouteDeps), 2],
    ["replays", replayRoutes({ auth: noAuth } as unknown as ReplayRouteDeps), 4],
    ["breakers", breakerRoutes({ auth: noAuth } as unknown as BreakerRouteDeps), 1],
    ["portal link", portalLinkRoutes({ auth: noAuth } as unknown as PortalSessionRouteDeps), 1],
    ["test event", endpointTestEventRoutes({ auth: noAuth } as unknown as EndpointTestEventDeps), 1],
  ])("list every %s route", (_name, app, count) => {
    const paths = openApiDocument.paths as Record<string, Record<string, unknown>>;
    // Each route is listed once per handler (auth, then the route's own).
    const routes = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
    expect(routes.size).toBe(count);
    for (const route of routes) {
      const [method = "", path = ""] = route.split(" ");
      const documented = paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
      expect(documented, route).toBeDefined();
    }
  });
});
