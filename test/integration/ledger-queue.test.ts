// A delivery queue beside the ledger (docs/ledger-dispatch.md), on real Redis: oldest first, each
// delivery queued once, due waits before newer work, a taken row due for recovery's look soon (so a
// worker that dies before its claim loses it briefly), and idle workers woken by a doorbell instead of
// polling: on a push to an empty queue, on a wait that becomes the earliest, and by a pop that leaves
// work behind.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { LedgerQueue } from "../../src/queue/ledger/ledger-queue.ts";
import type { QueueEntry } from "../../src/queue/ledger/queue-entry.ts";
import { BUCKETS } from "../../src/domain/ids.ts";
import { Keys } from "../../src/store/keys.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function setup() {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  const blocking = new Redis(REDIS_URL);
  cleanups.push(async () => {
    blocking.disconnect();
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  const keys = new Keys(prefix);
  const watch = { keys: Array.from({ length: BUCKETS }, (_, b) => keys.watch(b)), holdMs: HOLD_MS };
  return {
    redis,
    blocking,
    keys,
    queue: new LedgerQueue(redis, keys.queuePrefix("sink-a"), "sink-a", watch),
  };
}

const HOLD_MS = 10_000;

const entry = (n: number): QueueEntry => ({ id: `dl_${n}`, data: { p: `hk_${n}` } });
const ids = (entries: readonly QueueEntry[]) => entries.map((e) => e.id);

it("hands out the oldest first, each delivery once however often it was pushed", async () => {
  const { queue } = setup();
  expect(await queue.push([entry(1), entry(2), entry(3)])).toBe(3);
  expect(await queue.push([entry(2)])).toBe(0);
  expect(await queue.depth()).toBe(3);
  expect(ids((await queue.pop(2)).entries)).toEqual(["dl_1", "dl_2"]);
  expect((await queue.pop(5)).entries).toEqual([entry(3)]);
  expect(await queue.pop(5)).toEqual({ entries: [], drained: true, nextDueAt: undefined });
  // Taken, it is no longer queued: pushing it again queues it again.
  expect(await queue.push([entry(2)])).toBe(1);
});

it("runs a wait that is over before newer work, and says when the next one is due", async () => {
  const { queue } = setup();
  const now = 1_700_000_000_000;
  await queue.push([entry(1)]);
  await queue.park(entry(7), now - 1);
  await queue.park(entry(8), now + 5000);
  expect(await queue.depth()).toBe(3);
  const first = await queue.pop(5, now);
  expect(ids(first.entries)).toEqual(["dl_7", "dl_1"]);
  // Fewer than asked: the ready list is empty, and the pop says so and when the next wait is due.
  expect(first.drained).toBe(true);
  expect(first.nextDueAt).toBe(now + 5000);
  expect(await queue.pop(5, now)).toEqual({ entries: [], drained: true, nextDueAt: now + 5000 });
  // A parked delivery is queued: recovery's push leaves it where it is.
  expect(await queue.push([entry(8)])).toBe(0);
  expect(ids((await queue.pop(5, now + 5000)).entries)).toEqual(["dl_8"]);
});

it("a pop that takes all it asked for does not say the queue is drained", async () => {
  const { queue } = setup();
  const now = 1_700_000_000_000;
  await queue.push([entry(1), entry(2), entry(3)]);
  await queue.park(entry(8), now + 5000);
  expect(await queue.pop(2, now)).toMatchObject({ drained: false, nextDueAt: undefined });
  expect(await queue.pop(1, now)).toMatchObject({ drained: false, nextDueAt: undefined });
  expect(await queue.pop(1, now)).toEqual({ entries: [], drained: true, nextDueAt: now + 5000 });
});

it("makes each taken row due for recovery hold ms after the pop, in its own bucket's watch set only if there", async () => {
  const { redis, keys, queue } = setup();
  const now = 1_700_000_000_000;
  // Delivery ids end in their bucket's digit.
  const inBucket3 = { id: "dl_aaaa3", data: { p: "hk_3" } };
  const inBucket12 = { id: "dl_bbbbc", data: { p: "hk_12" } };
  const gone = { id: "dl_cccc5", data: { p: "hk_5" } };
  await redis.zadd(keys.watch(3), now + 60_000, inBucket3.id);
  await redis.zadd(keys.watch(12), now + 60_000, inBucket12.id);
  await queue.push([inBucket3, inBucket12, gone]);
  expect((await queue.pop(3, now)).entries).toHaveLength(3);
  expect(Number(await redis.zscore(keys.watch(3), inBucket3.id))).toBe(now + HOLD_MS);
  expect(Number(await redis.zscore(keys.watch(12), inBucket12.id))).toBe(now + HOLD_MS);
  // A row no longer watched (final, or its row gone) is not put back in a watch set.
  expect(await redis.zscore(keys.watch(5), gone.id)).toBeNull();
  expect(await redis.zscore(keys.watch(3), gone.id)).toBeNull();
});

it("regression: a parked row is due for recovery hold ms after it may run, not at the pop's hold", async () => {
  const { redis, keys, queue } = setup();
  const now = 1_700_000_000_000;
  const row = { id: "dl_dddd9", data: { p: "hk_9" } };
  await redis.zadd(keys.watch(9), now + 60_000, row.id);
  await queue.push([row]);
  await queue.pop(1, now);
  // Parked for 30 s (a breaker's open period): recovery would otherwise look at it after 10 s.
  await queue.park(row, now + 30_000);
  expect(Number(await redis.zscore(keys.watch(9), row.id))).toBe(now + 30_000 + HOLD_MS);
  // Only a watched row is touched.
  await queue.park({ id: "dl_eeee9", data: { p: "hk_x" } }, now + 30_000);
  expect(await redis.zscore(keys.watch(9), "dl_eeee9")).toBeNull();
});

it("parks a delivery only when it is not queued already: it is on its queue once", async () => {
  const { queue } = setup();
  await queue.push([entry(1)]);
  expect(await queue.park(entry(1), Date.now() + 60_000)).toBe(false);
  expect(await queue.counts()).toEqual({ ready: 1, later: 0 });
  const popped = await queue.pop(5);
  expect(ids(popped.entries)).toEqual(["dl_1"]);
  expect(await queue.park(entry(1), Date.now() + 60_000)).toBe(true);
  expect(await queue.counts()).toEqual({ ready: 0, later: 1 });
});

it("a queue of one bucket watches that bucket's rows, in one hash tag", async () => {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  cleanups.push(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  const keys = new Keys(prefix);
  const name = "sink-a.b7";
  const queue = new LedgerQueue(redis, keys.queuePrefix(name), name, { keys: [keys.watch(7)], holdMs: 500 });
  const tags = new Set([...queue.keys, keys.watch(7)].map((key) => /\{([^}]*)\}/.exec(key)?.[1]));
  expect(tags.size).toBe(1);
  await redis.zadd(keys.watch(7), 1, "dl_x7");
  await queue.push([{ id: "dl_x7", data: { p: "hk_7" } }]);
  await queue.pop(1, 1000);
  expect(Number(await redis.zscore(keys.watch(7), "dl_x7"))).toBe(1500);
  expect(() => new LedgerQueue(redis, keys.queuePrefix(name), name, { keys: [], holdMs: 1 })).toThrow(
    RangeError,
  );
});

it("regression: due waits run in the order they fell due, earliest first", async () => {
  const { queue } = setup();
  const now = 1_700_000_000_000;
  await queue.park(entry(3), now - 10);
  await queue.park(entry(1), now - 30);
  await queue.park(entry(2), now - 20);
  expect(ids((await queue.pop(5, now)).entries)).toEqual(["dl_1", "dl_2", "dl_3"]);
});

it("wakes an idle worker when work arrives, not at its timeout", async () => {
  const { queue, blocking } = setup();
  const started = Date.now();
  const woken = queue.waitForWork(blocking, 5000);
  await new Promise((r) => setTimeout(r, 100));
  await queue.push([entry(1)]);
  expect(await woken).toBe(true);
  expect(Date.now() - started).toBeLessThan(2000);
  // A push to a queue that already had work does not ring again; the one ring was taken.
  await queue.push([entry(2)]);
  expect(await queue.waitForWork(blocking, 200)).toBe(false);
});

it("rings for the next worker when a pop leaves work behind, and for a wait that became the earliest", async () => {
  const { queue, blocking } = setup();
  await queue.push([entry(1), entry(2)]);
  expect(await queue.waitForWork(blocking, 200)).toBe(true); // the push's ring
  await queue.pop(1);
  expect(await queue.waitForWork(blocking, 200)).toBe(true); // dl_2 is left: ring again
  await queue.pop(1);
  expect(await queue.waitForWork(blocking, 200)).toBe(false);

  const now = Date.now();
  await queue.park(entry(5), now + 60_000);
  expect(await queue.waitForWork(blocking, 200)).toBe(true); // the earliest wait changed
  await queue.park(entry(6), now + 90_000);
  expect(await queue.waitForWork(blocking, 200)).toBe(false); // a later one: nobody waits less
  await queue.park(entry(7), now + 30_000);
  expect(await queue.waitForWork(blocking, 200)).toBe(true);
});

it("keys one hash tag, so the queue is one slot on a cluster", () => {
  const { queue } = setup();
  const tags = new Set(queue.keys.map((key) => /\{([^}]*)\}/.exec(key)?.[1]));
  expect(tags.size).toBe(1);
});
