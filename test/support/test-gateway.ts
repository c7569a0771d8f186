// Test harness: a gateway on real Redis under a unique key prefix, with fast retry and breaker
// timings, removed again (keys included) after the test.
import { randomBytes } from "node:crypto";
import { Cluster, Redis } from "ioredis";
import { type Config, configSchema } from "../../src/config/schema.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { type Gateway, type GatewayOptions, startGateway } from "../../src/runtime/gateway.ts";
import { Keys } from "../../src/store/keys.ts";
import { type RedisClient, serversOf } from "../../src/store/redis-client.ts";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
export const ADMIN_TOKEN = "test-admin-token-0123456789";

/** A config object as written in YAML (before defaults), with a unique Redis prefix filled in. */
export function testConfig(input: Record<string, unknown>, redisUrl = REDIS_URL): Config {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const base = {
    redis: { url: redisUrl, prefix },
    http: { port: 0, host: "127.0.0.1" },
    admin: { tokens: [ADMIN_TOKEN] },
    dispatch: {
      concurrency: 8,
      attempt_timeout_ms: 2000,
      lock_ms: 2000,
      retry: { base_ms: 20, max_ms: 200, max_attempts: 5, max_elapsed_ms: 60_000 },
      breaker: { failures: 5, open_ms: 500, max_open_ms: 2000 },
      // TEST_DISPATCH_ENGINE=bullmq|ledger runs the suite on either engine (unset: the shipped default).
      ...(process.env.TEST_DISPATCH_ENGINE ? { engine: process.env.TEST_DISPATCH_ENGINE } : {}),
    },
  };
  const merged: Record<string, unknown> = { ...base, ...input };
  for (const key of ["redis", "http", "admin", "dispatch"] as const) {
    merged[key] = { ...base[key], ...(input[key] as object | undefined) };
  }
  return configSchema().parse(merged);
}

export interface TestGateway {
  readonly gateway: Gateway;
  readonly config: Config;
  readonly metrics: Metrics;
  /** http://127.0.0.1:<port> when listening. */
  readonly url: string;
  readonly redis: RedisClient;
  stop(): Promise<void>;
}

/** A plain connection to where `config` keeps its state: its Redis, or a cluster client on its seeds. */
export function testRedis(config: Config): RedisClient {
  const nodes = config.redis.cluster?.nodes;
  if (!nodes) return new Redis(config.redis.url, { maxRetriesPerRequest: 1 });
  return new Cluster(nodes.map((url) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) })));
}

/** Delete every key under the config's prefix (on every master of a cluster). */
export async function deletePrefix(redis: RedisClient, prefix: string): Promise<void> {
  for (const server of serversOf(redis)) {
    let cursor = "0";
    do {
      const [next, keys] = await server.scan(cursor, "MATCH", `{${prefix}[:}]*`, "COUNT", 1000);
      cursor = next;
      // One key a command: a cluster refuses a multi-key command across slots.
      if (keys.length > 0) await Promise.all(keys.map((key) => server.unlink(key)));
    } while (cursor !== "0");
  }
}

/** A Redis connection and key builder for a config's prefix, for tests that drive stores directly. */
export function scratchRedis(config: Config): { keys: Keys; redis: Redis; cleanup: () => Promise<void> } {
  const redis = new Redis(config.redis.url);
  return {
    keys: new Keys(config.redis.prefix),
    redis,
    cleanup: async () => {
      await deletePrefix(redis, config.redis.prefix);
      redis.disconnect();
    },
  };
}

/** A fresh random prefix on the test Redis, its keys and a client; cleanup deletes its keys and disconnects. */
export function scratchPrefix(): { prefix: string; keys: Keys; redis: Redis; cleanup: () => Promise<void> } {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  return {
    prefix,
    keys: new Keys(prefix),
    redis,
    cleanup: async () => {
      await deletePrefix(redis, prefix);
      redis.disconnect();
    },
  };
}

export async function startTestGateway(config: Config, opts: GatewayOptions = {}): Promise<TestGateway> {
  const metrics = new Metrics();
  const gateway = await startGateway(config, { logger: silentLogger(), metrics, graceMs: 2000, ...opts });
  const redis = testRedis(config);
  return {
    gateway,
    config,
    metrics,
    url: `http://127.0.0.1:${gateway.port ?? 0}`,
    redis,
    stop: async () => {
      await gateway.stop();
      await deletePrefix(redis, config.redis.prefix).catch(() => undefined);
      redis.disconnect();
    },
  };
}

/**
 * Poll `check` until it returns a value other than undefined/false, or fail after `timeoutMs`. `what`
 * names the wait in the failure; as a function it can also say what was last seen.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  what: string | (() => string) = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === "function" ? what() : what}`,
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}
