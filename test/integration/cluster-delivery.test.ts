// Switchyard on a real Redis Cluster (3 masters, 3 replicas, started by the test): 600 hooks to two
// partitioned sinks all delivered with the keys spread over every master; the DLQ and a replay across
// the buckets; recovery of rows whose jobs were never added; outbound fanout to endpoints.
import { Queue } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { admin, dlqSize } from "./admin-fixtures.ts";
import { sendHook, sinkState, waitForState } from "../support/hooks.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { onLedgerEngine, queuedIds } from "../support/queued.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let cluster: TestCluster;
let gw: TestGateway;
const rx: Record<"a" | "b" | "c" | "ep", Receiver> = {} as never;

beforeAll(async () => {
  cluster = await startTestCluster();
  for (const name of ["a", "b", "c", "ep"] as const) rx[name] = await startReceiver({ fallback: 200 });
  rx.c.setFallback(400);
  gw = await startTestGateway(
    testConfig({
      redis: { cluster: { nodes: cluster.seeds } },
      recovery: { interval_ms: 200, stale_after_ms: 1000 },
      outbound: { allow_private: true, timeout_ms: 2000 },
      sinks: {
        a: { type: "http", url: `${rx.a.url}/a`, partitions: 4 },
        b: { type: "http", url: `${rx.b.url}/b`, partitions: 4 },
        c: { type: "http", url: `${rx.c.url}/c` },
      },
      sources: {
        src: { verify: { type: "none" }, sinks: ["a", "b"] },
        flaky: { verify: { type: "none" }, sinks: ["c"] },
      },
    }),
    { recovery: { intervalMs: 200 } },
  );
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  for (const r of Object.values(rx)) await r.close();
  await cluster?.stop();
});

/**
 * How many of `hooks`' deliveries to `sink` ran through each of the sink's queues. BullMQ: the
 * completed events in each queue's event stream (completed jobs are removed at once; ~38 jobs' events
 * stay under its cap). Ledger engine, which keeps nothing of a popped entry: each delivered row counted
 * at the bucket queue the persist wrote its entry to (cluster-one-call.test.ts watches that it does),
 * with every one of those queues empty now (each entry popped, none left behind).
 */
async function deliveredPerQueue(sink: string, hooks: readonly string[]): Promise<number[]> {
  const plan = QueuePlan.of(gw.config);
  if (!onLedgerEngine(gw))
    return Promise.all(
      plan.sinkQueues(sink).map(async (name) => {
        const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
        const events = await gw.redis.xrange(queue.keys.events ?? "", "-", "+");
        await queue.close();
        return events.filter(([, fields]) => fields[0] === "event" && fields[1] === "completed").length;
      }),
    );
  const perQueue = new Map(plan.sinkQueues(sink).map((name) => [name, 0]));
  for (const hook of hooks) {
    const row = sinkDeliveryId(hook as HookId, sink);
    const name = plan.queueOf({ kind: "sink", name: sink }, row);
    if ((await sinkState(gw, hook, sink))?.state === "delivered") perQueue.set(name, perQueue.get(name)! + 1);
  }
  for (const name of perQueue.keys()) expect(await queuedIds(gw, name)).toEqual([]);
  return [...perQueue.values()];
}

/** Distinct hook ids a receiver has been sent. */
const hookIdsAt = (r: Receiver): Set<string> =>
  new Set(r.requests.map((q) => String(q.headers["x-switchyard-id"])));

