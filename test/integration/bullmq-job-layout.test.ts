// The persist script writes a hook's delivery jobs itself, in BullMQ's storage format. This compares
// that, key by key, with what BullMQ's own `Queue.add` leaves for the same job: on a plain queue, a
// paused one, one at its global concurrency, and when the job exists already. A BullMQ upgrade that
// changes the layout fails here, and the version check below makes sure the comparison is redone.
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import type { HookRecord } from "../../src/domain/hook.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { LAYOUT_BULLMQ_VERSION, installedBullmqVersion } from "../../src/queue/bullmq/version.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { HookStore } from "../../src/store/hook-store.ts";
import type { Keys } from "../../src/store/keys.ts";
import { hookFixture } from "../support/ledger.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const QUEUE = sinkQueueName("s");

interface Side {
  readonly redis: Redis;
  readonly keys: Keys;
  readonly queues: DeliveryQueues;
  readonly hooks: HookStore;
  /** BullMQ's own handle on the sink's queue. */
  readonly queue: Queue;
}

/** A scratch prefix with the sink's queue; `hooks` writes jobs in its persist script. */
async function side(): Promise<Side> {
  const config = testConfig({ sinks: {}, sources: {} });
  const { keys, redis, cleanup } = scratchRedis(config);
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({ s: 1 }, false));
  const queue = new Queue(QUEUE, { connection: redis, prefix: keys.queuePrefix(QUEUE) });
  cleanups.push(async () => {
    await queue.close();
    await queues.close();
    await cleanup();
    redis.disconnect();
  });
  const ledger = new DeliveryStore(redis, keys, ledgerOptions(config));
  await Promise.all([queue.waitUntilReady(), ...[...queues.all().values()].map((q) => q.waitUntilReady())]);
  // The queue writes its meta on connecting: let that land before anything is compared.
  await redis.ping();
  return { redis, keys, queues, queue, hooks: new HookStore(redis, keys, ledger, queues) };
}

/** Every key of the queue, with its contents, minus what differs by clock alone. */
async function queueState(s: Side): Promise<Record<string, unknown>> {
  const base = `${s.keys.queuePrefix(QUEUE)}:${QUEUE}:`;
  const out: Record<string, unknown> = {};
  for (const key of (await s.redis.keys(`${base}*`)).sort()) {
    const name = key.slice(base.length).replace(/hk_[0-9a-z]+/i, "<hook>");
    const type = await s.redis.type(key);
    if (type === "hash") {
      const { timestamp, ...fields } = await s.redis.hgetall(key);
      if (timestamp !== undefined) expect(Number(timestamp)).toBeGreaterThan(0);
      out[name] = Object.fromEntries(
        Object.entries(fields).map(([f, v]) => [f, v.replace(/hk_[0-9a-z]+/gi, "<hook>")]),
      );
    } else if (type === "list") out[name] = await s.redis.lrange(key, 0, -1);
    else if (type === "zset") out[name] = await s.redis.zrange(key, 0, -1, "WITHSCORES");
    else if (type === "stream") out[name] = (await s.redis.xrange(key, "-", "+")).map(([, fields]) => fields);
    else out[name] = await s.redis.get(key);
  }
  return JSON.parse(JSON.stringify(out).replace(/(dl|hk)_[0-9a-z]+/gi, "<$1>")) as Record<string, unknown>;
}

/** BullMQ's way: the hook's record and rows, then `Queue.add` of its job (the cluster path). */
async function viaQueueAdd(s: Side, hook: HookRecord): Promise<void> {
  const plain = new HookStore(
    s.redis,
    s.keys,
    new DeliveryStore(s.redis, s.keys, { retentionS: 60, staleAfterMs: 60_000 }),
  );
  expect(await plain.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 })).toEqual({ kind: "new" });
  await s.queues.enqueue([
    { id: sinkDeliveryId(hook.id, "s"), parentId: hook.id, target: { kind: "sink", name: "s" } },
  ]);
}

/** Ours: the persist script writes the job with the record. */
async function viaPersist(s: Side, hook: HookRecord): Promise<void> {
  expect(await s.hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 })).toEqual({
    kind: "new",
    jobsAdded: true,
  });
}

async function compare(prepare: (s: Side) => Promise<void>, hooks = 1): Promise<Record<string, unknown>> {
  const [bullmq, ours] = [await side(), await side()];
  await prepare(bullmq);
  await prepare(ours);
  for (let n = 0; n < hooks; n++) {
    await viaQueueAdd(bullmq, hookFixture({ source: "src", sinks: ["s"], n }));
    await viaPersist(ours, hookFixture({ source: "src", sinks: ["s"], n }));
  }
  const expected = await queueState(bullmq);
  expect(await queueState(ours)).toEqual(expected);
  return expected;
}

it("writes a job as Queue.add does, on a plain queue, and a worker's view of it is the same", async () => {
  const state = await compare(async () => {}, 2);
  expect(Object.keys(state)).toEqual(expect.arrayContaining(["wait", "marker", "events", "id", "meta"]));
  const ours = await side();
  const hook = hookFixture({ source: "src", sinks: ["s"] });
  await viaPersist(ours, hook);
  const job = await ours.queue.getJob(sinkDeliveryId(hook.id, "s"));
  expect(job?.name).toBe("deliver");
  expect(job?.data).toEqual({ p: hook.id });
  expect(job?.opts).toEqual({ jobId: sinkDeliveryId(hook.id, "s"), attempts: 0 });
  expect(await job?.getState()).toBe("waiting");
});

it("writes a job as Queue.add does on a paused queue: into the paused list, no marker", async () => {
  const state = await compare((s) => s.queue.pause());
  expect(state["marker"]).toBeUndefined();
  expect(state["wait"]).toBeUndefined();
});

it("writes a job as Queue.add does on a queue at its global concurrency: no marker", async () => {
  const state = await compare(async (s) => {
    await s.queue.setGlobalConcurrency(1);
    await s.redis.lpush(`${s.keys.queuePrefix(QUEUE)}:${QUEUE}:active`, "someone-elses-job");
  });
  expect(state["marker"]).toBeUndefined();
});

it("leaves a job that exists as Queue.add does, with a 'duplicated' event", async () => {
  const hook = hookFixture({ source: "src", sinks: ["s"] });
  const job = {
    id: sinkDeliveryId(hook.id, "s"),
    parentId: hook.id,
    target: { kind: "sink", name: "s" },
  } as const;
  const [bullmq, ours] = [await side(), await side()];
  for (const s of [bullmq, ours]) await s.queues.enqueue([job]);
  await viaQueueAdd(bullmq, hook);
  await viaPersist(ours, hook);
  const expected = await queueState(bullmq);
  expect(await queueState(ours)).toEqual(expected);
  expect(JSON.stringify(expected["events"])).toContain("duplicated");
});

it("is checked against the BullMQ installed (an upgrade must redo this comparison)", () => {
  expect(installedBullmqVersion()).toBe(LAYOUT_BULLMQ_VERSION);
});
