// Regression: outcome writes of one tick went out as one script call per bucket on a single Redis too
// (a cluster needs one slot a call; one Redis does not), so a busy worker paid up to 16 round trips a
// tick where one does, and the HTTP drain lost about 15% against the previous ledger.
import { afterEach, expect, it, vi } from "vitest";
import { bucketOf, deliveryIdFor } from "../../src/domain/ids.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

it("ledger outcome writes of one tick across buckets are one script call on a single Redis", async () => {
  const config = testConfig({ sinks: {}, sources: {} });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(async () => {
    await cleanup();
    redis.disconnect();
  });
  const ledger = new DeliveryStore(redis, keys, ledgerOptions(config));
  const ids = [1, 5, 9].map((b) => deliveryIdFor(`hk_parent${b}`, "sink:out", b));
  expect(new Set(ids.map(bucketOf)).size).toBe(3);
  const evalsha = vi.spyOn(redis, "evalsha");
  const written = await Promise.all(
    ids.map((id) =>
      ledger.finish(
        { id, parentId: "hk_parent", target: { kind: "sink", name: "out" }, source: "s", tenant: undefined },
        { fence: 1 },
        { outcome: "delivered" },
      ),
    ),
  );
  // No such rows: every write is refused, but the three went out together.
  expect(written).toEqual([false, false, false]);
  // Every script call tries EVALSHA first (a NOSCRIPT fallback then sends EVAL): one call, one EVALSHA.
  expect(evalsha).toHaveBeenCalledTimes(1);
});
