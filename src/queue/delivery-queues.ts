// Producer side of the delivery queues: a BullMQ Queue per queue of the plan (queue-plan.ts: a sink's
// partitions and the outbound queue, or on a cluster each one's bucket queues), the enqueue step of
// ingest and publish, and `ensure`, which recovery and replay use to make a live row's job exist again
// whatever became of it.
import { type JobsOptions, Queue } from "bullmq";
import type { RedisClient } from "../store/redis-client.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { Keys } from "../store/keys.ts";
import type { JobLayout, JobWrite } from "../store/row-write.ts";
import { queueKeysOf, standardJobWrite } from "./bullmq/job-layout.ts";
import { DELIVERY_JOB_NAME, type DeliveryJobData, jobDataOf } from "./delivery-job.ts";
import type { QueuePlan } from "./queue-plan.ts";
import type { DeliveryQueueing, EnsureOutcome, JobRef, QueueStateCounts } from "./delivery-queueing.ts";

export type { EnsureOutcome, JobRef } from "./delivery-queueing.ts";

/** Queue events kept for Bull Board and listeners; each costs Redis memory per job. */
const EVENTS_MAX_LEN = 1000;

/** Counted for the depth gate and the gauges. */
const COUNTED_STATES = ["wait", "delayed", "prioritized", "active", "failed", "completed"] as const;

/**
 * How long delivery workers keep finished jobs. A completed job is removed at once: its row in the
 * ledger keeps what happened, and keeping completed jobs (a sorted-set entry, the hash, trimming the
 * oldest) cost Redis ~12 µs per delivery, a quarter of BullMQ's work per job. Failed ones stay as long
 * as their dead row is kept (the recovery tick trims too), for Bull Board's retry button.
 */
export function keepFinished(retentionS: number): {
  removeOnComplete: { count: number };
  removeOnFail: { age: number };
} {
  return { removeOnComplete: { count: 0 }, removeOnFail: { age: retentionS } };
}

export class DeliveryQueues implements DeliveryQueueing, JobLayout {
  readonly engine = "bullmq";
  readonly writeMode = 1;
  private readonly queues = new Map<string, Queue<DeliveryJobData>>();
  /** Per queue, the keys an add names besides the job's own (the persist script's job write). */
  private readonly queueKeys = new Map<string, readonly string[]>();

  /** A queue for every queue of the plan. */
  constructor(
    private readonly connection: RedisClient,
    private readonly keys: Keys,
    readonly plan: QueuePlan,
  ) {
    for (const name of plan.all()) this.queue(name);
  }

  /** Whether a row's job is in its row's slot (always on one Redis; on a cluster aligned by bucket). */
  get sharesRowSlot(): boolean {
    return this.plan.byBucket;
  }

