// An event that no endpoint takes (none subscribed, or only endpoints that cannot be delivered to) has
// no live row to end, so nothing would ever set its expiry: it must expire after retention_s anyway.
import { expect, it } from "vitest";
import { admin } from "./admin-fixtures.ts";
import { gateway, useOutboundTeardown } from "../support/outbound.ts";
import { testConfig } from "../support/test-gateway.ts";

useOutboundTeardown();

it("an event matching no endpoint (or only endpoints that error) expires after retention_s", async () => {
  const gw = await gateway(
    testConfig({
      retention_s: 120,
      outbound: { allow_private: true },
      dispatch: { retry: { max_elapsed_ms: 60_000 } },
      sinks: {},
      sources: {},
    }),
  );
  const nobody = await admin(gw, "POST", "/v1/events", {
    body: { id: "nobody-1", type: "order.paid", payload: { x: 1 } },
  });
  expect(nobody.status).toBe(202);
  expect(nobody.json.results).toEqual([]);
  const key = gw.gateway.keys.event("nobody-1");
  expect(await gw.redis.exists(key)).toBe(1);
  const ttl = await gw.redis.ttl(key);
  expect(ttl, "the unmatched event's TTL (-1: kept for good)").toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(120);
});
