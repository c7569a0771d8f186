// Stale-lease recovery, the tick body: a process that crashed between persisting a hook and adding its
// sink jobs leaves the record in the `pending-enqueue` set. Once such a record is old enough that no
// ingest can still be working on it, re-add its missing jobs under their deterministic ids (so a job that
// does exist is never duplicated) and take it off the set.
import type { Config } from "../config/schema.ts";
import type { HookId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { deliveryJobId } from "../queue/delivery-job.ts";
import type { SinkQueues } from "../queue/sink-queues.ts";
import type { HookStore, StoredHook } from "../store/hook-store.ts";

/** Tuning of one recovery tick; the defaults are the SPEC's. */
export interface StaleRecoveryOptions {
  /** A record persisted longer ago than this, and still not marked enqueued, is stale. */
  readonly staleAfterMs?: number;
  /** Records looked at per tick, oldest first; the rest wait for the next tick. */
  readonly batchLimit?: number;
  /** Records worked on at once within a tick. */
  readonly concurrency?: number;
}

export interface StaleRecoveryDeps {
  readonly config: Config;
  readonly hooks: HookStore;
  readonly queues: SinkQueues;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** What one tick did. */
export interface RecoveryReport {
  /** Stale records looked at. */
  scanned: number;
  /** Sink jobs re-added. */
  reenqueued: number;
  /** Sink jobs found to exist already (ingest got as far as adding them). */
  existing: number;
  /** Records that had expired (retention passed) and were only dropped from the set. */
  expired: number;
  /** Deliveries to sinks that are no longer configured, which therefore cannot be re-added. */
  unknownSinks: number;
}

export const DEFAULT_STALE_AFTER_MS = 60_000;
const DEFAULT_BATCH_LIMIT = 1000;
const DEFAULT_CONCURRENCY = 16;

export class StaleRecovery {
  private readonly staleAfterMs: number;
  private readonly batchLimit: number;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(
    private readonly deps: StaleRecoveryDeps,
    opts: StaleRecoveryOptions = {},
  ) {
    this.staleAfterMs = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    this.batchLimit = opts.batchLimit ?? DEFAULT_BATCH_LIMIT;
    this.concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.now = deps.now ?? Date.now;
  }

  /** One pass over the oldest stale records. Callers make sure two passes never overlap. */
  async run(): Promise<RecoveryReport> {
    const report: RecoveryReport = { scanned: 0, reenqueued: 0, existing: 0, expired: 0, unknownSinks: 0 };
    const ids = await this.deps.hooks.pendingEnqueue(this.now() - this.staleAfterMs, this.batchLimit);
    report.scanned = ids.length;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < ids.length) {
        const id = ids[next++];
        if (id !== undefined) await this.recoverOne(id, report);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, ids.length) }, lane));
    return report;
  }

  private async recoverOne(id: HookId, report: RecoveryReport): Promise<void> {
    const stored = await this.deps.hooks.load(id);
    if (!stored) {
      report.expired++;
      await this.deps.hooks.forgetPending(id);
      return;
    }
    const missing = await this.missingJobs(stored, report);
    if (missing.length > 0) {
      const { config } = this.deps;
      const maxAttempts =
        config.sources[stored.hook.source]?.retry?.max_attempts ?? config.dispatch.retry.max_attempts;
      // Adding an id that exists is a no-op in BullMQ, so a job that appeared since we looked is safe.
      await this.deps.queues.enqueue(id, missing, maxAttempts);
      for (const sink of missing) this.deps.metrics.recovered.inc({ sink });
      report.reenqueued += missing.length;
      this.deps.logger.info(
        { hook_id: id, source: stored.hook.source, sinks: missing },
        "re-enqueued stale hook",
      );
    }
    await this.deps.hooks.markEnqueued(id);
  }

  /** Sinks of `stored` that no worker has touched and whose job does not exist. */
  private async missingJobs(stored: StoredHook, report: RecoveryReport): Promise<string[]> {
    const { hook } = stored;
    const queues = this.deps.queues.all();
    const missing: string[] = [];
    for (const sink of hook.sinks) {
      // Any state but pending was written by a worker running the job, so the job existed.
      if (stored.sinkStates[sink]?.state !== "pending") continue;
      const queue = queues.get(sink);
      if (!queue) {
        report.unknownSinks++;
        this.deps.logger.warn(
          { hook_id: hook.id, sink },
          "stale hook names a sink that is no longer configured",
        );
        continue;
      }
      if (await queue.getJob(deliveryJobId(hook.id, sink))) report.existing++;
      else missing.push(sink);
    }
    return missing;
  }
}
