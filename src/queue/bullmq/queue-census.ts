// How many jobs a BullMQ queue holds in the states a move, a trim or a drain cares about, read from
// BullMQ's storage with plain length commands. A `Queue` object is not made for this, since making one
// writes the queue's meta key: a process looking for an older engine's jobs (or the other queue
// layout's) must not create queues that were never there.
import type { Keys } from "../../store/keys.ts";
import type { RedisClient } from "../../store/redis-client.ts";

/** Where the keys of the BullMQ queue `name` start (`<prefix>:<queue>:`): the `base` below. */
export function queueKeyBase(keys: Keys, name: string): string {
  return `${keys.queuePrefix(name)}:${name}:`;
}

/** The lists and sorted sets of a queue's jobs that nobody works on, by their key suffix. */
const WAITING = { wait: "list", paused: "list", prioritized: "zset", delayed: "zset" } as const;

/**
 * The jobs a worker would take or finish. A paused queue's waiting jobs are not counted: no worker
 * runs them.
 */
const PENDING = {
  wait: "list",
  active: "list",
  delayed: "zset",
  prioritized: "zset",
  "waiting-children": "zset",
} as const;

type Census = Readonly<Record<string, "list" | "zset">>;

async function count(redis: RedisClient, base: string, states: Census): Promise<number> {
  const lengths = await Promise.all(
    Object.entries(states).map(([suffix, kind]) =>
      kind === "list" ? redis.llen(base + suffix) : redis.zcard(base + suffix),
    ),
  );
  return lengths.reduce((sum, n) => sum + n, 0);
}

/** Jobs of the queue whose keys start with `base` (`<prefix>:<queue>:`) waiting for a worker or a time. */
export function waitingJobs(redis: RedisClient, base: string): Promise<number> {
  return count(redis, base, WAITING);
}

/** Jobs of the queue whose keys start with `base` that a worker would take or is running. */
export function pendingJobs(redis: RedisClient, base: string): Promise<number> {
  return count(redis, base, PENDING);
}

/** Failed jobs the queue keeps (its failed set). */
export function failedJobs(redis: RedisClient, base: string): Promise<number> {
  return redis.zcard(`${base}failed`);
}
