// Reconcile, the body of a recovery tick: find live delivery rows nothing has touched for too long
// (pending past the stale horizon, a retry overdue, a send lease expired) and make sure each has a
// job that will run — the job may never have been added (a crash between persist and enqueue), or
// have been removed since (Bull Board, a queue clean). Each row is claimed with its own enqueue token
// and a short lease in one atomic step, so two sweeps never work on one row; delivery state,
// attempts and retry times are left as they are. Then trim what retention has released.
import { randomUUID } from "node:crypto";
import type { Config } from "../config/schema.ts";
import type { Target } from "../domain/delivery.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { DeliveryQueueing } from "../queue/delivery-queueing.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { DlqStore } from "../store/dlq-store.ts";

/** Tuning of one recovery tick. */
export interface ReconcileOptions {
  /** Rows looked at per tick (spread over the buckets); the rest wait for the next tick. */
  readonly batchLimit?: number;
  /** Rows worked on at once within a tick. */
  readonly concurrency?: number;
}

export interface ReconcileDeps {
  readonly config: Config;
  readonly ledger: DeliveryStore;
  readonly dlq: DlqStore;
  readonly queues: DeliveryQueueing;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** What one tick did. */
export interface RecoveryReport {
  /** Due rows looked at. */
  scanned: number;
  /** Jobs re-added or re-run. */
  reenqueued: number;
  /** Rows whose job was there and will run. */
  existing: number;
  /** Rows to a sink no longer configured: dead-lettered, since nothing can deliver them. */
  unknownSinks: number;
  /** Rows another sweep or a worker had claimed meanwhile. */
  skipped: number;
  /** DLQ index members and failed jobs removed by retention. */
  trimmed: number;
}

/** How long a recovery claim keeps other sweeps off a row while its job is being made. */
export const ENQUEUE_LEASE_MS = 30_000;
const DEFAULT_BATCH_LIMIT = 1000;
const DEFAULT_CONCURRENCY = 16;
/** Failed jobs removed per queue per tick, at most. */
const CLEAN_LIMIT = 1000;

export class Reconcile {
  private readonly batchLimit: number;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(
    private readonly deps: ReconcileDeps,
    opts: ReconcileOptions = {},
  ) {
    this.batchLimit = opts.batchLimit ?? DEFAULT_BATCH_LIMIT;
    this.concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.now = deps.now ?? Date.now;
  }

  /** One pass. Callers make sure two passes never overlap (they would only skip each other's rows). */
  async run(): Promise<RecoveryReport> {
    const report = await this.recoverDue();
    report.trimmed = await this.trim();
    return report;
  }

  /** The due rows alone, without the trim: a lapse sweep between ticks (lapse-sweep.ts). */
  async recoverDue(): Promise<RecoveryReport> {
    const report: RecoveryReport = {
      scanned: 0,
      reenqueued: 0,
      existing: 0,
      unknownSinks: 0,
      skipped: 0,
      trimmed: 0,
    };
    const { ledger } = this.deps;
    const buckets = ledger.keys.buckets;
    const perBucket = Math.max(10, Math.ceil(this.batchLimit / buckets.length));
    const now = this.now();
    const ids = (await Promise.all(buckets.map((b) => ledger.due(b, now, perBucket)))).flat();
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

  private async recoverOne(id: DeliveryId, report: RecoveryReport): Promise<void> {
    const { ledger, queues, logger } = this.deps;
    const token = randomUUID();
    const claim = await ledger.claimStale(id, token, ENQUEUE_LEASE_MS, this.now());
    if (claim.kind !== "claimed") {
      report.skipped++;
      return;
    }
    const target = claim.target;
    if (!target || !this.configured(target)) {
      report.unknownSinks++;
      await this.deadLetterUnroutable(id, token, target);
      return;
    }
    try {
      const outcome = await queues.ensure({ id, parentId: claim.parentId, target });
      await ledger.releaseStale(id, token, undefined, this.now());
      if (outcome === "exists") {
        report.existing++;
        return;
      }
      report.reenqueued++;
      const label = target.kind === "sink" ? target.name : "outbound";
      this.deps.metrics.recovered.inc({ sink: label });
      logger.info(
        { delivery_id: id, parent_id: claim.parentId, state: claim.state, outcome },
        "re-enqueued a stale delivery",
      );
    } catch (err) {
      const reason = (err as Error).message.slice(0, 1024);
      await ledger.releaseStale(id, token, reason, this.now()).catch(() => undefined);
      logger.warn({ delivery_id: id, err: reason }, "could not re-enqueue a stale delivery");
    }
  }

  private configured(target: Target): boolean {
    return target.kind === "endpoint" || target.name in this.deps.config.sinks;
  }

  /**
   * A row whose sink is gone from the config can never be delivered: it ends dead, as a config error,
   * written under this sweep's stale claim (`token`), so never over an attempt a worker took since.
   */
  private async deadLetterUnroutable(
    id: DeliveryId,
    token: string,
    target: Target | undefined,
  ): Promise<void> {
    const { ledger, metrics, logger } = this.deps;
    const row = await ledger.get(id);
    if (!row) return;
    const reason = `sink "${target?.kind === "sink" ? target.name : "?"}" is no longer configured`;
    const dead = { outcome: "dead", reason, errorClass: "permanent" } as const;
    if (!(await ledger.finish(row, { staleClaim: token }, dead, this.now()))) return;
    metrics.deadLettered.inc({
      source: row.source,
      sink: target?.kind === "sink" ? target.name : "unknown",
      error_class: "permanent",
    });
    logger.warn({ delivery_id: id, hook_id: row.parentId, reason }, "dead-lettered");
  }

  /** DLQ members and failed jobs older than retention. */
  private async trim(): Promise<number> {
    const { dlq, queues, config, metrics } = this.deps;
    const retentionMs = config.retention_s * 1000;
    const members = await dlq.trim(this.now() - retentionMs);
    const jobs = await queues.trimFinished(retentionMs, CLEAN_LIMIT);
    if (members > 0) metrics.trimmed.inc({ kind: "dlq_index" }, members);
    if (jobs > 0) metrics.trimmed.inc({ kind: "failed_job" }, jobs);
    return members + jobs;
  }
}
