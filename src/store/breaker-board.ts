// Where the sink breakers of every dispatch process can be read from. A sink's breaker lives in the
// memory of each worker process, so the API (often another process) cannot see it; each dispatch
// process writes its breakers to a hash of its own that expires unless refreshed, and lists itself in
// a set. A reader drops the set members whose hash has expired (a process that died without saying).
import type { RedisClient } from "./redis-client.ts";
import type { Keys } from "./keys.ts";

export type ReportedState = "closed" | "half_open" | "open";

/** One sink's breaker in one process. */
export interface SinkBreakerReport {
  readonly state: ReportedState;
  /** When the breaker last changed state (ms), as that process saw it. */
  readonly changedAt: number;
  /** End of the current open period (ms), when open. */
  readonly openUntil: number | undefined;
}

/** What one process reported, by sink name. */
export interface ProcessReport {
  readonly process: string;
  readonly sinks: ReadonlyMap<string, SinkBreakerReport>;
}

const STATES: ReadonlySet<string> = new Set(["closed", "half_open", "open"]);

function parseReport(raw: string): SinkBreakerReport | undefined {
  try {
    const v = JSON.parse(raw) as { state?: unknown; changed_at?: unknown; open_until?: unknown };
    if (typeof v.state !== "string" || !STATES.has(v.state) || typeof v.changed_at !== "number")
      return undefined;
    return {
      state: v.state as ReportedState,
      changedAt: v.changed_at,
      openUntil: typeof v.open_until === "number" ? v.open_until : undefined,
    };
  } catch {
    return undefined;
  }
}

export class BreakerBoard {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
  ) {}

  /** Write every sink breaker of `processId`; the report lapses `ttlMs` later unless written again. */
  async report(
    processId: string,
    sinks: ReadonlyMap<string, SinkBreakerReport>,
    ttlMs: number,
  ): Promise<void> {
    if (sinks.size === 0) return;
    const key = this.keys.breakerReport(processId);
    const fields: Record<string, string> = {};
    for (const [sink, r] of sinks) {
      fields[sink] = JSON.stringify({ state: r.state, changed_at: r.changedAt, open_until: r.openUntil });
    }
    await this.redis
      .multi()
      .hset(key, fields)
      .pexpire(key, ttlMs)
      .sadd(this.keys.breakerReporters, processId)
      .exec();
  }

  /** Take `processId`'s report down (it stopped). */
  async withdraw(processId: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.keys.breakerReport(processId))
      .srem(this.keys.breakerReporters, processId)
      .exec();
  }

  /** The reports of every live dispatch process. */
  async read(): Promise<ProcessReport[]> {
    const ids = (await this.redis.smembers(this.keys.breakerReporters)).sort();
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.breakerReport(id));
    const replies = (await pipeline.exec()) ?? [];
    const reports: ProcessReport[] = [];
    const gone: string[] = [];
    ids.forEach((id, i) => {
      const [err, raw] = replies[i] ?? [null, {}];
      if (err) throw err;
      const entries = Object.entries((raw ?? {}) as Record<string, string>);
      if (entries.length === 0) {
        gone.push(id);
        return;
      }
      const sinks = new Map<string, SinkBreakerReport>();
      for (const [sink, value] of entries) {
        const parsed = parseReport(value);
        if (parsed) sinks.set(sink, parsed);
      }
      reports.push({ process: id, sinks });
    });
    if (gone.length > 0) await this.redis.srem(this.keys.breakerReporters, ...gone);
    return reports;
  }
}
