// The two writers that held no lease token of their own, and must still never write over an attempt
// another worker holds: recovery's dead letter of a row whose sink is gone from the config (it ended
// the row through the unfenced writer, after its own stale claim, so a worker that claimed the row in
// between had `dead` written over its live lease), and the unfenced finish itself (it accepted a
// `sending` row without looking at its lease).
import { afterEach, expect, it } from "vitest";
import { Metrics } from "../../src/observability/metrics.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Reconcile } from "../../src/recovery/reconcile.ts";
import { DeliveryStore } from "../../src/store/delivery-store.ts";
import { dlqCount, DeliveryQueues, hookFixture, ledgerStores, sinkRow } from "../support/ledger.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A persisted hook with one row to sink `gone`, which `config` does not configure. */
async function rowToARemovedSink(staleAfterMs: number) {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);
  const stores = ledgerStores(redis, keys, { staleAfterMs });
  const hook = hookFixture({ source: "src", sinks: ["gone"] });
  await stores.hooks.persist(hook, { dedupTtlS: 60, staleAfterMs });
  const row = sinkRow(hook, "gone");
  return { config, redis, keys, stores, hook, row };
}

it("reconcile-unfenced-dead-letter: recovery's dead letter never lands on a row a worker claimed after recovery did", async () => {
  const { config, redis, keys, stores, hook, row } = await rowToARemovedSink(0);
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({}, false));
  cleanups.push(() => queues.close());
  let workerFence: number | undefined;
  // A worker of an older process (one that still has the sink) claims the row right after recovery's
  // stale claim, before recovery writes its dead letter.
  class RacedLedger extends DeliveryStore {
    override async claimStale(...args: Parameters<DeliveryStore["claimStale"]>) {
      const claim = await super.claimStale(...args);
      const worker = await stores.ledger.claim(row.id, keys.hook(hook.id), "old-worker", 60_000, []);
      if (worker.kind === "ok") workerFence = worker.fence;
      return claim;
    }
  }
  const ledger = new RacedLedger(redis, keys, { retentionS: 600, staleAfterMs: 0 });
  const reconcile = new Reconcile({
    config,
    ledger,
    dlq: stores.dlq,
    queues,
    metrics: new Metrics(),
    logger: silentLogger(),
  });
  const report = await reconcile.run();
  expect(report.unknownSinks).toBe(1);
  expect(workerFence).toBe(1);

  // The worker's attempt is untouched, and its own outcome lands.
  expect(await stores.ledger.get(row.id)).toMatchObject({
    state: "sending",
    leaseOwner: "old-worker",
    fence: 1,
  });
  expect(await dlqCount(redis, keys)).toBe(0);
  expect(await stores.ledger.finish(row, { fence: 1 }, { outcome: "delivered", statusCode: 200 })).toBe(true);
  expect(await stores.ledger.get(row.id)).toMatchObject({ state: "delivered" });
});

it("reconcile-unfenced-dead-letter: with no worker in between, the row to a removed sink still ends dead", async () => {
  const { config, redis, keys, stores, row } = await rowToARemovedSink(0);
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({}, false));
  cleanups.push(() => queues.close());
  const reconcile = new Reconcile({
    config,
    ledger: stores.ledger,
    dlq: stores.dlq,
    queues,
    metrics: new Metrics(),
    logger: silentLogger(),
  });
  expect((await reconcile.run()).unknownSinks).toBe(1);
  expect(await stores.ledger.get(row.id)).toMatchObject({
    state: "dead",
    errorClass: "permanent",
    lastError: 'sink "gone" is no longer configured',
  });
  expect(await dlqCount(redis, keys)).toBe(1);
});

it("unfenced-finish-over-live-lease: the unfenced writer refuses a sending row whose lease is live", async () => {
  const { keys, stores, hook, row } = await rowToARemovedSink(60_000);
  const now = Date.now();
  const worker = await stores.ledger.claim(row.id, keys.hook(hook.id), "worker", 60_000, [], now);
  expect(worker).toMatchObject({ kind: "ok", fence: 1 });

  const dead = { outcome: "dead", reason: "unroutable", errorClass: "permanent" } as const;
  expect(await stores.ledger.finish(row, "unfenced", dead, now + 1000)).toBe(false);
  expect(await stores.ledger.get(row.id)).toMatchObject({ state: "sending", leaseOwner: "worker", fence: 1 });

  // Once the lease has lapsed (the worker is gone), the unfenced writer may end the row.
  expect(await stores.ledger.finish(row, "unfenced", dead, now + 61_000)).toBe(true);
  expect(await stores.ledger.get(row.id)).toMatchObject({ state: "dead" });
});
