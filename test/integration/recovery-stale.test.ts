// Recovery over delivery rows: a process that died between persisting a hook and adding its sink jobs
// loses nothing, and recovery never adds a delivery that already exists.
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { type HookRecord, sinkDeliveryId } from "../../src/domain/hook.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createDeliveryEngine } from "../../src/queue/delivery-engine.ts";
import { TickLock } from "../../src/recovery/tick-lock.ts";
import { startGateway } from "../../src/runtime/gateway.ts";
import { metricValue } from "../support/hooks.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
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
  // The configured engine's queues (BullMQ jobs or ledger queues), as the crashed ingest would have used.
  const { queues } = createDeliveryEngine(redis, keys, config, silentLogger());
  cleanups.push(async () => {
    await queues.close();
    await cleanup();
  });
  const { hooks, ledger } = ledgerStores(redis, keys);
  const opts = { dedupTtlS: 60, staleAfterMs: 1_000 };
  const old = Date.now() - 5_000;
  const rowsOf = (hook: HookRecord, sinks: string[]) =>
    sinks.map((sink) => ({
      id: sinkDeliveryId(hook.id, sink),
      parentId: hook.id,
      target: { kind: "sink" as const, name: sink },
      source: hook.source,
      tenant: hook.tenant,
    }));

  // Crashed right after persist: no job exists for either sink.
  const lost = hookFixture({ source: "src", sinks: ["a", "b"], receivedAt: old, n: 1 });
  await hooks.persist(lost, opts);
  // Crashed after the jobs were added: they will run, recovery must not add them again.
  const queued = hookFixture({ source: "src", sinks: ["a", "b"], receivedAt: old, n: 2 });
  await hooks.persist(queued, opts);
  await queues.enqueue(rowsOf(queued, ["a", "b"]));
  // Crashed after persist, and sink b was meanwhile delivered by some other path.
  const half = hookFixture({ source: "src", sinks: ["a", "b"], receivedAt: old, n: 3 });
  await hooks.persist(half, opts);
  const [, halfB] = rowsOf(half, ["a", "b"]);
  expect(await ledger.finish(halfB!, "unfenced", { outcome: "delivered" })).toBe(true);
  // Too young to touch: an ingest may still be adding its jobs.
  const young = hookFixture({ source: "src", sinks: ["a", "b"], receivedAt: Date.now() + 60_000, n: 4 });
  await hooks.persist(young, opts);

  // Phase 1: recovery alone (no dispatch yet), so what it finds is deterministic.
  const { logger, lines } = capturingLogger();
  const recoveryOnly = await startGateway(config, {
    roles: ["recovery"],
    logger,
    recovery: { intervalMs: 200 },
  });
  const ticks = (): Record<string, unknown>[] => lines.filter((l) => l.msg === "recovery tick");
  await eventually(() => ticks().length >= 1, 5_000, "a recovery tick");
  await recoveryOnly.stop();
  expect(ticks()[0]).toMatchObject({ scanned: 5, reenqueued: 3, existing: 2, skipped: 0, unknownSinks: 0 });
  expect(
    await recoveryOnly.metrics.registry.getSingleMetricAsString("switchyard_recovery_reenqueued_total"),
  ).toContain('switchyard_recovery_reenqueued_total{sink="a"} 2');
  // The young rows were not looked at; the old ones are not due again before the stale horizon.
  const due = (await Promise.all(keys.buckets.map((b) => ledger.due(b, Date.now(), 100)))).flat();
  expect(due).toEqual([]);

  // Phase 2: the whole gateway, recovery ticking along; every delivery arrives exactly once.
  gw = await startTestGateway(config, { logger, recovery: { intervalMs: 200 } });
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
