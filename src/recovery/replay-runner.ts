// The worker side of replays: a BullMQ Worker on the `replays` queue, started by the recovery role.
// One job per replay; the processor walks the DLQ in rate-limited batches, and each batch is
// announced (begin) → moved (idempotent per entry) → committed (counters + cursor, atomically),
// all fenced by the job's lock. If the process dies, BullMQ's stalled-job check hands the job to
// another runner, which finishes the announced batch first and then carries on from the cursor.
import { DelayedError, type Job, Worker } from "bullmq";
import type { RedisClient } from "../store/redis-client.ts";
import type { Config } from "../config/schema.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { ReplayCursor } from "../domain/replay.ts";
import type { Logger } from "../observability/logger.ts";
import type { DeliveryQueueing } from "../queue/delivery-queueing.ts";
import { REPLAY_QUEUE, type ReplayJobData, type ReplayQueue } from "../queue/replay-queue.ts";
import { closeWorker } from "../queue/bullmq/close-worker.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { DlqStore } from "../store/dlq-store.ts";
import type { Keys } from "../store/keys.ts";
import type { ReplayRecord, ReplayStore } from "../store/replay-store.ts";
import { moveEntry } from "./replay-mover.ts";
import { TokenBucket, batchSize } from "./replay-rate.ts";
import { nextBatch } from "./replay-scan.ts";

export interface ReplayRunnerDeps {
  readonly config: Config;
  readonly keys: Keys;
  readonly replays: ReplayStore;
  readonly replayQueue: ReplayQueue;
  readonly dlq: DlqStore;
  readonly ledger: DeliveryStore;
  readonly queues: DeliveryQueueing;
  readonly logger: Logger;
  /** Connection of the replay worker (blocking commands, retried across reconnects). */
  readonly connection: RedisClient;
  /** Replays run at once per process. */
  readonly concurrency?: number;
}

/** How often a paused replay looks at its state again; also bounds how long resume takes. */
const PAUSE_RECHECK_MS = 500;
/**
 * Longest sleep between state checks: pause and cancel take effect within about this. A replay with
 * longer to wait for its rate hands its job back, due when it may move again, rather than hold a runner
 * idle: a slow replay costs the runners nothing between its steps.
 */
const MAX_NAP_MS = 250;
/**
 * How long a replay holds a runner while other replays are waiting for one: then it goes to the back of
 * the queue. With each tenant's live replays capped (replays.max_per_tenant) this bounds how long any
 * tenant's replay waits for its first step, whatever another tenant has queued.
 */
const TURN_MS = 1000;

/** Thrown when another runner has taken the replay over: this one must stop writing. */
class LostLock extends Error {}

type ReplayJob = Job<ReplayJobData, void, string>;

export class ReplayRunner {
  private worker: Worker<ReplayJobData, void, string> | undefined;
  private closing = false;

  constructor(private readonly deps: ReplayRunnerDeps) {}

  start(): void {
    const { config, keys, logger } = this.deps;
    const lockMs = config.dispatch.lock_ms;
    this.worker = new Worker<ReplayJobData, void, string>(
      REPLAY_QUEUE,
      (job, token) => this.process(job, token),
      {
        connection: this.deps.connection,
        prefix: keys.queuePrefix(REPLAY_QUEUE),
        concurrency: this.deps.concurrency ?? 4,
        lockDuration: lockMs,
        stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
        // A replay survives as many runner crashes as it takes.
        maxStalledCount: 1000,
      },
    );
    this.worker.on("error", (err) => logger.warn({ err: err.message }, "replay worker error"));
    this.worker.on("failed", (job, err) =>
      logger.error({ replay_id: job?.id, err: err.message }, "replay job failed"),
    );
  }

