// What a Redis Cluster costs per hook before any of Switchyard's choices: the commands a hook's trip
// through the ledger runs (persist, pop, claim, outcome: the keys and command mix of the hot path), sent
// plain, no scripts, each step one pipeline on the keys of the hook's bucket tag, the same round trips on
// both backends. The Redis CPU it costs summed over the masters, over one Redis's, is the part of the
// cluster ratio no client can remove: the masters' per-command slot work, their replication feed and
// their cluster bus, on this machine's shared cores. Switchyard's own ratio sits beside it in the report.
import type { Cluster, Redis } from "ioredis";
import { mastersUse, spent, sum } from "../../shared/redis-masters-cpu.ts";
import { type ScaleResult, orNull } from "../../shared/result-types.ts";
import { median } from "../../shared/support.ts";

const BUCKETS = 16;
const IN_FLIGHT = 32;

export interface FloorFigures {
  /** Redis CPU µs per hook, summed over masters, from the first command to the last reply. */
  readonly redisUs: number;
  /** The same less what the masters spend idle over as long (cluster bus, replica pings). */
  readonly netUs: number;
}

/** One hook's trip: four pipelines, as the ledger's four hot-path scripts run per batch. */
async function trip(redis: Redis | Cluster, prefix: string, i: number, body: string): Promise<void> {
  const tag = `{${prefix}:${i % BUCKETS}}`;
  const [hook, row, watch] = [`${tag}:hook:${i}`, `${tag}:dl:${i}`, `${tag}:watch`];
  const [ready, members] = [`${tag}:q:ready`, `${tag}:q:members`];
  const now = Date.now();
  // Persist: dedup, the hook record, its row, the watch entry, the queue entry.
  await redis
    .pipeline()
    .set(`${tag}:dedup:${i}`, String(i), "EX", 600, "NX")
    .hset(hook, "body", body, "source", "bench", "received_at", now, "live", 1)
    .expire(hook, 600)
    .hset(row, "state", "pending", "hook", String(i), "attempts", 0)
    .expire(row, 600)
    .zadd(watch, now + 30_000, String(i))
    .lpush(ready, String(i))
    .sadd(members, String(i))
    .exec();
  // Pop: the entry leaves the queue, its watch entry moves.
  await redis
    .pipeline()
    .rpop(ready)
    .srem(members, String(i))
    .zadd(watch, "XX", now + 60_000, String(i))
    .exec();
  // Claim: read the row and the hook, take the lease.
  await redis
    .pipeline()
    .hmget(row, "state", "attempts", "hook")
    .hmget(hook, "body", "source", "received_at")
    .hset(row, "state", "sending", "lease", now + 60_000)
    .zadd(watch, now + 60_000, String(i))
    .exec();
  // Outcome: the row ends, the hook's live count drops, the watch entry goes.
  await redis
    .pipeline()
    .hmget(row, "state", "lease")
    .hset(row, "state", "delivered", "ended_at", now)
    .hincrby(hook, "live", -1)
    .hdel(row, "lease")
    .zrem(watch, String(i))
    .exec();
}

/**
 * Run `n` hooks' trips on `redis` (IN_FLIGHT at once) and return their Redis CPU per hook; the masters'
 * idle rate is read over `idleMs` first, with nothing running.
 */
export async function commandFloor(
  redis: Redis | Cluster,
  prefix: string,
  n: number,
  idleMs: number,
  body: string,
): Promise<FloorFigures> {
  const idle0 = await mastersUse(redis);
  await new Promise((r) => setTimeout(r, idleMs));
  const idleUsPerS = (sum(spent(idle0, await mastersUse(redis)).map((u) => u.cpuUs)) * 1000) / idleMs;
  const use0 = await mastersUse(redis);
  const startedAt = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < n; i = next++) await trip(redis, prefix, i, body);
    }),
  );
  const busyMs = Date.now() - startedAt;
  const redisUs = sum(spent(use0, await mastersUse(redis)).map((u) => u.cpuUs)) / n;
  return { redisUs, netUs: redisUs - (idleUsPerS * busyMs) / 1000 / n };
}

/** The two backends bench:scale compares. */
export type Backend = "one Redis" | "3-master cluster";

/** A per-round table row, in the columns of Switchyard's rows. */
export function floorRow(round: number, backend: Backend, f: FloorFigures): Record<string, string | number> {
  return {
    round,
    code: "plain commands",
    backend,
    workers: "-",
    "ingest/s": "-",
    "e2e/s": "-",
    "Redis µs/hook": Math.round(f.redisUs),
    "per master": "-",
    "idle µs/s": "-",
    "net µs/hook": Math.round(f.netUs),
    "cmds/hook": "-",
    "cmd µs/hook": "-",
  };
}

const medianOf = (fs: readonly FloorFigures[] | undefined, pick: (f: FloorFigures) => number): number =>
  median((fs ?? []).map(pick));

/** The medians over rounds and the cluster's ratio, in a sentence. */
export function floorSummary(floors: ReadonlyMap<Backend, readonly FloorFigures[]>): string {
  const [one, cluster] = [floors.get("one Redis"), floors.get("3-master cluster")];
  const ratio = (pick: (f: FloorFigures) => number): string =>
    (medianOf(cluster, pick) / medianOf(one, pick)).toFixed(2);
  return (
    "the same hot-path commands sent plain (no scripts, the same round trips on both), Redis µs/hook: " +
    `one Redis ${Math.round(medianOf(one, (f) => f.redisUs))}, cluster ${Math.round(medianOf(cluster, (f) => f.redisUs))}; ` +
    `cluster ÷ one ${ratio((f) => f.redisUs)} (net of idle ${ratio((f) => f.netUs)})`
  );
}

/** The result file's entries: medians and per-round figures by backend. */
export function floorResult(floors: ReadonlyMap<Backend, readonly FloorFigures[]>): ScaleResult["floor"] {
  return [...floors].map(([backend, fs]) => ({
    backend: backend === "one Redis" ? "one" : "cluster",
    redisUs: orNull(medianOf(fs, (f) => f.redisUs)),
    netUs: orNull(medianOf(fs, (f) => f.netUs)),
    rounds: fs.map((f) => ({ redisUs: orNull(f.redisUs) })),
  }));
}
