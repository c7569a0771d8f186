// Redis connections by role. The command connection fails fast when Redis is away (ingest answers 503
// and the provider retries); worker connections wait and reconnect forever, as BullMQ requires.
import { Redis, type RedisOptions } from "ioredis";

const COMMON: RedisOptions = {
  lazyConnect: true,
  // Reconnect quickly but without hammering a Redis that is down.
  retryStrategy: (times) => Math.min(100 * times, 2000),
};

/** For request paths and producers: no offline queue, bounded command time. */
export function createCommandRedis(url: string, name = "switchyard"): Redis {
  return new Redis(url, {
    ...COMMON,
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 5000,
  });
}

/** For BullMQ workers and schedulers: blocking commands, retried across reconnects. */
export function createWorkerRedis(url: string, name = "switchyard-worker"): Redis {
  return new Redis(url, {
    ...COMMON,
    connectionName: name,
    maxRetriesPerRequest: null,
    enableReadyCheck: false,
  });
}

/** Connect, or throw a message that names the URL (without credentials). */
export async function connectRedis(redis: Redis, url: string): Promise<void> {
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(`cannot reach Redis at ${safeRedisUrl(url)}: ${(err as Error).message}`);
  }
}

export function safeRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//***@");
}
