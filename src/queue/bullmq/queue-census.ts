// How many jobs a BullMQ queue holds in the states a move or a trim cares about, read from BullMQ's
// storage with plain length commands. A `Queue` object is not made for this, since making one writes
// the queue's meta key: a process looking for an older engine's jobs must not create queues that
// were never there.
import type { RedisClient } from "../../store/redis-client.ts";

/** The lists and sorted sets of a queue's jobs that nobody works on, by their key suffix. */
const WAITING = { wait: "list", paused: "list", prioritized: "zset", delayed: "zset" } as const;

/** Jobs of the queue whose keys start with `base` (`<prefix>:<queue>:`) waiting for a worker or a time. */
export async function waitingJobs(redis: RedisClient, base: string): Promise<number> {
  const lengths = await Promise.all(
    Object.entries(WAITING).map(([suffix, kind]) =>
      kind === "list" ? redis.llen(base + suffix) : redis.zcard(base + suffix),
    ),
  );
  return lengths.reduce((sum, n) => sum + n, 0);
}

/** Failed jobs the queue keeps (its failed set). */
export function failedJobs(redis: RedisClient, base: string): Promise<number> {
  return redis.zcard(`${base}failed`);
}
