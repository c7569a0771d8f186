// The `recovery` role: registers the recovery job scheduler (`recovery.interval_ms`) on the
// maintenance queue and runs the ticks BullMQ hands to this process, each under the tick lock: reconcile,
// lost replays, unfinished fanouts, and the operational facts no process published (their writer died
// between the fact and its publish, or never marked its outbox).
import { type Job, type Queue, Worker } from "bullmq";
import type { RedisClient } from "../store/redis-client.ts";
import type { Keys } from "../store/keys.ts";
import { closeWorker } from "../queue/bullmq/close-worker.ts";
import {
  MAINTENANCE_QUEUE,
  type MaintenanceJobData,
  RECOVERY_JOB_NAME,
  RECOVERY_SCHEDULER_ID,
  createMaintenanceQueue,
} from "../queue/maintenance-queue.ts";
import { Reconcile, type ReconcileDeps, type ReconcileOptions, type RecoveryReport } from "./reconcile.ts";
import { type FanoutResumeDeps, resumeFanouts } from "./fanout-resume.ts";
import { type ReplayRevivalDeps, reviveLostReplays } from "./replay-revival.ts";
import { TickLock } from "./tick-lock.ts";

export interface RecoveryRunnerOptions extends ReconcileOptions {
  /** Time between ticks; `recovery.interval_ms` by default. */
  readonly intervalMs?: number;
  /** How long the tick lock outlives a holder that died mid-tick. */
  readonly lockMs?: number;
}

export interface RecoveryRunnerDeps extends ReconcileDeps, ReplayRevivalDeps, Omit<FanoutResumeDeps, "jobs"> {
  readonly keys: Keys;
  /** Command connection (scheduler registration, tick lock, the tick's own reads and writes). */
  readonly redis: RedisClient;
  /** Blocking connection for the maintenance worker. */
  readonly connection: RedisClient;
  /** The operational facts' drainer (src/operational/): every tick sweeps the outboxes. */
  readonly operational?: {
    readonly drainer: { sweep(): Promise<{ published: number; suppressed: number; failed: number }> };
  };
  /** Records switchyard.dlq.threshold for the DLQ indexes at or above it (dlq-threshold.ts); a count. */
  readonly dlqThresholds?: () => Promise<number>;
}

/** What a tick job returns (shown in Bull Board). */
export type TickOutcome =
  | ({
      ran: true;
      replaysRevived: number;
      fanoutsFinished: number;
      dlqThresholds: number;
      factsPublished: number;
    } & RecoveryReport)
  | { ran: false; reason: "locked" };

const DEFAULT_LOCK_MS = 60_000;
/** Finished ticks kept for Bull Board; the log and metrics keep the lasting record. */
const KEEP_TICKS = { age: 3600, count: 100 };

export class RecoveryRunner {
  private readonly recovery: Reconcile;
  private readonly lock: TickLock;
  private readonly intervalMs: number;
  private queue: Queue<MaintenanceJobData> | undefined;
  private worker: Worker<MaintenanceJobData, TickOutcome> | undefined;

  constructor(
    private readonly deps: RecoveryRunnerDeps,
    opts: RecoveryRunnerOptions = {},
  ) {
    this.recovery = new Reconcile(deps, opts);
    this.lock = new TickLock(deps.redis, deps.keys.recoveryLock, opts.lockMs ?? DEFAULT_LOCK_MS);
    this.intervalMs = opts.intervalMs ?? deps.config.recovery.interval_ms;
  }

  /** Register (or update) the scheduler and start taking ticks. Every recovery process calls this. */
  async start(): Promise<void> {
    const { keys, connection, logger } = this.deps;
    this.queue = createMaintenanceQueue(this.deps.redis, keys);
    await this.queue.upsertJobScheduler(
      RECOVERY_SCHEDULER_ID,
      { every: this.intervalMs },
      { name: RECOVERY_JOB_NAME, data: {}, opts: { removeOnComplete: KEEP_TICKS, removeOnFail: KEEP_TICKS } },
    );
    this.worker = new Worker<MaintenanceJobData, TickOutcome>(MAINTENANCE_QUEUE, (job) => this.tick(job), {
      connection,
      prefix: keys.queuePrefix(MAINTENANCE_QUEUE),
      concurrency: 1,
    });
    this.worker.on("error", (err) => logger.error({ err: err.message }, "maintenance worker error"));
    this.worker.on("failed", (job, err) =>
      logger.error({ tick: job?.id, err: err.message }, "recovery tick failed"),
    );
  }

  /** One tick: the recovery pass under the lock, and one log line saying what it did. */
  async tick(job: Pick<Job, "id">): Promise<TickOutcome> {
    const { logger } = this.deps;
    // Timed inside the lock, so the log shows exactly when this runner held it.
    const result = await this.lock.withLock(async () => {
      const startedAt = Date.now();
      const report = await this.recovery.run();
      const replaysRevived = await reviveLostReplays(this.deps);
      const fanoutsFinished = await resumeFanouts({ ...this.deps, jobs: this.deps.queues });
      const dlqThresholds = await this.checkDlqThresholds();
      const factsPublished = await this.sweepFacts();
      return {
        report: { ...report, replaysRevived, fanoutsFinished, dlqThresholds, factsPublished },
        startedAt,
        finishedAt: Date.now(),
      };
    });
    if (!result.ran) {
      logger.info({ tick: job.id }, "recovery tick skipped: another runner holds the lock");
      return { ran: false, reason: "locked" };
    }
    const { report, startedAt, finishedAt } = result.value;
    const line = { tick: job.id, ...report, started_at: startedAt, duration_ms: finishedAt - startedAt };
    // Idle ticks (every 30 s forever) stay out of the info log.
    if (
      report.scanned > 0 ||
      report.replaysRevived > 0 ||
      report.fanoutsFinished > 0 ||
      report.dlqThresholds > 0 ||
      report.factsPublished > 0
    )
      logger.info(line, "recovery tick");
    else logger.debug(line, "recovery tick");
    return { ran: true, ...report };
  }

  /** DLQ indexes over the threshold; like the sweep, a failure is logged and left for the next tick. */
  private async checkDlqThresholds(): Promise<number> {
    try {
      return (await this.deps.dlqThresholds?.()) ?? 0;
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message },
        "operational events: DLQ threshold check failed",
      );
      return 0;
    }
  }

  /** Publish what the outboxes hold; a failure is logged and left for the next tick, not the tick's end. */
  private async sweepFacts(): Promise<number> {
    try {
      return (await this.deps.operational?.drainer.sweep())?.published ?? 0;
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, "operational events: sweep failed");
      return 0;
    }
  }

  /** Stop taking ticks (a running one finishes). The scheduler stays: other processes run the ticks. */
  async close(): Promise<void> {
    if (this.worker) await closeWorker(this.worker);
    await this.queue?.close();
  }
}
