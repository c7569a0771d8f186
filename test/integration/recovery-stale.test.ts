// Stale-lease recovery: a process that died between persisting a hook and adding its sink jobs loses
// nothing, and recovery never adds a delivery that already exists.
import { createHash } from "node:crypto";
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import type { HookRecord } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { startGateway } from "../../src/runtime/gateway.ts";
import { SinkQueues } from "../../src/queue/sink-queues.ts";
import { TickLock } from "../../src/recovery/tick-lock.ts";
import { HookStore } from "../../src/store/hook-store.ts";
import { metricValue } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  type TestGateway,
  scratchRedis,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
  await rx?.close();
  for (const c of cleanups.splice(0)) await c();
});

/** A logger whose JSON lines the test can read. */
function capturingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

function staleHook(source: string, sinks: string[], receivedAt: number, n: number): HookRecord {
  const body = Buffer.from(JSON.stringify({ n }));
  const id = newId("hk", receivedAt);
  return {
    id,
    source,
    tenant: undefined,
    receivedAt,
    contentType: "application/json",
    headers: { "content-type": "application/json" },
    body,
    sha256: createHash("sha256").update(body).digest("hex"),
    dedupKey: `k${n}-${id}`,
    idempotencyKey: `-:${source}:k${n}`,
    sinks,
  };
}

it("re-enqueues a hook persisted before a crash exactly once, and never duplicates existing jobs", async () => {
  rx = await startReceiver();
  const config = testConfig({
    sinks: {
      a: { type: "http", url: `${rx.url}/a` },
      b: { type: "http", url: `${rx.url}/b` },
    },
    sources: { src: { verify: { type: "none" }, sinks: ["a", "b"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  const queues = new SinkQueues(redis, keys, ["a", "b"]);
  cleanups.push(async () => {
    await queues.close();
    await cleanup();
  });
  const hooks = new HookStore(redis, keys);
  const opts = { dedupTtlS: 60, retentionS: 600 };
  const old = Date.now() - 5_000;

  // Crashed right after persist: no job exists for either sink.
  const lost = staleHook("src", ["a", "b"], old, 1);
  await hooks.persist(lost, opts);
  // Crashed after the jobs were added, before the record was marked enqueued.
  const queued = staleHook("src", ["a", "b"], old, 2);
  await hooks.persist(queued, opts);
  await queues.enqueue(queued.id, ["a", "b"], 5);
  // Crashed after persist, and sink b was meanwhile delivered by some other path (a replay).
  const half = staleHook("src", ["a", "b"], old, 3);
  await hooks.persist(half, opts);
  await hooks.setSinkState(half.id, "b", { state: "delivered", attempts: 1, delivered_at: old });
  // The record expired (retention passed) while still listed.
  const expiredId = newId("hk", old);
  await redis.zadd(keys.pendingEnqueue, old, expiredId);
  // Too young to touch: an ingest may still be adding its jobs.
  const young = staleHook("src", ["a", "b"], Date.now() + 60_000, 4);
  await hooks.persist(young, opts);

  // Phase 1: recovery alone (no dispatch yet), so what it finds is deterministic.
  const { logger, lines } = capturingLogger();
  const recoveryOnly = await startGateway(config, {
    roles: ["recovery"],
    logger,
    recovery: { intervalMs: 200, staleAfterMs: 1_000 },
  });
  const ticks = (): Record<string, unknown>[] => lines.filter((l) => l.msg === "recovery tick");
  await eventually(() => ticks().length >= 1, 5_000, "a recovery tick");
  await recoveryOnly.stop();
  expect(ticks()[0]).toMatchObject({ scanned: 4, reenqueued: 3, existing: 2, expired: 1, unknownSinks: 0 });
  expect(
    await recoveryOnly.metrics.registry.getSingleMetricAsString("switchyard_recovery_reenqueued_total"),
  ).toContain('switchyard_recovery_reenqueued_total{sink="a"} 2');
  // Everything old left the set; the young record stays for a later tick.
  expect(await redis.zrange(keys.pendingEnqueue, 0, -1)).toEqual([young.id]);
  expect(await redis.exists(keys.hook(expiredId))).toBe(0); // forgetting never recreates a record

  // Phase 2: the whole gateway, recovery ticking along; every delivery arrives exactly once.
  gw = await startTestGateway(config, { logger, recovery: { intervalMs: 200, staleAfterMs: 1_000 } });
  await rx.waitForRequests(5, 10_000);
  // Let a few more ticks run: a recovery that re-added delivered or existing work would show up now.
  const ticksNow = ticks().length;
  await eventually(() => ticks().length >= ticksNow + 3, 5_000, "3 more ticks");
  await new Promise((r) => setTimeout(r, 200)); // and give such a duplicate time to be delivered

  const seen = rx.requests.map((r) => `${String(r.headers["x-switchyard-id"])}${r.path}`).sort();
  expect(seen).toEqual(
    [`${lost.id}/a`, `${lost.id}/b`, `${queued.id}/a`, `${queued.id}/b`, `${half.id}/a`].sort(),
  );
  expect(await metricValue(gw, "switchyard_recovery_reenqueued_total", { sink: "a" })).toBe(0);
});

it("lets only one of two concurrent passes hold the tick lock", async () => {
  const config = testConfig({
    sinks: { a: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["a"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);
  const one = new TickLock(redis, keys.recoveryLock, 5_000);
  const two = new TickLock(redis, keys.recoveryLock, 5_000);
  let inside = 0;
  let maxInside = 0;
  const body = async (): Promise<string> => {
    maxInside = Math.max(maxInside, ++inside);
    await new Promise((r) => setTimeout(r, 100));
    inside--;
    return "done";
  };
  const results = await Promise.all([one.withLock(body), two.withLock(body)]);
  expect(results.filter((r) => r.ran)).toHaveLength(1);
  expect(maxInside).toBe(1);
  // Released after the pass: the next tick may run at once.
  expect(await redis.exists(keys.recoveryLock)).toBe(0);
  expect((await two.withLock(body)).ran).toBe(true);

  // A holder whose lock lapsed must not release the lock someone else holds now.
  const short = new TickLock(redis, keys.recoveryLock, 50);
  const slow = short.withLock(() => new Promise((r) => setTimeout(r, 150)));
  await new Promise((r) => setTimeout(r, 80));
  await redis.set(keys.recoveryLock, "someone-else", "PX", 5_000);
  await slow;
  expect(await redis.get(keys.recoveryLock)).toBe("someone-else");
});
