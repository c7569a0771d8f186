// The queue depths behind the ingest depth gate and the queue gauges are read by one API process per
// interval for the whole deployment, not by every API process every second; the others take its numbers.
import { Queue } from "bullmq";
import { afterEach, expect, it, vi } from "vitest";
import { LedgerQueue } from "../../src/queue/ledger/ledger-queue.ts";
import { metricValue, sendHook } from "../support/hooks.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const gateways: TestGateway[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const g of gateways.splice(0)) await g.stop();
});

it("regression: every API process samples the queues — two API processes read them once per interval between them", async () => {
  // A queue is read through BullMQ's job counts, or on the ledger engine through its ready and later sizes.
  const reads = [vi.spyOn(Queue.prototype, "getJobCounts"), vi.spyOn(LedgerQueue.prototype, "counts")];
  const config = testConfig({
    sinks: { a: { type: "http", url: "http://127.0.0.1:9/never" } },
    sources: { src: { verify: { type: "none" }, sinks: ["a"] } },
  });
  for (let i = 0; i < 2; i++) gateways.push(await startTestGateway(config, { roles: ["api"] }));
  const [one, two] = gateways as [TestGateway, TestGateway];
  for (let n = 0; n < 5; n++) await sendHook(one, "src", `{"n":${n}}`);

  const started = Date.now();
  const readsOfA = () =>
    reads.flatMap((spy) => spy.mock.contexts).filter((q) => (q as { name: string }).name === "sink-a").length;
  const before = readsOfA();
  await new Promise((r) => setTimeout(r, 5000));
  const intervals = (Date.now() - started) / 1000;
  // One read per 1 s interval for both processes (a tick may straddle the window's edges).
  console.log(
    `queue reads of sink-a by two API processes over ${intervals.toFixed(1)} s: ${readsOfA() - before}`,
  );
  expect(readsOfA() - before).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
  expect(readsOfA() - before).toBeGreaterThanOrEqual(2);

  // Both processes report the same depths: the five waiting deliveries (jobs, or ready entries).
  const waiting = (gw: TestGateway) =>
    metricValue(gw, "switchyard_queue_jobs", { queue: "sink-a", state: "wait" });
  await eventually(
    async () => (await waiting(one)) === 5 && (await waiting(two)) === 5,
    5000,
    "both gauges at 5",
  );
});
