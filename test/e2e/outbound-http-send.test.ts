// The outbound endpoints post through the http sink's send (http-send.ts), so they behave as the sink
// does where the two copies had drifted: a destination that never answers ends the attempt with the
// sink's "timeout: no answer within N ms" (not undici's bare error code), and an endpoint URL's userinfo
// is sent as Basic auth (it was silently dropped with the origin).
import { expect, it } from "vitest";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
  waitForDelivery,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

const once = { retry: { base_ms: 50, max_ms: 100, max_attempts: 1 } };

it("an endpoint that never answers fails with the same timeout reason as the http sink", async () => {
  const rx = await receiver({ fallback: "hang" });
  const gw = await gateway(outboundConfig({ ...once, timeout_ms: 300 }));
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["*"] });
  await publish(gw, { id: "hang-1", type: "order.paid", payload: {} });
  const row = await waitForDelivery(gw, "hang-1", ep.id, "dead");
  expect(row.error_class).toBe("transient");
  expect(row.last_error).toBe("timeout: no answer within 300 ms");
});

it("an endpoint URL's userinfo is sent as Basic auth, like the http sink's", async () => {
  const rx = await receiver({ fallback: 200 });
  const gw = await gateway(outboundConfig({ ...once, timeout_ms: 2000 }));
  const url = `http://hook%20user:s%3Acret@127.0.0.1:${rx.port}/hook`;
  const ep = await createEndpoint(gw, { url, event_types: ["*"] });
  await publish(gw, { id: "auth-1", type: "order.paid", payload: {} });
  await waitForDelivery(gw, "auth-1", ep.id, "delivered");
  const req = await eventually(async () => rx.requests[0], 5000, "the request");
  const expected = `Basic ${Buffer.from("hook user:s:cret").toString("base64")}`;
  expect(req.headers.authorization).toBe(expected);
});
