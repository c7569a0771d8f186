// A Redis that may evict keys can lose acknowledged hooks: boot warns loudly, or refuses to start with
// redis.require_noeviction.
import { afterEach, expect, it } from "vitest";
import { Redis } from "ioredis";
import { pino } from "pino";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { EvictionPolicyError, checkEvictionPolicy } from "../../src/runtime/eviction-check.ts";

let server: DevRedis | undefined;
let redis: Redis | undefined;
afterEach(async () => {
  redis?.disconnect();
  await server?.stop();
});

it("warns about an evicting maxmemory-policy, refuses it when required, and is quiet on noeviction", async () => {
  server = await startPrivateRedis();
  redis = new Redis(server.url);
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "warn" }, { write: (l: string) => void lines.push(JSON.parse(l)) });

  await redis.config("SET", "maxmemory-policy", "noeviction");
  await checkEvictionPolicy(redis, true, logger);
  expect(lines).toEqual([]);

  await redis.config("SET", "maxmemory-policy", "allkeys-lru");
  await checkEvictionPolicy(redis, false, logger);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ maxmemory_policy: "allkeys-lru" });
  expect(String(lines[0]?.msg)).toMatch(/may evict hook records/);
  await expect(checkEvictionPolicy(redis, true, logger)).rejects.toThrow(EvictionPolicyError);
});
