// One hanging endpoint does not slow the others. Every endpoint shares the outbound queue and one
// worker pool (16 attempts here), so an endpoint that never answers would take the whole pool if its
// attempts were not bounded: max_in_flight_per_endpoint (2 here) lets it hold two, and its other
// deliveries wait parked. Measured in one run: the p99 of publish → arrival of 50 fast endpoints'
// deliveries without the hanging endpoint, then with it holding a backlog of 1,000 jobs (far more
// than the pool has workers).
//
// Regression: each parked job of the hanging endpoint came back every 250 ms to find its slots still
// full, so its backlog alone cost the workers and Redis ~4,000 wake-ups a second and the others' p99
// went from 268 ms to 1,986 ms. A refused job now waits behind those already waiting, in proportion
// to how long the attempts in flight have been running.
import { expect, it } from "vitest";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import type { Receiver } from "../support/receiver.ts";
import { metricValue } from "../support/hooks.ts";
import { type TestGateway, eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

const FAST_ENDPOINTS = 50;
const EVENTS_PER_ROUND = 12;
const PACE_MS = 600;
const BACKLOG = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1] ?? NaN;
}

/**
 * Publish `EVENTS_PER_ROUND` events to the fast endpoints, one every PACE_MS, and wait for every delivery;
 * the publish → arrival latency of each (ms).
 */
async function round(gw: TestGateway, fast: Receiver, name: string): Promise<number[]> {
  const publishedAt = new Map<string, number>();
  for (let i = 0; i < EVENTS_PER_ROUND; i++) {
    const id = `${name}-${i}`;
    const started = Date.now();
    publishedAt.set(id, started);
    await publish(gw, { id, type: "iso.tick", payload: { i } });
    await sleep(Math.max(0, started + PACE_MS - Date.now()));
  }
  const mine = () => fast.requests.filter((r) => publishedAt.has(String(r.headers["webhook-id"])));
  await eventually(
    () => mine().length >= FAST_ENDPOINTS * EVENTS_PER_ROUND,
    20_000,
    `every delivery of round ${name}`,
  );
  const arrived = mine();
  expect(arrived).toHaveLength(FAST_ENDPOINTS * EVENTS_PER_ROUND);
  return arrived.map((r) => r.receivedAt - publishedAt.get(String(r.headers["webhook-id"]))!);
}

it("keeps 50 endpoints' p99 delivery latency with one endpoint hanging on a backlog of 1,000 jobs", async () => {
  const fast = await receiver({ fallback: 200 });
  const hanging = await receiver({ fallback: "hang" });
  const gw = await gateway(
    outboundConfig({ timeout_ms: 60_000, max_in_flight_per_endpoint: 2, concurrency: 16 }),
  );
  for (let i = 0; i < FAST_ENDPOINTS; i += 10)
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        createEndpoint(gw, { url: `${fast.url}/ep/${i + j}`, event_types: ["iso.*"] }),
      ),
    );

  await round(gw, fast, "warmup");
  const without = p99(await round(gw, fast, "without"));

  // The hanging endpoint takes every event, and first a backlog of its own.
  await createEndpoint(gw, { url: `${hanging.url}/hook`, event_types: ["*"] });
  await Promise.all(
    Array.from({ length: BACKLOG }, (_, i) =>
      publish(gw, { id: `load-${i}`, type: "hang.load", payload: {} }),
    ),
  );
  await hanging.waitForRequests(2, 10_000);
  // Measured once the backlog has been through the queue (two sending, the rest parked): a burst of
  // jobs ahead in the one queue delays what comes after it whatever their endpoint, slow or not.
  const parked = () =>
    metricValue(gw, "switchyard_outbound_attempts_total", { tenant: "-", result: "parked" });
  await eventually(async () => (await parked()) >= BACKLOG - 2, 30_000, "the backlog to be parked");
  const parkedBefore = await parked();
  const withHanging = p99(await round(gw, fast, "with"));
  console.log(
    `p99 publish → arrival of ${FAST_ENDPOINTS} endpoints × ${EVENTS_PER_ROUND} events: ` +
      `without the hanging endpoint ${without} ms, with it ${withHanging} ms`,
  );
  const wakeUps = (await parked()) - parkedBefore;
  console.log(`the hanging endpoint's backlog woke up ${wakeUps} times during the measured round`);
  expect(hanging.requests).toHaveLength(2); // it never held more than its two slots
  // The cause of the regression, counted: its backlog came back every 250 ms (~28,000 wake-ups in a
  // round); now ~300-400. A count, so a busy machine does not move it the way it moves a latency.
  expect(wakeUps).toBeLessThan(2 * BACKLOG);
  // Its effect: 268 → 1,986 ms. The bound leaves room for a machine shared with the rest of the suite
  // (565 ms against 108 ms was seen there with the backlog asleep as it should be).
  expect(withHanging).toBeLessThanOrEqual(3 * without + 500);
}, 90_000);
