// Redis's own account of a measurement: INFO commandstats, reset before the load and read after it, as
// calls and microseconds per delivered hook by command. It says where Redis's CPU went (which scripts,
// which commands inside them) where the CPU figure alone cannot. A script's time includes the commands
// it ran, and those are counted again under their own names.
import type { Redis } from "ioredis";

export interface CommandStat {
  readonly command: string;
  readonly callsPerHook: number;
  readonly usPerHook: number;
}

export async function resetCommandStats(redis: Redis): Promise<void> {
  await redis.config("RESETSTAT");
}

/** Every command Redis ran since the reset, per hook, most expensive first. */
export async function commandStatsPerHook(redis: Redis, hooks: number): Promise<CommandStat[]> {
  const per = Math.max(1, hooks);
  const stats: CommandStat[] = [];
  for (const line of (await redis.info("commandstats")).split("\n")) {
    const m = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (!m || m[1] === "info" || m[1] === "config|resetstat") continue;
    stats.push({ command: m[1]!, callsPerHook: Number(m[2]) / per, usPerHook: Number(m[3]) / per });
  }
  return stats.sort((a, b) => b.usPerHook - a.usPerHook);
}

/** The top `n` as table rows (shared/support.ts `table`). */
export function commandStatRows(stats: readonly CommandStat[], n = 15): Record<string, string>[] {
  return stats.slice(0, n).map((s) => ({
    command: s.command,
    "calls/hook": s.callsPerHook.toFixed(2),
    "µs/hook": s.usPerHook.toFixed(1),
  }));
}
