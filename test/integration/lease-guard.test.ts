// Regression: an attempt outlived its lease. A worker that could not renew (Redis away from it, or the
// row claimed by another worker) kept its request to the sink running until the attempt timeout, while
// after the lease recovery or another worker may send the same delivery: the receiver could get it twice
// at once, which is why every process warned about lock_ms on the default config. Now the attempt is
// cancelled before the lease it holds runs out.
import { type IncomingMessage, type Server, createServer } from "node:http";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { Keys } from "../../src/store/keys.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const LEASE_MS = 1000;

let redis: DevRedis | undefined;
let gw: TestGateway | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await gw?.gateway.stop();
  gw?.redis.disconnect();
  gw = undefined;
  await redis?.stop();
  redis = undefined;
  receiver?.closeAllConnections();
  receiver?.close();
});

/** A receiver that never answers; it notes when each request arrived and when its sender gave up. */
async function hangingReceiver(): Promise<{ url: string; arrivals: { at: number; closedAt?: number }[] }> {
  const arrivals: { at: number; closedAt?: number }[] = [];
  receiver = createServer((req: IncomingMessage) => {
    const arrival: { at: number; closedAt?: number } = { at: Date.now() };
    arrivals.push(arrival);
    req.resume();
    req.socket.once("close", () => (arrival.closedAt = Date.now()));
  });
  await new Promise<void>((r) => receiver!.listen(0, "127.0.0.1", r));
  const { port } = receiver.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/in`, arrivals };
}

async function start(url: string) {
  redis = await startPrivateRedis();
  const config = testConfig(
    {
      dispatch: { lock_ms: LEASE_MS, attempt_timeout_ms: 10_000 },
      sinks: { out: { type: "http", url } },
      sources: { open: { verify: { type: "none" }, sinks: ["out"] } },
    },
    redis.url,
  );
  gw = await startTestGateway(config);
  gw.redis.on("error", () => undefined); // the first test stops Redis under it
  const res = await fetch(`${gw.url}/webhooks/open`, { method: "POST", body: '{"n":1}' });
  expect(res.status).toBe(202);
  return { config, id: ((await res.json()) as { id: HookId }).id };
}

it("regression: an attempt that cannot renew its lease (Redis away) ends before the lease does", async () => {
  const rx = await hangingReceiver();
  await start(rx.url);
  const arrival = await eventually(async () => rx.arrivals[0], 10_000, "the attempt to reach the sink");
  // The worker is cut off from Redis while its request hangs.
  await redis!.stop();
  redis = undefined;
  await eventually(async () => arrival.closedAt, 5_000, "the attempt to be cancelled");
  expect(arrival.closedAt! - arrival.at).toBeLessThan(LEASE_MS);
});

it("regression: an attempt whose row another worker claimed ends at the next renewal", async () => {
  const rx = await hangingReceiver();
  const { config, id } = await start(rx.url);
  const arrival = await eventually(async () => rx.arrivals[0], 10_000, "the attempt to reach the sink");
  // Another claim bumps the row's fencing token: this attempt's renewal is refused.
  await gw!.redis.hincrby(new Keys(config.redis.prefix).delivery(sinkDeliveryId(id, "out")), "f", 1);
  const bumpedAt = Date.now();
  await eventually(async () => arrival.closedAt, 5_000, "the attempt to be cancelled");
  expect(arrival.closedAt! - bumpedAt).toBeLessThan(LEASE_MS);
});
