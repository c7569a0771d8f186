// The event catalog on real Redis: types declared in config and by API are listed together, only a token
// bound to no tenant declares one (and never over a config name), a bad declaration is a 400, and a new
// endpoint's subscriptions to types nobody declared come back as warnings (a wildcard warns only when it
// matches no declared type).
import { expect, it } from "vitest";
import { admin } from "./admin-fixtures.ts";
import { gateway, outboundConfig, receiver, useOutboundTeardown } from "../support/outbound.ts";
import { testConfig } from "../support/test-gateway.ts";
import { OPERATIONAL_TYPES, type OperationalType } from "../../src/domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../../src/domain/operational-schemas.ts";

useOutboundTeardown();

interface CatalogJson {
  readonly name: string;
  readonly origin: string;
}

/** The entries declared in config or by API (the built-in operational types left out). */
const declaredOnly = (data: unknown): unknown[] =>
  (data as CatalogJson[]).filter((t) => t.origin !== "builtin");

const ACME = "acme-token-0123456789abcdef";

it("lists config and API event types, lets only an unbound token declare, and warns on undeclared subscriptions", async () => {
  const rx = await receiver();
  const gw = await gateway(
    outboundConfig(
      {
        event_types: [
          {
            name: "order.paid",
            description: "An order was paid.",
            schema: { type: "object", required: ["id"] },
            example: { id: "o-1", amount: 42 },
          },
        ],
      },
      { admin: { tokens: ["test-admin-token-0123456789", { token: ACME, tenant: "acme" }] } },
    ),
  );

  // Before any API declaration: no warnings for a wildcard that matches, one for an unknown exact type.
  const first = await admin(gw, "POST", "/v1/endpoints", {
    body: { url: rx.url, event_types: ["order.*", "invoice.created", "*"] },
  });
  expect(first.status).toBe(201);
  expect(first.json.warnings).toEqual([
    {
      code: "undeclared_event_type",
      event_type: "invoice.created",
      message: '"invoice.created" is not an event type in the catalog',
    },
  ]);

  const declared = await admin(gw, "POST", "/v1/event-types", {
    body: { name: "invoice.created", description: "An invoice was created.", example: { id: "i-1" } },
  });
  expect(declared.status).toBe(201);
  expect(declared.json).toMatchObject({ name: "invoice.created", origin: "api" });
  const again = await admin(gw, "POST", "/v1/event-types", {
    body: { name: "invoice.created", description: "Now documented better." },
  });
  expect(again.status).toBe(200);

  const list = await admin(gw, "GET", "/v1/event-types", { token: ACME });
  expect(list.status).toBe(200);
  expect(declaredOnly(list.json.data)).toEqual([
    expect.objectContaining({
      name: "invoice.created",
      description: "Now documented better.",
      origin: "api",
    }),
    {
      name: "order.paid",
      description: "An order was paid.",
      schema: { type: "object", required: ["id"] },
      example: { id: "o-1", amount: 42 },
      origin: "config",
    },
  ]);

  // A tenant's token reads but does not declare; a config name is config's; bad bodies are 400s.
  const asTenant = await admin(gw, "POST", "/v1/event-types", { body: { name: "x.y" }, token: ACME });
  expect(asTenant.status).toBe(403);
  expect((await admin(gw, "POST", "/v1/event-types", { body: { name: "order.paid" } })).status).toBe(409);
  for (const body of [
    { name: "order.*" },
    { name: "a b" },
    { name: "a.b", schema: [] },
    { name: "a.b", x: 1 },
    { name: "switchyard.endpoint.created" },
    { name: "switchyard.custom" },
  ])
    expect((await admin(gw, "POST", "/v1/event-types", { body })).status, JSON.stringify(body)).toBe(400);

  // A wildcard matching nothing declared warns; a tenant's endpoint gets the same warnings.
  const second = await admin(gw, "POST", "/v1/endpoints", {
    body: { url: rx.url, event_types: ["refund.*", "invoice.created"] },
    token: ACME,
  });
  expect(second.status).toBe(201);
  expect(second.json.warnings).toEqual([
    expect.objectContaining({
      event_type: "refund.*",
      message: 'no event type in the catalog matches "refund.*"',
    }),
  ]);
}, 30_000);

it("with no event type declared, nothing warns", async () => {
  const rx = await receiver();
  const gw = await gateway(outboundConfig());
  const res = await admin(gw, "POST", "/v1/endpoints", { body: { url: rx.url, event_types: ["a.b"] } });
  expect(res.status).toBe(201);
  expect(res.json.warnings).toEqual([]);
  expect(declaredOnly((await admin(gw, "GET", "/v1/event-types")).json.data)).toEqual([]);
});

it("lists every operational type first as a built-in entry, with its schema and example", async () => {
  const gw = await gateway(outboundConfig());
  const data = (await admin(gw, "GET", "/v1/event-types")).json.data as CatalogJson[];
  const builtin = data.filter((t) => t.origin === "builtin");
  expect(builtin.map((t) => t.name)).toEqual([...OPERATIONAL_TYPES].sort());
  expect(data.slice(0, builtin.length)).toEqual(builtin);
  for (const t of builtin) {
    const doc = OPERATIONAL_SCHEMAS[t.name as OperationalType];
    expect(t).toEqual({
      name: t.name,
      description: doc.description,
      schema: doc.schema,
      example: doc.example,
      origin: "builtin",
    });
  }
});

it("refuses a config catalog with a repeated name, a wildcard name or an unknown key", () => {
  const withTypes = (event_types: unknown[]) => () =>
    testConfig({ outbound: { event_types }, sinks: { log: { type: "log" } }, sources: {} });
  expect(withTypes([{ name: "a.b" }, { name: "a.b" }])).toThrow(/declared twice/);
  expect(withTypes([{ name: "a.*" }])).toThrow(/event type/);
  expect(withTypes([{ name: "switchyard.breaker.opened" }])).toThrow(/reserved/);
  expect(withTypes([{ name: "a.b", descripton: "typo" }])).toThrow();
  expect(withTypes([{ name: "a.b", description: "ok" }])).not.toThrow();
});
