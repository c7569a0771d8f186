// One Redis, or a Redis Cluster: the stores, queues and gates take either (`RedisClient`). What differs
// lives here: a multi-key read is split into one pipeline per node on a cluster (a pipeline may only
// touch slots of one node), and per-server checks reach every master.
import type { ChainableCommander, Cluster, Redis } from "ioredis";
import { groupIndexes } from "./group-indexes.ts";
import { keySlot } from "./key-slot.ts";

/** A connection to one Redis or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

export function isCluster(redis: RedisClient): redis is Cluster {
  return redis.isCluster;
}

/** The cluster node (`host:port` of its master) serving `key`'s slot, or the slot when not yet known. */
function groupOf(cluster: Cluster, key: string): string {
  const slot = keySlot(key);
  return cluster.slots[slot]?.[0] ?? `slot:${slot}`;
}

/**
 * One command per key (`add` queues it on the pipeline given), sent as one pipeline on a single Redis
 * and as one pipeline per node on a cluster, all at once. Replies come back in the order of `keys`;
 * the first command error is thrown.
 */
export async function pipelineByNode(
  redis: RedisClient,
  keys: readonly string[],
  add: (pipe: ChainableCommander, key: string, index: number) => void,
): Promise<unknown[]> {
  if (keys.length === 0) return [];
  const groups = groupIndexes(keys, (key) => (isCluster(redis) ? groupOf(redis, key) : ""));
  const out: unknown[] = new Array<unknown>(keys.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const pipe = redis.pipeline();
      for (const i of indexes) add(pipe, keys[i] as string, i);
      const replies = (await pipe.exec()) ?? [];
      replies.forEach(([err, value], j) => {
        if (err) throw err;
        out[indexes[j] as number] = value;
      });
    }),
  );
  return out;
}

/** Every master of a cluster, or the one Redis (for per-server checks such as CONFIG GET). */
export function serversOf(redis: RedisClient): Redis[] {
  return isCluster(redis) ? redis.nodes("master") : [redis];
}