it("delivers 600 hooks to two sinks, with every master holding at least 15% of the keys", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 600; i += 30) {
    const batch = Array.from({ length: 30 }, (_, j) => sendHook(gw, "src", JSON.stringify({ n: i + j })));
    ids.push(...(await Promise.all(batch)));
  }
  await eventually(
    () => hookIdsAt(rx.a).size === 600 && hookIdsAt(rx.b).size === 600,
    60_000,
    "600 hooks at both sinks",
  );
  expect([...hookIdsAt(rx.a)].sort()).toEqual([...ids].sort());
  for (const sink of ["a", "b"]) for (const id of ids) await waitForState(gw, id, sink, "delivered");
  // Each sink's deliveries went through all 16 of its bucket queues (the cluster's default layout, and
  // the ledger engine's only one: a queued delivery beside its row).
  expect(QueuePlan.of(gw.config).byBucket).toBe(true);
  for (const sink of ["a", "b"]) {
    const done = await deliveredPerQueue(sink, ids);
    expect(done.reduce((a, b) => a + b, 0)).toBe(600);
    expect(done).toHaveLength(16);
    for (const n of done) expect(n).toBeGreaterThan(12);
  }

  const sizes = await cluster.dbsizes();
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  const shares = [...sizes].map(([port, n]) => `${port}: ${n} (${((100 * n) / total).toFixed(1)}%)`);
  console.log(`DBSIZE per master after 600 hooks to two sinks: ${shares.join(", ")}; total ${total}`);
  expect(sizes.size).toBe(3);
  for (const n of sizes.values()) expect(n / total).toBeGreaterThanOrEqual(0.15);

  // No key plan's hash tag is a hot spot: none holds more than a small share of the keys.
  const byTag = [...(await cluster.keysByTag())].sort((x, y) => y[1] - x[1]);
  console.log(
    `busiest hash tags: ${byTag
      .slice(0, 5)
      .map(([tag, n]) => `{${tag}} ${n}`)
      .join(", ")} of ${byTag.length} tags`,
  );
  expect((byTag[0]?.[1] ?? 0) / total).toBeLessThan(0.1);
}, 90_000);

it("dead-letters over many buckets, lists the DLQ across them, and replays it", async () => {
  const dead = await Promise.all(
    Array.from({ length: 40 }, (_, i) => sendHook(gw, "flaky", JSON.stringify({ dead: i }))),
  );
  await eventually(async () => (await dlqSize(gw)) >= 40, 30_000, "40 dead deliveries");
  const page = await admin(gw, "GET", "/v1/dlq?sink=c&limit=100");
  expect(page.status).toBe(200);
  expect(new Set(page.json.data.map((e: { hook_id: string }) => e.hook_id))).toEqual(new Set(dead));
  const buckets = new Set(dead.map((id) => id.slice(-1)));
  expect(buckets.size).toBeGreaterThan(8);

  rx.c.setFallback(200);
  const replay = await admin(gw, "POST", "/v1/replays", {
    body: { filter: { sink: "c" }, rate_per_s: 1000 },
  });
  expect(replay.status).toBe(202);
  for (const id of dead) await waitForState(gw, id, "c", "delivered", 30_000);
  expect(await dlqSize(gw)).toBe(0);
}, 60_000);

it("recovers rows whose jobs were never added (a crash between persist and enqueue)", async () => {
  const { hooks } = ledgerStores(gw.redis, gw.gateway.keys);
  const old = Date.now() - 5_000;
  const orphans = Array.from({ length: 30 }, (_, n) =>
    hookFixture({ source: "src", sinks: ["a", "b"], receivedAt: old + n, n: 10_000 + n }),
  );
  for (const hook of orphans) await hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 500 });
  for (const hook of orphans)
    for (const sink of ["a", "b"]) await waitForState(gw, hook.id, sink, "delivered", 30_000);
  const seen = hookIdsAt(rx.b);
  for (const hook of orphans) expect(seen.has(hook.id)).toBe(true);
}, 60_000);

it("fans an event out to endpoints on the cluster", async () => {
  const endpoints: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await admin(gw, "POST", "/v1/endpoints", {
      body: { url: `${rx.ep.url}/ep${i}`, event_types: ["order.*"] },
    });
    expect(res.status).toBe(201);
    endpoints.push(res.json.id);
  }
  for (let e = 0; e < 10; e++) {
    const res = await admin(gw, "POST", "/v1/events", {
      body: { id: `order-${e}`, type: "order.paid", payload: { order: e } },
    });
    expect(res.status).toBe(202);
    expect(res.json.results.map((r: { status: string }) => r.status)).toEqual([
      "created",
      "created",
      "created",
    ]);
  }
  await eventually(() => rx.ep.requests.length >= 30, 30_000, "30 outbound deliveries");
  const pairs = new Set(rx.ep.requests.map((r) => `${r.path} ${String(r.headers["webhook-id"])}`));
  expect(pairs.size).toBe(30);
  await eventually(
    async () => {
      const rows = await admin(gw, "GET", "/v1/events/order-3/deliveries");
      return (
        rows.json.data.length === 3 && rows.json.data.every((d: { state: string }) => d.state === "delivered")
      );
    },
    10_000,
    "every row of order-3 delivered",
  );
}, 60_000);
