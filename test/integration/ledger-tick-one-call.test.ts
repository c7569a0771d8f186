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
import { monitorRedis } from "../support/redis-monitor.ts";
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

// Regression (a delivered outcome cost three HSETs and an HGET of its row): the history, the status
// and the state go out in one HSET, and the history is read with the fence check's HMGET. Each command
// a script makes costs Redis about as much as its work on a small hash, and every delivery pays these.
it("a delivered outcome writes its row with one HMGET, one HDEL and one HSET", async () => {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  const monitor = await monitorRedis(config.redis.url);
  cleanups.push(async () => {
    monitor.disconnect();
    await cleanup();
  });
  const { ledger, hooks } = ledgerStores(redis, keys);
  const hook = hookFixture({ source: "src", sinks: ["out"], n: 0 });
  await hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 });
  const id = sinkDeliveryId(hook.id, "out");
  const claim = await ledger.claim(id, keys.hook(hook.id), "w1", 10_000, HOOK_ATTEMPT_FIELDS);
  if (claim.kind !== "ok") throw new Error(`claim: ${claim.kind}`);

  // MONITOR tells commands late: count only those between two markers sent around the finish.
  const onRow: string[] = [];
  const rowKey = keys.delivery(id);
  let counting = false;
  const ended = new Promise<void>((resolve) =>
    monitor.on("monitor", (_time: string, args: string[]) => {
      if (args[0]?.toLowerCase() === "echo") {
        counting = args[1] === "finish-starts";
        if (args[1] === "finish-ended") resolve();
      } else if (counting && args[1] === rowKey) onRow.push(String(args[0]).toLowerCase());
    }),
  );
  await redis.echo("finish-starts");
  const at = Date.now();
  const written = await ledger.finish(
    { id, parentId: hook.id, target: { kind: "sink", name: "out" }, source: "src", tenant: undefined },
    { fence: claim.fence },
    { outcome: "delivered", statusCode: 200, attempt: { at, durationMs: 3, statusCode: 200 } },
  );
  expect(written).toBe(true);
  await redis.echo("finish-ended");
  await ended;
  expect(onRow.sort()).toEqual(["expire", "hdel", "hmget", "hset"]);
  // What the one HSET wrote is all there: state, status and the attempt's history line.
  const [st, sc, ah] = await redis.hmget(rowKey, "st", "sc", "ah");
  expect([st, sc]).toEqual(["delivered", "200"]);
  expect(JSON.parse(ah ?? "{}")).toMatchObject({ at, ms: 3, sc: 200 });
});