  /** Running replays hand their jobs back (to be resumed by any runner); then the worker closes. */
  async close(graceMs = 25_000): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (worker) {
      const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
      if ((await Promise.race([closeWorker(worker), timeout])) === "timeout")
        await closeWorker(worker, true, 0);
    }
  }

  private async process(job: ReplayJob, token: string | undefined): Promise<void> {
    if (token === undefined) throw new Error("replay job processed without a lock token");
    const record = await this.deps.replays.get(job.data.replayId);
    if (!record) return; // expired or deleted: nothing to do
    try {
      await new ReplayRun(this.deps, record, job, token, () => this.closing).execute();
    } catch (err) {
      if (err instanceof LostLock) {
        this.deps.logger.warn({ replay_id: record.id }, "replay taken over by another runner; stopping here");
      }
      throw err;
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One runner's turn at one replay, from wherever the record says it got to. */
class ReplayRun {
  private cursor: ReplayCursor | null;

  constructor(
    private readonly deps: ReplayRunnerDeps,
    private readonly record: ReplayRecord,
    private readonly job: ReplayJob,
    private readonly token: string,
    private readonly closing: () => boolean,
  ) {
    this.cursor = record.cursor;
  }

  async execute(): Promise<void> {
    const { replays, dlq, replayQueue } = this.deps;
    const r = this.record;
    const log = this.deps.logger.child({ replay_id: r.id });
    if (r.inflight) {
      // A runner died between announcing this batch and committing it: finish it first.
      log.info({ entries: r.inflight.ids.length }, "resuming an interrupted replay batch");
      await this.moveAndCommit(r.inflight.ids, r.inflight.end);
    }
    const want = batchSize(r.rate_per_s);
    const started = Date.now();
    // A replay taking up its turn again has earned its rate since its last step, or since it was
    // created (at most one batch): a hand-back, due when the next step may go, loses no pace.
    const earned = ((started - r.updated_at) * r.rate_per_s) / 1000;
    const bucket = new TokenBucket(r.rate_per_s, want, started, earned);
    for (;;) {
      if (this.closing()) await this.handBack(0, "runner stopping: handed back");
      const state = await replays.state(r.id);
      if (state === undefined) return;
      switch (state) {
        case "cancelled":
        case "done":
          await this.commit({ end: this.cursor, final: state });
          log.info({ state }, "replay ended");
          return;
        case "paused":
          await this.handBack(PAUSE_RECHECK_MS, "replay paused");
          break;
        case "running":
          break;
      }
      const wait = bucket.msUntil(want, Date.now());
      if (wait > MAX_NAP_MS) await this.handBack(wait, "waiting for its rate");
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      if (Date.now() - started >= TURN_MS && (await this.othersWaiting()))
        await this.handBack(0, "turn over: other replays are waiting");
      const batch = await nextBatch(dlq, r, this.cursor, want);
      const final = batch.exhausted ? "done" : undefined;
      if (batch.entries.length === 0) {
        await this.commit({ end: batch.end, ...(final ? { final } : {}) });
      } else {
        bucket.take(batch.entries.length, Date.now());
        const ids = batch.entries.map((e) => e.id);
        if (!(await replays.begin(r.id, replayQueue.lockKey(r.id), this.token, { ids, end: batch.end })))
          throw new LostLock();
        await this.moveAndCommit(ids, batch.end, final);
      }
      this.cursor = batch.end;
      if (final) {
        log.info("replay done");
        return;
      }
    }
  }

  private async moveAndCommit(
    ids: readonly string[],
    end: ReplayCursor | null,
    final?: "done",
  ): Promise<void> {
    const r = this.record;
    const { ledger, queues } = this.deps;
    const outcomes = await Promise.all(
      ids.map((id) => moveEntry(ledger, queues, id as DeliveryId, r.id, r.created_at)),
    );
    let moved = 0;
    outcomes.forEach((outcome, i) => {
      switch (outcome.kind) {
        case "moved":
          moved += 1;
          break;
        case "failed":
          this.deps.logger.warn(
            { replay_id: r.id, dlq_id: ids[i], reason: outcome.reason },
            "could not replay an entry",
          );
          break;
      }
    });
    await this.commit({
      end,
      matched: ids.length,
      moved,
      failed: ids.length - moved,
      ...(final ? { final } : {}),
    });
  }

  private async commit(step: {
    end: ReplayCursor | null;
    matched?: number;
    moved?: number;
    failed?: number;
    final?: "done" | "cancelled";
  }): Promise<void> {
    const lockKey = this.deps.replayQueue.lockKey(this.record.id);
    const ok = await this.deps.replays.commit(this.record, lockKey, this.token, {
      matched: 0,
      moved: 0,
      failed: 0,
      ...step,
    });
    if (!ok) throw new LostLock();
    this.cursor = step.end;
  }

  /** Replay jobs waiting for a runner (any tenant's). */
  private async othersWaiting(): Promise<boolean> {
    return (await this.deps.replayQueue.queue.getWaitingCount()) > 0;
  }

  /**
   * Give the job back to the queue, due in `ms` (behind the jobs already waiting): paused, waiting for
   * its rate, its turn is over, or this process is stopping.
   */
  private async handBack(ms: number, why: string): Promise<never> {
    await this.job.moveToDelayed(Date.now() + ms, this.token);
    throw new DelayedError(why);
  }
}
