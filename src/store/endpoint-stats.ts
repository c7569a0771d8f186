// Each outbound endpoint's health over the last hour and day, for its owners (the API and the portal):
// attempts, successes and attempt durations counted in per-minute buckets (kept an hour) and per-hour
// buckets (kept a day), each a small hash under the endpoint's own hash tag that expires by itself, so
// the stats cost a bounded few keys per endpoint and need no sweeping. Deleting an endpoint removes them.
import {
  type AttemptTally,
  type WindowStats,
  addBucket,
  durationBin,
  emptyTally,
  windowStats,
} from "../domain/attempt-stats.ts";
import { inGroups } from "./group-indexes.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import { type RedisClient, isCluster, pipelineByNode } from "./redis-client.ts";
import { TickBatch } from "./tick-batch.ts";

const endScript = new LuaScript("end-endpoint-attempts-n.lua", "n", { oneSlotOnClusterOnly: true });
/** The most attempts one call ends (it runs atomically: a bound on how long it holds Redis). */
const MAX_ENDS_PER_CALL = 128;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Buckets read: the last 60 minutes, the last 24 hours (the current, partial one included). */
const MINUTES = 60;
const HOURS = 24;
// Each bucket outlives its window by a margin, so a read at the window's edge still finds it.
const MINUTE_TTL_S = 3600 + 120;
const HOUR_TTL_S = 86_400 + 3600 + 120;

/** One attempt as the stats count it. */
export interface CountedAttempt {
  readonly ok: boolean;
  readonly at: number;
  readonly durationMs: number;
  /** The status code the endpoint answered, or the error class when it did not answer. */
  readonly outcome: string;
}

export interface EndpointStats {
  readonly last_hour: WindowStats;
  readonly last_day: WindowStats;
  /** The newest attempt's outcome within the day (status code, or error class without an answer). */
  readonly last_status: number | string | null;
  readonly last_attempt_at: number | null;
}

/** Every stats key an endpoint can have at `now` (for its deletion). */
export function endpointStatsKeys(keys: Keys, id: string, now: number): string[] {
  const minute = Math.floor(now / MINUTE_MS);
  const hour = Math.floor(now / HOUR_MS);
  const out: string[] = [];
  // One more of each than is read: a bucket lives a little past its window.
  for (let i = 0; i <= MINUTES + 2; i++) out.push(keys.endpointStats(id, "m", minute - i));
  for (let i = 0; i <= HOURS + 1; i++) out.push(keys.endpointStats(id, "h", hour - i));
  return out;
}

interface EndedAttempt {
  readonly id: string;
  readonly holder: string;
  readonly attempt: CountedAttempt;
}

export class EndpointStatsStore {
  private readonly ends: TickBatch<EndedAttempt, boolean>;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
  ) {
    // One call a tick on one Redis; on a cluster one per endpoint (its hash tag), at once.
    const perEndpoint = isCluster(redis);
    this.ends = new TickBatch(
      (batch) => inGroups(batch, perEndpoint ? (e) => e.id : () => "", (group) => this.endGroup(group)),
      MAX_ENDS_PER_CALL,
    );
  }

  /**
   * Count one attempt of endpoint `id` and give back the concurrency slot `holder` held for it (see
   * InflightGate), in one call: both are in the endpoint's hash tag, and both happen once an answer is
   * in. Resolves false if `holder` held no slot (already given back, or its lease lapsed). Attempts
   * that end within one tick go out together.
   */
  endAttempt(id: string, holder: string, attempt: CountedAttempt): Promise<boolean> {
    return this.ends.add({ id, holder, attempt });
  }

  private async endGroup(group: readonly EndedAttempt[]): Promise<boolean[]> {
    const keys: string[] = [];
    const args: (string | number)[] = [MINUTE_TTL_S, HOUR_TTL_S];
    for (const { id, holder, attempt: a } of group) {
      keys.push(
        this.keys.endpointGate(id, "inflight"),
        this.keys.endpointStats(id, "m", Math.floor(a.at / MINUTE_MS)),
        this.keys.endpointStats(id, "h", Math.floor(a.at / HOUR_MS)),
      );
      args.push(holder, a.ok ? 1 : 0, durationBin(a.durationMs), a.outcome, a.at);
    }
    const replies = (await endScript.run(this.redis, keys, args)) as number[];
    return replies.map((released) => released === 1);
  }

  /** The last hour (by minute) and day (by hour) of endpoint `id`, as of `now`. */
  async read(id: string, now = Date.now()): Promise<EndpointStats> {
    const minute = Math.floor(now / MINUTE_MS);
    const hour = Math.floor(now / HOUR_MS);
    const minuteKeys = Array.from({ length: MINUTES }, (_, i) =>
      this.keys.endpointStats(id, "m", minute - i),
    );
    const hourKeys = Array.from({ length: HOURS }, (_, i) => this.keys.endpointStats(id, "h", hour - i));
    const replies = (await pipelineByNode(this.redis, [...minuteKeys, ...hourKeys], (pipe, key) =>
      pipe.hgetall(key),
    )) as Record<string, string>[];
    const lastHour: AttemptTally = emptyTally();
    const lastDay: AttemptTally = emptyTally();
    let last: { status: string; at: number } | undefined;
    replies.forEach((fields, i) => {
      if (i < MINUTES) return addBucket(lastHour, fields);
      addBucket(lastDay, fields);
      const at = Number(fields.lt);
      if (fields.ls !== undefined && Number.isFinite(at) && (last === undefined || at > last.at))
        last = { status: fields.ls, at };
    });
    const status = last?.status;
    return {
      last_hour: windowStats(lastHour),
      last_day: windowStats(lastDay),
      last_status: status === undefined ? null : /^\d+$/.test(status) ? Number(status) : status,
      last_attempt_at: last?.at ?? null,
    };
  }
}
