// The legacy drain counts the other queue layout's queues with plain length reads: a queue that was
// never there stays absent (no BullMQ meta key written by merely looking), and one holding a job gets
// a worker, retired once the job is gone.
import { afterEach, expect, it } from "vitest";
import { LegacyDrain } from "../../src/delivery/legacy-drain.ts";
import type { PoolQueue, PoolWorker, WorkerPool } from "../../src/delivery/worker-pool.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { queueKeyBase } from "../../src/queue/bullmq/queue-census.ts";
import type { QueuePlan } from "../../src/queue/queue-plan.ts";
import { census } from "../support/key-census.ts";
import { scratchPrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

it("regression: counting the other layout's queues creates none of them, and a queue with a job gets a worker", async () => {
  const { prefix, keys, redis, cleanup } = scratchPrefix();
  cleanups.push(cleanup);
  const added: string[] = [];
  const retired: string[] = [];
  const pool = {
    add: (queue: PoolQueue): PoolWorker => {
      added.push(queue.name);
      return { close: async () => {}, cut: async () => {}, wake: () => {} };
    },
    retire: async () => void retired.push("retired"),
  } as unknown as WorkerPool;
  const queue = (name: string): PoolQueue => ({
    name,
    concurrency: 1,
    processor: async () => ({ kind: "done" }) as never,
  });
  const drain = new LegacyDrain({
    plan: {} as QueuePlan,
    redis,
    keys,
    logger: silentLogger(),
    checkMs: 60_000,
  });
  drain.watch(pool, queue("sink-a.p0"));
  drain.watch(pool, queue("sink-a.p1"));

  await drain.start();
  expect(added).toEqual([]);
  expect([...(await census(redis, prefix)).keys()]).toEqual([]);

  // A job of an older process waits in one of them (BullMQ's wait list holds its id).
  await redis.lpush(`${queueKeyBase(keys, "sink-a.p1")}wait`, "dl_1");
  await (drain as unknown as { check(): Promise<void> }).check();
  expect(added).toEqual(["sink-a.p1"]);
  await redis.del(`${queueKeyBase(keys, "sink-a.p1")}wait`);
  await (drain as unknown as { check(): Promise<void> }).check();
  expect(retired).toEqual(["retired"]);
  await drain.stop();
});
