// The Redis a chaos run stands on and the fault it suffers, behind one interface so the scenario need
// not know which: one redis-server with an fsync-always AOF, crashed and restarted on it; or a 6-node
// Redis Cluster (3 masters, 3 replicas) with durable acks (`durability.wait_replicas: 1`), whose
// masters are SIGKILLed and failed over to their replicas.
import { Cluster } from "ioredis";
import { PersistentRedis } from "../persistent-redis.ts";
import { type TestCluster, startTestCluster } from "../redis-cluster.ts";
import { type Fault, masterFailover, redisCrash } from "./faults.ts";
import { RedisProbe } from "./outages.ts";

export type RedisKind = "single" | "cluster";

export interface ChaosRedis {
  readonly kind: RedisKind;
  /** The gateway config's `redis` (without the prefix) and `durability` sections. */
  readonly config: { readonly redis: Record<string, unknown>; readonly durability: Record<string, unknown> };
  /** One line naming what runs, for the log. */
  readonly description: string;
  /** Writes every 100 ms on a connection of its own: when Redis was unavailable, seen from outside. */
  readonly probe: RedisProbe;
  /** The Redis fault: a crash left down `downMs`, or a master failover. */
  fault(downMs: number): Fault;
  /** How often the long mode fires it (a failover recovers faster than an AOF replays). */
  readonly everyMs: number;
  /** What Redis holds once drained, for the report. */
  sizes(): Promise<string>;
  stop(): Promise<void>;
}

const mib = (info: string, name: string): string => {
  const bytes = Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1]);
  return Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MiB` : "?";
};

async function single(): Promise<ChaosRedis> {
  const redis = await PersistentRedis.start();
  const probe = RedisProbe.single(redis.url);
  return {
    kind: "single",
    config: { redis: { url: redis.url }, durability: {} },
    description: `redis-server on port ${redis.port}, appendonly yes, appendfsync always`,
    probe,
    fault: (downMs) => redisCrash(redis, downMs),
    everyMs: 45_000,
    sizes: async () => {
      try {
        const info = (await probe.conn.info("persistence")) + (await probe.conn.info("memory"));
        return `AOF ${mib(info, "aof_current_size")}, memory ${mib(info, "used_memory")}`;
      } catch (err) {
        return `? (${(err as Error).message})`;
      }
    },
    stop: async () => {
      probe.stop();
      await redis.stop();
    },
  };
}

/**
 * cluster-node-timeout, as in the failover integration test: a master is taken for dead, and its
 * replica promoted, a few seconds after its kill even on a loaded 2-core machine.
 */
const NODE_TIMEOUT_MS = 1000;

async function cluster(): Promise<ChaosRedis> {
  const nodes: TestCluster = await startTestCluster({ nodeTimeoutMs: NODE_TIMEOUT_MS });
  let probe: RedisProbe;
  try {
    probe = await RedisProbe.cluster(nodes.ports);
  } catch (err) {
    await nodes.stop();
    throw err;
  }
  const masters = (await nodes.masters()).map((m) => m.port);
  return {
    kind: "cluster",
    config: {
      redis: { cluster: { nodes: nodes.seeds } },
      // The default timeout: a 503 a second after the write when a master has no replica in sync.
      durability: { wait_replicas: 1, wait_timeout_ms: 1000 },
    },
    description:
      `Redis Cluster of 6 nodes (masters ${masters.join(", ")}, a replica each, no persistence, ` +
      `cluster-node-timeout ${NODE_TIMEOUT_MS} ms), durability.wait_replicas 1`,
    probe,
    fault: () => masterFailover(nodes),
    everyMs: 30_000,
    sizes: async () => {
      const c = probe.conn;
      if (!(c instanceof Cluster)) return "?";
      try {
        const parts = await Promise.all(
          c
            .nodes("master")
            .map(
              async (n) =>
                `${n.options.port}: ${await n.dbsize()} keys, ${mib(await n.info("memory"), "used_memory")}`,
            ),
        );
        return `masters ${parts.sort().join("; ")}`;
      } catch (err) {
        return `? (${(err as Error).message})`;
      }
    },
    stop: async () => {
      probe.stop();
      await nodes.stop();
    },
  };
}

export function startChaosRedis(kind: RedisKind): Promise<ChaosRedis> {
  return kind === "cluster" ? cluster() : single();
}
