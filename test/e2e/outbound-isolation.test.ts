// One hanging endpoint does not slow the others. Every endpoint shares the outbound queue and one
// worker pool (16 attempts here), so an endpoint that never answers would take the whole pool if its
// attempts were not bounded: max_in_flight_per_endpoint (2 here) lets it hold two, and its other
// deliveries wait parked. Measured in one run: the p99 of publish → arrival of 50 fast endpoints'
// deliveries without the hanging endpoint, then with it (holding more jobs than the pool has workers).
import { afterEach, expect, it } from "vitest";
import { createEndpoint, outboundConfig, publish } from "../support/outbound.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

const FAST_ENDPOINTS = 50;
const EVENTS_PER_ROUND = 12;
const PACE_MS = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1] ?? NaN;
}

/**
 * Publish `EVENTS_PER_ROUND` events to the fast endpoints, one every PACE_MS, and wait for every delivery;
 * the publish → arrival latency of each (ms).
 */
async function round(fast: Receiver, name: string): Promise<number[]> {
  const publishedAt = new Map<string, number>();
  for (let i = 0; i < EVENTS_PER_ROUND; i++) {
    const id = `${name}-${i}`;
    const started = Date.now();
    publishedAt.set(id, started);
    await publish(gw!, { id, type: "iso.tick", payload: { i } });
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

it("keeps 50 endpoints' p99 delivery latency with one endpoint hanging", async () => {
  const fast = await startReceiver({ fallback: 200 });
  const hanging = await startReceiver({ fallback: "hang" });
  receivers.push(fast, hanging);
  gw = await startTestGateway(
    outboundConfig({ timeout_ms: 60_000, max_in_flight_per_endpoint: 2, concurrency: 16 }),
  );
  for (let i = 0; i < FAST_ENDPOINTS; i += 10)
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        createEndpoint(gw!, { url: `${fast.url}/ep/${i + j}`, event_types: ["iso.*"] }),
      ),
    );

  await round(fast, "warmup");
  const without = p99(await round(fast, "without"));

  // The hanging endpoint takes every event, and first more jobs than the pool has workers.
  await createEndpoint(gw, { url: `${hanging.url}/hook`, event_types: ["*"] });
  await Promise.all(
    Array.from({ length: 24 }, (_, i) => publish(gw!, { id: `load-${i}`, type: "hang.load", payload: {} })),
  );
  await hanging.waitForRequests(2, 10_000);
  const withHanging = p99(await round(fast, "with"));

  console.log(
    `p99 publish → arrival of ${FAST_ENDPOINTS} endpoints × ${EVENTS_PER_ROUND} events: ` +
      `without the hanging endpoint ${without} ms, with it ${withHanging} ms`,
  );
  expect(hanging.requests).toHaveLength(2); // it never held more than its two slots
  expect(withHanging).toBeLessThanOrEqual(2 * without + 250);
}, 90_000);
