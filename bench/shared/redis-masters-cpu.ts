// Redis CPU of a whole backend, one Redis or every master of a cluster, for benchmarks that compare the
// two per hook: a cluster spreads the work over masters, so what it costs is the sum over them (INFO
// cpu, user + sys, of each master), and the commands they ran (INFO commandstats: calls and the µs
// spent in them, commands run by scripts included), which the cluster bus and a loaded machine disturb
// less. Replicas are left out: one Redis has none to compare with.
import type { Cluster, Redis } from "ioredis";

/** What one master has used so far. */
export interface MasterUse {
  readonly cpuUs: number;
  readonly calls: number;
  readonly cmdUs: number;
  /** Calls by command name (scripts' commands included), for the breakdown BENCH_DETAIL prints. */
  readonly byCommand: ReadonlyMap<string, number>;
  /** Bytes sent to replicas. */
  readonly replBytes: number;
}

async function useOf(server: Redis): Promise<MasterUse> {
  const [cpu, stats, counters] = await Promise.all([
    server.info("cpu"),
    server.info("commandstats"),
    server.info("stats"),
  ]);
  const field = (text: string, name: string): number =>
    Number(new RegExp(`${name}:([0-9.]+)`).exec(text)?.[1] ?? NaN);
  let calls = 0;
  let cmdUs = 0;
  const byCommand = new Map<string, number>();
  for (const m of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    byCommand.set(m[1] ?? "", Number(m[2]));
    calls += Number(m[2]);
    cmdUs += Number(m[3]);
  }
  return {
    cpuUs: (field(cpu, "used_cpu_user") + field(cpu, "used_cpu_sys")) * 1e6,
    calls,
    cmdUs,
    byCommand,
    replBytes: field(counters, "total_net_repl_output_bytes"),
  };
}

/** What each master (by address), or the one Redis, has used so far. */
export async function mastersUse(redis: Redis | Cluster): Promise<Map<string, MasterUse>> {
  const servers: Redis[] = "nodes" in redis ? redis.nodes("master") : [redis];
  const entries = await Promise.all(
    servers.map(async (s) => [`${s.options.host}:${s.options.port}`, await useOf(s)] as const),
  );
  return new Map(entries);
}

/** What each master used between two readings (one that was not a master at the first is left out). */
export function spent(
  before: ReadonlyMap<string, MasterUse>,
  after: ReadonlyMap<string, MasterUse>,
): MasterUse[] {
  return [...after].flatMap(([node, use]) => {
    const was = before.get(node);
    if (was === undefined) return [];
    const byCommand = new Map<string, number>();
    for (const [name, calls] of use.byCommand) byCommand.set(name, calls - (was.byCommand.get(name) ?? 0));
    return [
      {
        cpuUs: use.cpuUs - was.cpuUs,
        calls: use.calls - was.calls,
        cmdUs: use.cmdUs - was.cmdUs,
        byCommand,
        replBytes: use.replBytes - was.replBytes,
      },
    ];
  });
}

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
