// Regression: outcome writes of one tick went out as one script call per bucket on a single Redis too
// (a cluster needs one slot a call; one Redis does not), so a busy worker paid up to 16 round trips a
// tick where one does, and the HTTP drain lost about 15% against the previous ledger. Claims are
// batched the same way: workers picking up jobs in one tick share one call, each with its own answer.
import { afterEach, expect, it, vi } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { bucketOf, deliveryIdFor, newId } from "../../src/domain/ids.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { HOOK_ATTEMPT_FIELDS } from "../../src/store/hook-store.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
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

it("claims of one tick across buckets are one script call, each answered on its own", async () => {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(async () => {
    await cleanup();
    redis.disconnect();
  });
  const { ledger, hooks } = ledgerStores(redis, keys);
  const made = [0, 1, 2].map((n) => hookFixture({ source: "src", sinks: ["out"], n }));
  for (const hook of made)
    expect(await hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 })).toEqual({ kind: "new" });
  const ids = made.map((h) => sinkDeliveryId(h.id, "out"));
  // A hook never written, with an id in its own bucket: its row is missing, and so is its record.
  const goneHook = newId("hk", Date.now(), 3);
  const gone = sinkDeliveryId(goneHook, "out");
  const callBuffer = vi.spyOn(redis, "callBuffer");

  const claim = (id: typeof gone, parent: string, owner: string) =>
    ledger.claim(id, parent, owner, 10_000, HOOK_ATTEMPT_FIELDS);
  const [a, b, c, again, missing] = await Promise.all([
    ...made.map((h, i) => claim(ids[i]!, keys.hook(h.id), `w${i}`)),
    claim(ids[0]!, keys.hook(made[0]!.id), "late"),
    claim(gone, keys.hook(goneHook), "w9"),
  ]);

  expect(callBuffer).toHaveBeenCalledTimes(1);
  for (const [i, result] of [a, b, c].entries()) {
    expect(result).toMatchObject({ kind: "ok", fence: 1, attempt: 1 });
    // Each claim reads its own parent: the body is the hook's own.
    expect(result?.kind === "ok" && result.parent[2]?.equals(made[i]!.body)).toBe(true);
  }
  // The same row twice in one call: the second sees the first's lease, as one after the other would.
  expect(again?.kind).toBe("leased");
  expect(missing).toEqual({ kind: "missing", parentExists: false });
});
