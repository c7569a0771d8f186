// Redis connections by role, to one Redis (`redis.url`) or to a Redis Cluster (`redis.cluster.nodes`).
// The command connection fails fast when Redis is away (ingest answers 503 and the provider retries);
// worker connections wait and reconnect forever, as BullMQ requires. On a cluster the same options
// apply to the connection of every node, and BullMQ duplicates the client for its blocking commands.
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from "ioredis";
import type { RedisConfig } from "../config/redis-schema.ts";
import type { RedisClient } from "../store/redis-client.ts";

/** Where to connect: the parts of `redis` config that say so. */
export type RedisTarget = Pick<RedisConfig, "url" | "cluster">;

// Reconnect quickly but without hammering a Redis that is down.
const backoff = (times: number): number => Math.min(100 * times, 2000);

const COMMON: RedisOptions = { lazyConnect: true, retryStrategy: backoff };

const COMMAND: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 5000,
};

const WORKER: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: false };

/** A seed URL as ioredis Cluster takes it, and the credentials and TLS every node connection uses. */
function seedOf(url: string): { host: string; port: number; auth: RedisOptions } {
  const u = new URL(url);
  const auth: RedisOptions = {};
  if (u.username) auth.username = decodeURIComponent(u.username);
  if (u.password) auth.password = decodeURIComponent(u.password);
  if (u.protocol === "rediss:") auth.tls = {};
  return { host: u.hostname || "127.0.0.1", port: Number(u.port || 6379), auth };
}

/** A cluster's offline queue is its own option (ioredis always queues on the node connections). */
function withoutOfflineQueue(options: RedisOptions): Omit<RedisOptions, "enableOfflineQueue"> {
  const { enableOfflineQueue: _cluster, ...rest } = options;
  return rest;
}

function connect(target: RedisTarget, options: RedisOptions, offlineQueue: boolean): RedisClient {
  const nodes = target.cluster?.nodes;
  if (!nodes) return new Redis(target.url, { ...COMMON, ...options });
  const seeds = nodes.map(seedOf);
  const cluster: ClusterOptions = {
    lazyConnect: true,
    enableOfflineQueue: offlineQueue,
    clusterRetryStrategy: backoff,
    // The nodes announce themselves by address: connect to what they say, with the seeds' credentials.
    redisOptions: { ...seeds[0]?.auth, ...withoutOfflineQueue(options) },
  };
  return new Cluster(
    seeds.map(({ host, port }) => ({ host, port })),
    cluster,
  );
}

/** For request paths and producers: no offline queue, bounded command time. */
export function createCommandRedis(target: RedisTarget, name = "switchyard"): RedisClient {
  return connect(target, { ...COMMAND, connectionName: name }, false);
}

/** For BullMQ workers and schedulers: blocking commands, retried across reconnects. */
export function createWorkerRedis(target: RedisTarget, name = "switchyard-worker"): RedisClient {
  return connect(target, { ...WORKER, connectionName: name }, true);
}

/** What to call the target in messages (without credentials). */
export function describeRedis(target: RedisTarget): string {
  const nodes = target.cluster?.nodes;
  return nodes
    ? `the Redis Cluster at ${nodes.map(safeRedisUrl).join(", ")}`
    : `Redis at ${safeRedisUrl(target.url)}`;
}

/** Connect, or throw a message that names the target (without credentials). */
export async function connectRedis(redis: RedisClient, target: RedisTarget): Promise<void> {
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(`cannot reach ${describeRedis(target)}: ${(err as Error).message}`);
  }
}

export function safeRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//***@");
}
