// An endpoint's rate_limit_per_s holds where the receiver counts, in arrival times: 20 events to an
// endpoint limited to 5 per second, served by two real worker processes at once, all arrive, once
// each, and no sliding one-second window of arrivals holds more than the limit plus the burst of 2 —
// also when the first sends are slow to connect and arrive bunched up with the ones after them.
import type { LookupAddress } from "node:dns";
import { expect, it } from "vitest";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import type { Receiver } from "../support/receiver.ts";
import type { TestGateway } from "../support/test-gateway.ts";
import { startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";

useOutboundTeardown();

/** The most arrival times in any half-open window [t, t + 1000 ms). */
function busiestSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1000) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

/** Publish events `<prefix>-0..19` to the one endpoint, wait for all 20; the busiest second of arrivals. */
async function twentyEvents(gw: TestGateway, rx: Receiver, prefix: string): Promise<number> {
  const ids = Array.from({ length: 20 }, (_, i) => `${prefix}-${i}`);
  const answers = await Promise.all(ids.map((id) => publish(gw, { id, type: "tick.tock", payload: { id } })));
  expect(answers.map((a) => a.results.map((r) => r.status))).toEqual(ids.map(() => ["created"]));
  const arrived = await rx.waitForRequests(20, 30_000);
  await new Promise((r) => setTimeout(r, 500)); // room for a duplicate to show
  expect(rx.requests).toHaveLength(20);
  expect(new Set(arrived.map((r) => r.headers["webhook-id"]))).toEqual(new Set(ids));
  const most = busiestSecond(arrived.map((r) => r.receivedAt));
  console.log(`${prefix}: busiest one-second window ${most} of 20 arrivals (limit 5/s + burst 2)`);
  return most;
}

it("spaces 20 events to a 5/s endpoint over two worker processes: all arrive, at most 7 in any second", async () => {
  const rx = await receiver();
  const config = outboundConfig({ timeout_ms: 5000 });
  const api = await gateway(config, { roles: ["api"] });
  await createEndpoint(api, { url: `${rx.url}/hook`, event_types: ["tick.*"], rate_limit_per_s: 5 });
  const workers = [0, 1].map(() => startWorkerProcess(config, { roles: "dispatch", logLevel: "info" }));
  await waitForWorkers(api, OUTBOUND_QUEUE, 2);

  expect(await twentyEvents(api, rx, "two-workers")).toBeLessThanOrEqual(7);
  // Both processes delivered: the limit was shared, not one process's own.
  const deliveredBy = workers.map((w) => w.lines().filter((l) => l.msg === "delivered").length);
  expect(deliveredBy.every((n) => n > 0)).toBe(true);
  expect(deliveredBy[0]! + deliveredBy[1]!).toBe(20);
}, 60_000);

// Regression: the gate let the full burst of 2 go early, so sends were spaced exactly at the bound and
// any difference in send latency broke it at the receiver. The first sends, which open connections
// (here: a host name that takes 180 ms to resolve), arrived together with the next ones, and the
// receiver counted 8 in one second.
// The old gate failed this every time (4 of 4); one retry absorbs a loaded machine's scheduling spike
// (seen once in a full suite run: 8 arrivals in one second with the gate's spacing intact in Redis).
it(
  "slow first connections do not bunch a 5/s endpoint's arrivals past 7 in one second",
  { retry: 1, timeout: 60_000 },
  async () => {
    const rx = await receiver();
    const slowResolver = async (): Promise<LookupAddress[]> => {
      await new Promise((r) => setTimeout(r, 180));
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const gw = await gateway(outboundConfig({ timeout_ms: 5000 }), { outboundLookup: slowResolver });
    await createEndpoint(gw, {
      url: `http://slow-dns.test:${rx.port}/hook`,
      event_types: ["tick.*"],
      rate_limit_per_s: 5,
    });
    expect(await twentyEvents(gw, rx, "slow-connect")).toBeLessThanOrEqual(7);
  },
);
