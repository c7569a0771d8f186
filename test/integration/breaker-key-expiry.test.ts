// Breaker keys can't outlive their target for good: an attempt still in flight when its endpoint is
// deleted re-creates the endpoint's breaker, and a sink removed from the config leaves its breaker
// behind; either key carries a TTL (refreshed on every write) and so lapses once nothing uses it.
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import type { BreakerConfig } from "../../src/config/schema.ts";
import { SharedBreaker } from "../../src/delivery/shared-breaker.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { outboundConfig } from "../support/outbound.ts";
import { REDIS_URL, scratchRedis } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setup(config: BreakerConfig, keyKind: "endpoint" | "sink") {
  const cfg = outboundConfig();
  const { keys, redis, cleanup } = scratchRedis(cfg);
  const subscriber = new Redis(REDIS_URL);
  const breaker = new SharedBreaker({
    redis,
    subscriber,
    keyOf: (t) => (keyKind === "endpoint" ? keys.endpointGate(t, "breaker") : keys.sinkGate(t, "breaker")),
    channel: `${cfg.redis.prefix}:test-breaker-changes`,
    config,
    probeLeaseMs: 200,
    refreshMs: 0,
  });
  await breaker.start();
  cleanups.push(async () => {
    await breaker.close();
    subscriber.disconnect();
    await cleanup();
  });
  return { keys, redis, breaker };
}

it("an attempt in flight when its endpoint is deleted re-creates a breaker that expires", async () => {
  const config = { failures: 5, open_ms: 1000, max_open_ms: 4000 };
  const { keys, redis, breaker } = await setup(config, "endpoint");
  const endpoints = new EndpointStore(redis, keys);
  const ep = await endpoints.create({ url: "http://127.0.0.1:9/x", event_types: ["*"] });
  await breaker.record(ep.id, "failure", false);
  expect(await endpoints.delete(ep.id)).toBe(true);
  const key = keys.endpointGate(ep.id, "breaker");
  expect(await redis.exists(key)).toBe(0);

  // The attempt that was running finishes now, and counts its failure.
  await breaker.record(ep.id, "failure", false);
  const ttl = await redis.pttl(key);
  expect(ttl, "the re-created breaker carries a TTL").toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(3 * config.max_open_ms);
});

it("a removed sink's breaker lapses once nothing uses it, and lives while it is used", async () => {
  const config = { failures: 2, open_ms: 100, max_open_ms: 200 };
  const { keys, redis, breaker } = await setup(config, "sink");
  const key = keys.sinkGate("gone", "breaker");
  await breaker.record("gone", "failure", false);
  await breaker.record("gone", "failure", false); // opens it
  expect(await redis.hget(key, "state")).toBe("open");
  const ttl = await redis.pttl(key);
  expect(ttl, "an open sink breaker carries a TTL").toBeGreaterThan(0);
  // Open for 100 ms, then kept a few times max_open_ms past it: never gone while it still decides.
  expect(ttl).toBeGreaterThan(config.open_ms);

  // Used: the half-open probe (a gate write) and its failure refresh the TTL.
  await sleep(150);
  expect((await breaker.gate("gone")).pass).toBe(true);
  await breaker.record("gone", "failure", true);
  expect(await redis.hget(key, "opens")).toBe("2");
  expect(await redis.pttl(key)).toBeGreaterThan(200);

  // No longer used (the sink left the config): the key goes by itself.
  const deadline = Date.now() + 10_000;
  while ((await redis.exists(key)) === 1 && Date.now() < deadline) await sleep(100);
  expect(await redis.exists(key), "the unused sink breaker key lapsed").toBe(0);
});
