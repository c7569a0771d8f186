// Shutdown closed connections with disconnect(): a command still in flight was failed with ioredis's
// "Connection is closed." (raised from its close handler), a rejection whose caller may be gone (the
// teardown error the test runner used to ignore). closeRedis quits instead: commands in flight get
// their replies, then the connection closes.
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { closeRedis } from "../../src/runtime/redis.ts";
import { REDIS_URL, eventually } from "../support/test-gateway.ts";

it("a command in flight when its connection is closed at shutdown gets its reply, not 'Connection is closed.'", async () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await redis.ping();
  // In flight for 300 ms (a blocking pop on a key nobody writes), as a worker's command may be.
  const inFlight = redis.blpop(`close-redis-test:${process.pid}:${Date.now()}`, 0.3);
  await new Promise((r) => setTimeout(r, 50));
  await closeRedis(redis);
  await expect(inFlight).resolves.toBeNull();
  await eventually(() => redis.status === "end", 2000, "the connection to end");
});

it("closeRedis drops a connection that cannot quit in time (Redis away)", async () => {
  const redis = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: null });
  redis.on("error", () => undefined);
  redis.connect().catch(() => undefined);
  const started = Date.now();
  await closeRedis(redis, 300);
  expect(Date.now() - started).toBeLessThan(2000);
  await eventually(() => redis.status === "end", 2000, "the connection to end");
});
