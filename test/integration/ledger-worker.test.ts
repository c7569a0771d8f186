// The worker of a ledger queue, on real Redis with a stand-in attempt runner: every delivery runs once,
// never more than its lanes at a time; a park runs it again once its time has come; an idle worker is
// woken by work instead of polling; a held target (its breaker open) takes nothing until the hold ends;
// and a close lets the running attempts finish and takes no more.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { LedgerWorker } from "../../src/delivery/ledger-worker.ts";
import type { DeliveryTicket } from "../../src/delivery/delivery-ticket.ts";
import { type AttemptEnd, DONE, park } from "../../src/domain/attempt-end.ts";
import { LedgerQueue } from "../../src/queue/ledger/ledger-queue.ts";
import type { QueueEntry } from "../../src/queue/ledger/queue-entry.ts";
import { BUCKETS } from "../../src/domain/ids.ts";
import { Keys } from "../../src/store/keys.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function setup(
  run: (ticket: DeliveryTicket) => Promise<AttemptEnd>,
  lanes = 4,
  heldUntil?: () => number | undefined,
) {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  const keys = new Keys(prefix);
  const watch = { keys: Array.from({ length: BUCKETS }, (_, b) => keys.watch(b)), holdMs: 10_000 };
  const queue = new LedgerQueue(redis, keys.queuePrefix("sink-a"), "sink-a", watch);
  const errors: Error[] = [];
  const worker = new LedgerWorker({
    queue,
    blocking: new Redis(REDIS_URL),
    lanes,
    run,
    onError: (err) => errors.push(err),
    ...(heldUntil ? { heldUntil } : {}),
  });
  cleanups.push(async () => {
    await worker.close();
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  return { queue, worker, errors };
}

const entry = (n: number): QueueEntry => ({ id: `dl_${n}`, data: { p: `hk_${n}` } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(10);
  }
}

it("runs every delivery once, at most its lanes at a time, as the runner sees it", async () => {
  const runs: string[] = [];
  let now = 0;
  let peak = 0;
  const { queue, errors } = setup(async (ticket) => {
    now++;
    peak = Math.max(peak, now);
    runs.push(ticket.id ?? "");
    expect(ticket.data).toEqual({ p: ticket.id?.replace("dl_", "hk_") });
    await sleep(5);
    now--;
    return DONE;
  }, 4);
  await queue.push(Array.from({ length: 40 }, (_, i) => entry(i)));
  await until(() => runs.length === 40);
  await sleep(50);
  expect(new Set(runs).size).toBe(40);
  expect(runs.length).toBe(40);
  expect(peak).toBeLessThanOrEqual(4);
  expect(peak).toBeGreaterThan(1);
  expect(await queue.depth()).toBe(0);
  expect(errors).toEqual([]);
});

it("runs a parked delivery again once its time has come, not before", async () => {
  const runs: number[] = [];
  const { queue } = setup(async () => {
    runs.push(Date.now());
    return runs.length === 1 ? park(Date.now() + 400, "retry") : DONE;
  });
  await queue.push([entry(1)]);
  await until(() => runs.length === 2);
  const [first, second] = runs as [number, number];
  expect(second - first).toBeGreaterThanOrEqual(390);
  // Woken for the due time, not at the idle cap.
  expect(second - first).toBeLessThan(2000);
  expect(await queue.depth()).toBe(0);
});

it("wakes when work arrives while idle", async () => {
  const runs: number[] = [];
  const { queue } = setup(async () => {
    runs.push(Date.now());
    return DONE;
  });
  await sleep(300); // idle, blocked on the doorbell
  const pushed = Date.now();
  await queue.push([entry(1)]);
  await until(() => runs.length === 1);
  expect((runs[0] ?? 0) - pushed).toBeLessThan(1000);
});

it("a pop that empties the queue is followed by the doorbell wait, not by a pop of the empty queue", async () => {
  const runs: string[] = [];
  const { queue } = setup(async (ticket) => {
    runs.push(ticket.id ?? "");
    return DONE;
  }, 4);
  await sleep(200); // idle, blocked on the doorbell
  const pops: number[] = [];
  const pop = queue.pop.bind(queue);
  queue.pop = async (max, now) => {
    const popped = await pop(max, now);
    pops.push(popped.entries.length);
    return popped;
  };
  await queue.push([entry(1), entry(2), entry(3)]);
  await until(() => runs.length === 3);
  await sleep(200);
  // One pop took the three; with a lane still free the worker went back to the doorbell.
  expect(pops).toEqual([3]);
  await queue.push([entry(4)]);
  await until(() => runs.length === 4);
  expect(pops).toEqual([3, 1]);
});

it("a close lets running attempts finish and takes nothing more", async () => {
  const finished: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { queue, worker } = setup(async (ticket) => {
    await gate;
    finished.push(ticket.id ?? "");
    return DONE;
  }, 2);
  await queue.push([entry(1), entry(2), entry(3)]);
  await until(() => worker.busy === 2);
  const closed = worker.close();
  release();
  await closed;
  expect(finished.sort()).toEqual(["dl_1", "dl_2"]);
  expect((await queue.pop(5)).entries).toEqual([entry(3)]);
});

it("while its target is held (a sink's breaker open) it takes nothing, then carries on", async () => {
  const runs: number[] = [];
  const holdEnds = Date.now() + 400;
  const { queue } = setup(
    async () => {
      runs.push(Date.now());
      return DONE;
    },
    4,
    () => holdEnds,
  );
  await queue.push([entry(1), entry(2)]);
  await sleep(200);
  expect(runs).toEqual([]);
  expect(await queue.depth()).toBe(2); // still queued, nothing parked one by one
  await until(() => runs.length === 2);
  expect(Math.min(...runs)).toBeGreaterThanOrEqual(holdEnds);
});

it("a close ends a hold at once", async () => {
  const { worker } = setup(
    async () => DONE,
    1,
    () => Date.now() + 60_000,
  );
  await sleep(50);
  const started = Date.now();
  await worker.close();
  expect(Date.now() - started).toBeLessThan(1000);
});
