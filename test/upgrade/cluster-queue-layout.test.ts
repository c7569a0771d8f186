// Upgrading a Redis Cluster deployment to bucket-aligned queues (the default of `redis.cluster.queues`)
// with jobs still stored in the queues of the partition layout: waiting jobs, and retries delayed in
// them. The new workers drain those queues beside their own until they are empty, so every delivery
// ends as it would have, with no recovery pass to rescue it (none runs here, and rows are not stale).
// A BullMQ-engine upgrade: the ledger engine's queues on a cluster are by bucket whatever `queues` says,
// and it runs no legacy drain of the other layout (cluster-one-call.test.ts covers its layout).
import { Queue } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { sendHook } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let cluster: TestCluster;
let rx: Receiver;
const started: TestGateway[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  // The first attempts of the first 4 hooks fail: their retries wait, delayed, in the old queues.
  rx = await startReceiver({ script: [503, 503, 503, 503], fallback: 200 });
}, 60_000);

afterAll(async () => {
  // The last gateway's stop removes the prefix; the old ones were stopped without it.
  for (const gw of started.reverse()) await gw.stop().catch(() => undefined);
  await rx?.close();
  await cluster?.stop();
});

function configWith(prefix: string | undefined, queues: "bucket" | "partition"): Config {
  const config = testConfig({
    redis: { cluster: { nodes: cluster.seeds, queues } },
    // Retries well after the old worker stops; a breaker that the 503s do not open; rows never stale.
    dispatch: {
      // BullMQ engine: the partition layout and the legacy drain between layouts exist only there.
      engine: "bullmq",
      retry: { base_ms: 1500, max_ms: 2000, max_attempts: 5, max_elapsed_ms: 60_000 },
      breaker: { failures: 1000, open_ms: 500, max_open_ms: 1000 },
    },
    recovery: { stale_after_ms: 600_000 },
    sinks: { s: { type: "http", url: `${rx.url}/s`, partitions: 3 } },
    sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
  });
  return prefix ? { ...config, redis: { ...config.redis, prefix } } : config;
}

/** Stop an old gateway and leave its keys: they are what the upgrade finds. */
async function stopKeepingKeys(gw: TestGateway): Promise<void> {
  await gw.gateway.stop();
  gw.redis.disconnect();
}

/** Jobs a worker would still run, per queue of `plan`. */
async function pendingIn(gw: TestGateway, plan: QueuePlan): Promise<number[]> {
  return Promise.all(
    plan.sinkQueues("s").map(async (name) => {
      const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
      const n = await queue.getJobCountByTypes("wait", "delayed", "active", "prioritized");
      await queue.close();
      return n;
    }),
  );
}

const delivered = (): Map<string, number> => {
  const ok = new Map<string, number>();
  rx.requests.forEach((req, i) => {
    if (i < 4) return; // the scripted 503s
    const body = req.body.toString("utf8");
    ok.set(body, (ok.get(body) ?? 0) + 1);
  });
  return ok;
};

it("delivers the jobs left in the partition queues after the switch to bucket queues", async () => {
  const oldConfig = configWith(undefined, "partition");
  const old = await startTestGateway(oldConfig, { roles: ["api", "dispatch"] });
  const bodies = Array.from({ length: 4 }, (_, i) => JSON.stringify({ retried: i }));
  for (const body of bodies) await sendHook(old, "src", body);
  await rx.waitForRequests(4, 10_000);
  await stopKeepingKeys(old);
  // Hooks accepted while no worker runs: waiting in the old queues.
  const oldApi = await startTestGateway(oldConfig, { roles: ["api"] });
  const waiting = Array.from({ length: 20 }, (_, i) => JSON.stringify({ waiting: i }));
  for (const body of waiting) await sendHook(oldApi, "src", body);
  await stopKeepingKeys(oldApi);

  const upgraded = await startTestGateway(configWith(oldConfig.redis.prefix, "bucket"), {
    roles: ["dispatch"],
  });
  started.push(upgraded);
  const plan = QueuePlan.of(upgraded.config);
  expect(plan.byBucket).toBe(true);
  const legacy = plan.other();
  const before = await pendingIn(upgraded, legacy);
  // Some may have started already; what matters is that they were there, in the old layout.
  expect(before.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

  await eventually(() => delivered().size === 24, 30_000, "all 24 hooks delivered");
  expect([...delivered().keys()].sort()).toEqual([...bodies, ...waiting].sort());
  for (const n of delivered().values()) expect(n).toBe(1);
  await eventually(
    async () => (await pendingIn(upgraded, legacy)).every((n) => n === 0),
    10_000,
    "old queues empty",
  );
  // Nothing of it went through the new queues: they were drained, not moved.
  expect((await pendingIn(upgraded, plan)).every((n) => n === 0)).toBe(true);
}, 90_000);
