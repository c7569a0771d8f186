// Group commit at ingest: the hooks persisted within one tick are one script call on a single Redis,
// and their jobs one addBulk per queue, yet each hook is still judged alone (a duplicate inside the
// batch is a duplicate, a new hook beside it is written with its rows) and each caller gets its own
// outcome.
import { afterEach, expect, it, vi } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { DeliveryQueues, hookFixture, ledgerStores } from "../support/ledger.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function setup() {
  const config = testConfig({ sinks: {}, sources: {} });
  const scratch = scratchRedis(config);
  cleanups.push(async () => {
    await scratch.cleanup();
    scratch.redis.disconnect();
  });
  return scratch;
}

it("persists a tick's hooks in one script call, each with its own outcome", async () => {
  const { redis, keys } = setup();
  const { hooks, ledger } = ledgerStores(redis, keys);
  const fresh = Array.from({ length: 20 }, (_, n) => hookFixture({ source: "src", sinks: ["a", "b"], n }));
  const first = fresh[0]!;
  // The same hook again (its dedup identity), under a new id, in the same tick.
  const copy = { ...first, id: hookFixture({ source: "src", sinks: ["a"] }).id };
  const evalsha = vi.spyOn(redis, "evalsha");
  const outcomes = await Promise.all(
    [...fresh, copy].map((h) => hooks.persist(h, { dedupTtlS: 60, staleAfterMs: 60_000 })),
  );
  expect(evalsha).toHaveBeenCalledTimes(1);
  expect(outcomes.slice(0, 20)).toEqual(fresh.map(() => ({ kind: "new" })));
  expect(outcomes[20]).toEqual({ kind: "duplicate", firstId: first.id });
  for (const hook of fresh) {
    const stored = await hooks.load(hook.id);
    expect(stored?.hook.body.equals(hook.body)).toBe(true);
    expect(stored?.deliveries.a?.state).toBe("pending");
    expect(stored?.deliveries.b?.state).toBe("pending");
  }
  expect(await hooks.record(copy.id)).toBeUndefined();
  expect(await ledger.get(sinkDeliveryId(copy.id, "a"))).toBeUndefined();
});

it("adds a tick's jobs with one addBulk per queue, and a failing queue fails only its own adds", async () => {
  const { redis, keys } = setup();
  const queues = new DeliveryQueues(redis, keys, { a: 1, b: 1 });
  cleanups.unshift(() => queues.close());
  const hook = (n: number) => hookFixture({ source: "src", sinks: ["a"], n }).id;
  const row = (parentId: ReturnType<typeof hook>, sink: string) => ({
    id: sinkDeliveryId(parentId, sink),
    parentId,
    target: { kind: "sink" as const, name: sink },
  });
  const rowsA = [1, 2, 3].map((n) => row(hook(n), "a"));
  const rowsB = [4, 5].map((n) => row(hook(n), "b"));
  const queueA = queues.all().get(sinkQueueName("a", 0))!;
  const queueB = queues.all().get(sinkQueueName("b", 0))!;
  const bulkA = vi.spyOn(queueA, "addBulk");
  const bulkB = vi.spyOn(queueB, "addBulk").mockRejectedValueOnce(new Error("queue b is down"));
  const results = await Promise.allSettled([
    ...rowsA.map((r) => queues.enqueue([r])),
    ...rowsB.map((r) => queues.enqueue([r])),
  ]);
  expect(bulkA).toHaveBeenCalledTimes(1);
  expect(bulkB).toHaveBeenCalledTimes(1);
  expect(results.map((r) => r.status)).toEqual([
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "rejected",
    "rejected",
  ]);
  for (const r of rowsA) expect(await queueA.getJobState(r.id)).toBe("waiting");
  // Adding again is a no-op for the jobs that exist, and now adds queue b's.
  await queues.enqueue([...rowsA, ...rowsB]);
  expect(await queueA.count()).toBe(3);
  for (const r of rowsB) expect(await queueB.getJobState(r.id)).toBe("waiting");
});
