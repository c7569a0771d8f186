// Redis CPU of a whole backend, one Redis or every master of a cluster, for benchmarks that compare the
// two per hook: a cluster spreads the work over masters, so what it costs is the sum over them (INFO
// cpu, user + sys, of each master). Replicas are left out: one Redis has none to compare with.
import type { Cluster, Redis } from "ioredis";
import { redisCpuUs } from "./measure.ts";

/** CPU µs used so far by each master (by address), or by the one Redis. */
export async function mastersCpuUs(redis: Redis | Cluster): Promise<Map<string, number>> {
  const servers: Redis[] = "nodes" in redis ? redis.nodes("master") : [redis];
  const entries = await Promise.all(
    servers.map(async (s) => [`${s.options.host}:${s.options.port}`, await redisCpuUs(s)] as const),
  );
  return new Map(entries);
}

/** CPU µs each master used between two readings (one that was not a master at the first is left out). */
export function cpuSpent(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number[] {
  return [...after].flatMap(([node, us]) => {
    const was = before.get(node);
    return was === undefined ? [] : [us - was];
  });
}

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
