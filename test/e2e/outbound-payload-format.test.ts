// Outbound deliveries once carried only the bare payload and no header named the event type, so an
// endpoint subscribed to `order.*` could not tell `order.paid` from `order.refunded`. The body is the
// Standard Webhooks payload shape by default, `{"type","timestamp","data"}`, stable across retries
// (so the signed bytes are too) and accepted by a Standard Webhooks verifier; `payload_format: raw`
// keeps the bare payload for an endpoint that wants it.
import { Webhook } from "standardwebhooks";
import { expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import type { ReceivedRequest } from "../support/receiver.ts";
import {
  createEndpoint,
  endpointView,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
  waitForDelivery,
} from "../support/outbound.ts";

useOutboundTeardown();

const verified = (r: ReceivedRequest, secret: string): unknown =>
  new Webhook(secret).verify(r.body.toString("utf8"), {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  });

it("sends {type, timestamp, data} by default: an order.* endpoint tells order.paid from order.refunded", async () => {
  // The first attempt of each event fails, so every body is seen twice: it must not change.
  const rx = await receiver({ script: [500, 500], fallback: 200 });
  const gw = await gateway(
    outboundConfig({ retry: { base_ms: 20, max_ms: 50, max_attempts: 5, max_elapsed_ms: 60_000 } }),
  );
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["order.*"] });
  expect(await endpointView(gw, ep.id)).toMatchObject({ payload_format: "standard" });

  const before = Date.now();
  await publish(gw, { id: "o-1-paid", type: "order.paid", payload: { order: 1, total: "12.50" } });
  await publish(gw, { id: "o-1-refunded", type: "order.refunded", payload: { order: 1 } });
  await waitForDelivery(gw, "o-1-paid", ep.id, "delivered");
  await waitForDelivery(gw, "o-1-refunded", ep.id, "delivered");

  const byEvent = new Map<string, ReceivedRequest[]>();
  for (const r of rx.requests) {
    const id = String(r.headers["webhook-id"]);
    byEvent.set(id, [...(byEvent.get(id) ?? []), r]);
  }
  const paid = byEvent.get("o-1-paid") ?? [];
  const refunded = byEvent.get("o-1-refunded") ?? [];
  expect(paid.length).toBeGreaterThanOrEqual(2);
  expect(refunded.length).toBeGreaterThanOrEqual(2);
  for (const r of [...paid, ...refunded]) {
    expect(r.headers["content-type"]).toBe("application/json");
    expect(verified(r, ep.secret)).toEqual(JSON.parse(r.body.toString("utf8")));
  }
  const paidBody = JSON.parse(paid[0]!.body.toString("utf8"));
  expect(paidBody).toEqual({
    type: "order.paid",
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    data: { order: 1, total: "12.50" },
  });
  // The event's creation time, not the attempt's: the retry sends the same bytes.
  expect(Date.parse(paidBody.timestamp)).toBeGreaterThanOrEqual(before - 1000);
  expect(Date.parse(paidBody.timestamp)).toBeLessThanOrEqual(paid[0]!.receivedAt);
  expect(paid[1]!.body.equals(paid[0]!.body)).toBe(true);
  expect(JSON.parse(refunded[0]!.body.toString("utf8"))).toMatchObject({
    type: "order.refunded",
    data: { order: 1 },
  });
}, 60_000);

it("payload_format: raw sends the bare payload, still signed; create, patch and get show the field", async () => {
  const rx = await receiver({ fallback: 200 });
  const gw = await gateway(outboundConfig());
  const raw = await createEndpoint(gw, {
    url: `${rx.url}/raw`,
    event_types: ["order.*"],
    payload_format: "raw",
  });
  expect(await endpointView(gw, raw.id)).toMatchObject({ payload_format: "raw" });
  await publish(gw, { id: "raw-1", type: "order.paid", payload: { order: 2 } });
  await waitForDelivery(gw, "raw-1", raw.id, "delivered");
  expect(rx.requests).toHaveLength(1);
  expect(JSON.parse(rx.requests[0]!.body.toString("utf8"))).toEqual({ order: 2 });
  expect(verified(rx.requests[0]!, raw.secret)).toEqual({ order: 2 });

  // Patched back to the standard shape, the next event arrives wrapped.
  const patched = await admin(gw, "PATCH", `/v1/endpoints/${raw.id}`, {
    body: { payload_format: "standard" },
  });
  expect(patched.status).toBe(200);
  expect(patched.json.payload_format).toBe("standard");
  await publish(gw, { id: "raw-2", type: "order.paid", payload: { order: 3 } });
  await waitForDelivery(gw, "raw-2", raw.id, "delivered");
  expect(JSON.parse(rx.requests[1]!.body.toString("utf8"))).toMatchObject({
    type: "order.paid",
    data: { order: 3 },
  });

  const bad = await admin(gw, "POST", "/v1/endpoints", {
    body: { url: `${rx.url}/x`, event_types: ["*"], payload_format: "envelope" },
  });
  expect(bad.status).toBe(400);
  expect(bad.json.error.message).toMatch(/payload_format/);
}, 60_000);
