// Where Switchyard keeps its state: one Redis (`redis.url`) or a Redis Cluster (`redis.cluster.nodes`),
// the key prefix, and how durable an acknowledgement is (`durability`).
import { z } from "zod";
import { strict } from "./unknown-keys.ts";
import { name, nonNegativeInt, positiveInt } from "./fields.ts";

const REDIS_URL = /^rediss?:\/\//;
const redisUrl = z.string().regex(REDIS_URL, "must be a redis:// or rediss:// URL");

export const redisSchema = strict
  .object({
    url: redisUrl.default("redis://127.0.0.1:6379"),
    prefix: name.default("sy"),
    /**
     * Seeds of a Redis Cluster (any few of its nodes; the client finds the rest). When set, every
     * connection is a cluster client and `url` is not used.
     */
    cluster: strict
      .object({
        nodes: z.array(redisUrl).min(1),
        /**
         * How delivery queues are laid out on the cluster. `bucket`: every sink, and the outbound
         * direction, has one queue per storage bucket (16), in that bucket's hash tag, so a row and its
         * job share a slot and ingest writes both in one script call; a sink's `partitions` is not used.
         * `partition`: a sink's `partitions` queues, each its own hash tag; jobs are added behind the
         * persist (one more round trip, on another master). Jobs left in the other layout's queues by
         * a switch are still delivered (the workers drain them).
         */
        queues: z.enum(["bucket", "partition"]).default("bucket"),
      })
      .optional(),
    /**
     * Refuse to start on a Redis whose maxmemory-policy could evict records (anything but
     * noeviction); off, it is a loud warning.
     */
    require_noeviction: z.boolean().default(false),
  })
  .prefault({});
export type RedisConfig = z.infer<typeof redisSchema>;

export const durabilitySchema = strict
  .object({
    /**
     * Replicas that must hold a hook before it is acknowledged (Redis WAIT); on a cluster, on the
     * master of every key written (the record's and each job's).
     */
    wait_replicas: nonNegativeInt.default(0),
    wait_timeout_ms: positiveInt.default(1000),
  })
  .prefault({});
