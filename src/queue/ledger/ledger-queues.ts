// The delivery queues of the ledger engine (`dispatch.engine: ledger`, docs/ledger-dispatch.md), one
// LedgerQueue per queue of the plan, behind the same producer interface as the BullMQ engine: rows are
// queued by the script that creates them (write mode 2 of create-row.lua), and recovery, replay and
// fanout resume push them again idempotently (the queue's members set). A queue of one bucket (a
// cluster) watches its bucket's rows; a queue on one Redis watches all sixteen buckets.
import type { Queue } from "bullmq";
import { BUCKETS } from "../../domain/ids.ts";
import type { Keys } from "../../store/keys.ts";
import { type RedisClient, isCluster } from "../../store/redis-client.ts";
import type { JobLayout, JobWrite } from "../../store/row-write.ts";
import { jobDataOf } from "../delivery-job.ts";
import type { DeliveryQueueing, EnsureOutcome, JobRef, QueueStateCounts } from "../delivery-queueing.ts";
import type { QueuePlan } from "../queue-plan.ts";
import { BullmqJobs } from "./bullmq-import.ts";
import { LedgerQueue } from "./ledger-queue.ts";
import { type QueueEntry, encodeEntry } from "./queue-entry.ts";

function entryOf(row: JobRef): QueueEntry {
  return { id: row.id, data: jobDataOf(row) };
}

export class LedgerQueues implements DeliveryQueueing, JobLayout {
  readonly engine = "ledger";
  readonly writeMode = 2;
  private readonly queues = new Map<string, LedgerQueue>();
  /** The BullMQ queues an older engine may have left jobs in (either queue layout on a cluster). */
  readonly legacyNames: readonly string[];
  private readonly legacy: BullmqJobs;
  /** On a cluster an older engine may have used either queue layout. */
  private readonly bothLayouts: boolean;

  /** `holdMs`: how long a popped row may go unclaimed before recovery looks at it (dispatch.lock_ms). */
  constructor(
    redis: RedisClient,
    keys: Keys,
    readonly plan: QueuePlan,
    holdMs: number,
  ) {
    const everyWatch = Array.from({ length: BUCKETS }, (_, b) => keys.watch(b));
    const add = (names: readonly string[]): void =>
      names.forEach((name, bucket) => {
        // A plan by bucket lists a direction's queues in bucket order (queue-plan.ts).
        const watch = plan.byBucket ? [keys.watch(bucket)] : everyWatch;
        this.queues.set(name, new LedgerQueue(redis, keys.queuePrefix(name), name, { keys: watch, holdMs }));
      });
    for (const sink of Object.keys(plan.partitions)) add(plan.sinkQueues(sink));
    add(plan.outboundQueues());
    this.bothLayouts = isCluster(redis);
    this.legacyNames = this.bothLayouts ? [...plan.all(), ...plan.other().all()] : plan.all();
    this.legacy = new BullmqJobs(redis, keys);
  }

  /** Queues on a cluster are always by bucket here, so a row and its queue share a slot. */
  get sharesRowSlot(): boolean {
    return true;
  }

  /** The queue called `name`, for its worker. */
  queue(name: string): LedgerQueue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`no ledger queue ${name}`);
    return queue;
  }

  private forRow(row: Pick<JobRef, "id" | "target">): LedgerQueue {
    return this.queue(this.plan.queueOf(row.target, row.id));
  }

  has(row: Pick<JobRef, "id" | "target">): boolean {
    return this.queues.has(this.plan.queueOf(row.target, row.id));
  }

  writtenKey(row: Pick<JobRef, "id" | "target">): string {
    return this.forRow(row).keys[0];
  }

  jobWrite(row: JobRef): JobWrite {
    const [ready, , bell, members] = this.forRow(row).keys;
    return { keys: [ready, bell, members], args: [encodeEntry(entryOf(row))] };
  }

  async enqueue(rows: readonly JobRef[]): Promise<void> {
    await Promise.all([...this.byQueue(rows)].map(([queue, entries]) => queue.push(entries)));
  }

  async discard(rows: readonly JobRef[]): Promise<void> {
    await Promise.all([...this.byQueue(rows)].map(([queue, entries]) => queue.discard(entries)));
  }

  async ensure(row: JobRef): Promise<EnsureOutcome> {
    const added = (await this.forRow(row).push([entryOf(row)])) === 1;
    // A row revived by a replay may have died under the BullMQ engine: its failed job goes, as a
    // retry of it would have taken it out of the failed set there.
    if (added) await this.forgetDead(row);
    return added ? "added" : "exists";
  }

  /** A dead row is on no ledger queue; an older engine may have kept its failed job, which goes. */
  async forgetDead(row: JobRef): Promise<void> {
    for (const name of this.legacyQueuesOf(row)) await this.legacy.dropFailed(name, row.id);
  }

  private legacyQueuesOf(row: JobRef): string[] {
    const here = this.plan.queueOf(row.target, row.id);
    return this.bothLayouts ? [here, this.plan.other().queueOf(row.target, row.id)] : [here];
  }

  async counts(): Promise<Record<string, QueueStateCounts>> {
    const read = await Promise.all(
      [...this.queues].map(async ([name, queue]) => {
        const { ready, later } = await queue.counts();
        return [name, { wait: ready, delayed: later }] as const;
      }),
    );
    return Object.fromEntries(read);
  }

  /**
   * Nothing finished stays on a ledger queue; what an older engine's BullMQ queues kept (failed jobs
   * of dead deliveries) goes after retention, as it did there.
   */
  async trimFinished(ageMs: number, limit: number): Promise<number> {
    let trimmed = 0;
    for (const name of this.legacyNames) trimmed += await this.legacy.trimFailed(name, ageMs, limit);
    return trimmed;
  }

  /** Ledger queues are not BullMQ's: the admin API and the portal list their deliveries. */
  boardQueues(): readonly Queue[] {
    return [];
  }

  async close(): Promise<void> {
    await this.legacy.close();
  }

  private byQueue(rows: readonly JobRef[]): Map<LedgerQueue, QueueEntry[]> {
    const groups = new Map<LedgerQueue, QueueEntry[]>();
    for (const row of rows) {
      const queue = this.forRow(row);
      const group = groups.get(queue);
      if (group) group.push(entryOf(row));
      else groups.set(queue, [entryOf(row)]);
    }
    return groups;
  }
}
