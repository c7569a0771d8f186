// Event ids are scoped by tenant: two tenants may publish the same id without seeing each other's
// event (a tenant could otherwise take, or probe for, ids another will use), while the same tenant
// re-publishing an id stays idempotent, and each tenant reads back its own event and rows.
import { expect, it } from "vitest";
import { admin } from "./admin-fixtures.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

const ACME = "acme-token-0123456789abc";
const GLOBEX = "globex-token-0123456789ab";

it("tenant B may publish an event id tenant A already used (no 409 across tenants)", async () => {
  const gw = await gateway(
    outboundConfig(
      {},
      {
        admin: {
          tokens: [
            "test-admin-token-0123456789",
            { token: ACME, tenant: "acme" },
            { token: GLOBEX, tenant: "globex" },
          ],
        },
      },
    ),
  );
  const rx = await receiver();
  const a = await createEndpoint(gw, { url: rx.url, event_types: ["order.*"], tenant: "acme" });
  const refusing = await receiver({ fallback: 400 });
  const b = await createEndpoint(gw, { url: refusing.url, event_types: ["order.*"], tenant: "globex" });

  const first = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1", type: "order.paid", payload: { who: "acme" } },
    token: ACME,
  });
  expect(first.status).toBe(202);
  const second = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1", type: "order.refunded", payload: { who: "globex" } },
    token: GLOBEX,
  });
  expect(second.status, JSON.stringify(second.json)).toBe(202);
  expect(second.json.results).toEqual([{ endpoint_id: b.id, status: "created" }]);

  // The same tenant re-publishing is idempotent, and another type under its own id still conflicts.
  const again = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1", type: "order.paid", payload: { who: "acme" } },
    token: ACME,
  });
  expect(again.json.results).toEqual([{ endpoint_id: a.id, status: "duplicate" }]);
  const clash = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1", type: "order.other", payload: 1 },
    token: ACME,
  });
  expect(clash.status).toBe(409);

  // Each tenant reads its own event and rows; the unbound token names the tenant.
  const seenA = await admin(gw, "GET", "/v1/events/order-1", { token: ACME });
  expect(seenA.json).toMatchObject({ id: "order-1", type: "order.paid", tenant: "acme" });
  const seenB = await admin(gw, "GET", "/v1/events/order-1", { token: GLOBEX });
  expect(seenB.json).toMatchObject({ id: "order-1", type: "order.refunded", tenant: "globex" });
  const rowsB = await admin(gw, "GET", "/v1/events/order-1/deliveries", { token: GLOBEX });
  expect(rowsB.json.data.map((r: { endpoint_id: string }) => r.endpoint_id)).toEqual([b.id]);
  const byAdmin = await admin(gw, "GET", "/v1/events/order-1?tenant=globex");
  expect(byAdmin.json).toMatchObject({ tenant: "globex", type: "order.refunded" });
  expect((await admin(gw, "GET", "/v1/events/order-1")).status).toBe(404); // no tenantless order-1

  // A dead row of a tenant's event names the event by the id its tenant gave.
  const dead = await eventually(
    async () => (await admin(gw, "GET", "/v1/dlq", { token: GLOBEX })).json.data[0],
    10_000,
    "globex's row to die (its endpoint answers 400)",
  );
  expect(dead).toMatchObject({ event_id: "order-1", endpoint: b.id, tenant: "globex" });
});