  private queue(name: string): Queue<DeliveryJobData> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue<DeliveryJobData>(name, {
        connection: this.connection,
        prefix: this.keys.queuePrefix(name),
        streams: { events: { maxLen: EVENTS_MAX_LEN } },
      });
      this.queues.set(name, queue);
      this.queueKeys.set(name, queueKeysOf(this.keyBase(name)));
    }
    return queue;
  }

  /** The queue of a delivery's job (its target's, its partition's), if this process knows it. */
  forRow(row: Pick<JobRef, "id" | "target">): Queue<DeliveryJobData> | undefined {
    return this.queues.get(this.plan.queueOf(row.target, row.id));
  }

  /** The Redis key of a delivery's job (in its queue's hash tag, so on its queue's cluster node). */
  jobKey(row: Pick<JobRef, "id" | "target">): string {
    return this.keyBase(this.queueNameOf(row)) + row.id;
  }

  /** What every key of a queue starts with: `<prefix>:<queue>:`. */
  private keyBase(queue: string): string {
    return `${this.keys.queuePrefix(queue)}:${queue}:`;
  }

  /** Name of the queue of a delivery's job. */
  queueNameOf(row: Pick<JobRef, "id" | "target">): string {
    return this.plan.queueOf(row.target, row.id);
  }

  /** A row's job, for the persist script to write as `enqueue` would add it. */
  jobWrite(row: JobRef): JobWrite {
    const name = this.queueNameOf(row);
    const keys = this.queueKeys.get(name);
    if (!keys) throw new Error(`no queue for ${name}`);
    return standardJobWrite(this.keyBase(name), keys, row.id, jobDataOf(row));
  }

  all(): ReadonlyMap<string, Queue<DeliveryJobData>> {
    return this.queues;
  }

  has(row: Pick<JobRef, "id" | "target">): boolean {
    return this.forRow(row) !== undefined;
  }

  writtenKey(row: Pick<JobRef, "id" | "target">): string {
    return this.jobKey(row);
  }

  async forgetDead(row: JobRef): Promise<void> {
    const job = await this.forRow(row)?.getJob(row.id);
    // Only the dead job goes: one that a replay has already sent back is live again.
    if (job && (await job.getState()) === "failed") await job.remove();
  }

  async counts(): Promise<Record<string, QueueStateCounts>> {
    // All at once: a cluster aligned by bucket has 16 queues a sink.
    const read = await Promise.all(
      [...this.queues].map(async ([name, queue]) => {
        const counts = await queue.getJobCounts(...COUNTED_STATES);
        return [name, Object.fromEntries(COUNTED_STATES.map((s) => [s, counts[s] ?? 0]))] as const;
      }),
    );
    return Object.fromEntries(read);
  }

  async trimFinished(ageMs: number, limit: number): Promise<number> {
    let jobs = 0;
    for (const queue of this.queues.values()) jobs += (await queue.clean(ageMs, limit, "failed")).length;
    return jobs;
  }

  boardQueues(): readonly Queue[] {
    return [...this.queues.values()];
  }

  /**
   * Options of a delivery job: its id is the row's, nothing else (how long finished jobs are kept is
   * the workers' setting, `keepFinished`), so the job hash stays small.
   */
  jobOptions(id: DeliveryId): JobsOptions {
    return { jobId: id };
  }

  /**
   * Add one job per row. Idempotent: a job id that exists is left as it is. Resolves when Redis has
   * acknowledged every add; the adds go out together, so this costs one round trip. (One addBulk per
   * queue and tick was tried: its ioredis pipeline costs more CPU to build than the adds it groups.)
   */
  async enqueue(rows: readonly JobRef[]): Promise<void> {
    await Promise.all(rows.map((row) => this.add(row)));
  }

  /** Remove the rows' jobs; one a worker holds (locked) or that is gone already is left as it is. */
  async discard(rows: readonly JobRef[]): Promise<void> {
    await Promise.all(
      rows.map(async (row) => {
        await this.forRow(row)?.remove(row.id);
      }),
    );
  }

  private async add(row: JobRef): Promise<void> {
    const queue = this.forRow(row);
    if (!queue) throw new Error(`no queue for ${this.queueNameOf(row)}`);
    await queue.add(DELIVERY_JOB_NAME, jobDataOf(row), this.jobOptions(row.id));
  }

  /**
   * Make sure a live row has a job that will run: a waiting, delayed or active one is left alone, a
   * failed or completed one (a replay revived the row) runs again, a missing one
   * (removed by hand, cleaned) is added.
   */
  async ensure(row: JobRef): Promise<EnsureOutcome> {
    const queue = this.forRow(row);
    if (!queue) throw new Error(`no queue for ${this.queueNameOf(row)}`);
    const state = await queue.getJobState(row.id);
    switch (state) {
      case "unknown":
        await this.add(row);
        return "added";
      case "failed":
      case "completed": {
        const job = await queue.getJob(row.id);
        if (job && state === "failed") {
          await job.retry("failed");
          return "retried";
        }
        await job?.remove();
        await this.add(row);
        return "added";
      }
      case "active":
      case "delayed":
      case "prioritized":
      case "waiting":
      case "waiting-children":
        return "exists";
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
