// Two processes run the recovery role against one Redis: each scheduled tick runs on one of them only,
// and two ticks never run at the same time, even when a tick outlasts the interval.
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { queuedEntries } from "../support/ingest-cluster-helpers.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import {
  type TestGateway,
  scratchRedis,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

const gateways: TestGateway[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const g of gateways.splice(0)) await g.stop();
  for (const c of cleanups.splice(0)) await c();
});

interface TickLine {
  readonly msg: string;
  readonly tick: string;
  readonly started_at?: number;
  readonly duration_ms?: number;
  readonly scanned?: number;
  readonly reenqueued?: number;
}

it("runs each tick once, never two at a time, across two recovery processes", async () => {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/never-called" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);

  // Enough stale records that one tick (one record at a time, 300 per tick) outlasts the 40 ms interval,
  // so the next tick comes due, and goes to the other process, while the first still runs.
  const records = 900;
  const { hooks } = ledgerStores(redis, keys);
  const old = Date.now() - 10_000;
  await Promise.all(
    Array.from({ length: records }, (_, n) =>
      hooks.persist(hookFixture({ source: "src", sinks: ["out"], receivedAt: old + n, n }), {
        dedupTtlS: 60,
        staleAfterMs: 1_000,
      }),
    ),
  );

  const logs: TickLine[][] = [[], []];
  for (const lines of logs) {
    const logger = pino(
      { level: "debug" },
      { write: (l: string) => void lines.push(JSON.parse(l) as TickLine) },
    );
    gateways.push(
      await startTestGateway(config, {
        roles: ["recovery"],
        logger,
        recovery: { intervalMs: 40, batchLimit: 300, concurrency: 1 },
      }),
    );
  }

  const ran = (): (TickLine & { by: number })[] =>
    logs.flatMap((lines, by) => lines.filter((l) => l.msg === "recovery tick").map((l) => ({ ...l, by })));
  const skipped = (): TickLine[] => logs.flat().filter((l) => l.msg.startsWith("recovery tick skipped"));
  await eventually(
    () => ran().reduce((n, t) => n + (t.reenqueued ?? 0), 0) >= records && ran().some((t) => t.scanned === 0),
    20_000,
    "every stale record recovered",
  );

  const ticks = ran();
  // Every record recovered once: no two passes worked on the same records.
  expect(ticks.reduce((n, t) => n + (t.reenqueued ?? 0), 0)).toBe(records);
  const recovered = await Promise.all(
    gateways.map((g) => g.metrics.registry.getSingleMetric("switchyard_recovery_reenqueued_total")!.get()),
  );
  expect(recovered.flatMap((m) => m.values).reduce((n, v) => n + v.value, 0)).toBe(records);
  // Every record's delivery queued once, over the sink's queues (one per bucket on a cluster): BullMQ
  // jobs or ledger queue entries, per the engine. No process dispatches, so none was taken.
  const queued: string[] = [];
  for (const name of QueuePlan.of(config).sinkQueues("out"))
    queued.push(...(await queuedEntries(gateways[0]!, name)).map((entry) => entry.id));
  expect(queued).toHaveLength(records);
  expect(new Set(queued).size).toBe(records);

  // Each scheduled tick was handed to one process only.
  const ids = logs
    .flat()
    .filter((l) => l.msg.startsWith("recovery tick"))
    .map((l) => l.tick);
  expect(new Set(ids).size).toBe(ids.length);
  // Held-lock intervals never overlap.
  const spans = ticks
    .map((t) => ({ start: t.started_at!, end: t.started_at! + t.duration_ms! }))
    .sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  // The lock really was contended: a tick came due during a long one and was skipped. (That tick went to
  // the other process, since each runs one tick at a time: both processes took part.)
  expect(skipped().length).toBeGreaterThan(0);
});
