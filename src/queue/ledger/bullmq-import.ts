// BullMQ delivery jobs moved onto ledger queues: what a ledger-engine dispatch process does at start
// (jobs a stopped fleet of the older engine left) and goes on doing while processes of an older release
// may still add jobs (a rolling upgrade; delivery/legacy-job-mover.ts). A waiting job becomes a ready entry, a delayed one a `later` entry at its time;
// a job a worker holds is left to it (its row finishes there, or recovery takes it back from the
// ledger). A job whose row is gone or final is removed. A job is removed only after its entry is
// queued, so a crash between the two leaves both, and the next move finds the delivery queued already
// (a delivery is on its queue once) and only removes the job.
import { type Job, Queue } from "bullmq";
import type { DeliveryId } from "../../domain/ids.ts";
import { parseRow } from "../../store/delivery-row.ts";
import type { Keys } from "../../store/keys.ts";
import type { RedisClient } from "../../store/redis-client.ts";
import type { DeliveryJobData } from "../delivery-job.ts";
import { failedJobs, queueKeyBase, waitingJobs } from "../bullmq/queue-census.ts";
import type { DeliveryRow } from "../../domain/delivery.ts";
import type { QueuePlan } from "../queue-plan.ts";
import type { LedgerQueue } from "./ledger-queue.ts";

/** Job states a move takes: nobody holds these. */
const MOVABLE = ["wait", "paused", "prioritized", "delayed"] as const;
const PAGE = 500;

export interface ImportCounts {
  /** Jobs whose delivery now waits on its ledger queue. */
  moved: number;
  /** Jobs of rows gone or final, removed. */
  dropped: number;
  /** Jobs left where they are: their target is not configured (recovery dead-letters such rows). */
  left: number;
}

/** The ledger queues, as a move puts deliveries on them (LedgerQueues). */
export interface LedgerTarget {
  readonly plan: QueuePlan;
  has(row: Pick<DeliveryRow, "id" | "target">): boolean;
  queue(name: string): LedgerQueue;
}

/** The BullMQ delivery queues of a prefix, by name, read and emptied onto ledger queues. */
export class BullmqJobs {
  private readonly open = new Map<string, Queue<DeliveryJobData>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
  ) {}

  /** Jobs the queue `name` holds that nobody works on (what a move would take). */
  movable(name: string): Promise<number> {
    return waitingJobs(this.redis, this.base(name));
  }

  /** Remove failed jobs older than `ageMs` (an older engine's dead deliveries), at most `limit`. */
  async trimFailed(name: string, ageMs: number, limit: number): Promise<number> {
    if ((await failedJobs(this.redis, this.base(name))) === 0) return 0;
    return (await this.queue(name).clean(ageMs, limit, "failed")).length;
  }

  /** Move the waiting and delayed jobs of the queue `name` onto the ledger queues `to`. */
  async move(name: string, to: LedgerTarget): Promise<ImportCounts> {
    const counts: ImportCounts = { moved: 0, dropped: 0, left: 0 };
    const queue = this.queue(name);
    for (const state of MOVABLE) {
      // Moved and dropped jobs leave the set; a page starts after those that stay.
      let start = 0;
      for (;;) {
        const jobs = (await queue.getJobs([state], start, start + PAGE - 1, true)) as (
          Job<DeliveryJobData> | undefined
        )[];
        if (jobs.length === 0) break;
        for (const job of jobs) {
          const outcome = job ? await this.moveOne(job, to) : "left";
          counts[outcome]++;
          if (outcome === "left") start++;
        }
      }
    }
    return counts;
  }

  /** Remove the failed job `id` of the queue `name`, if an older engine left one (a dead delivery's). */
  async dropFailed(name: string, id: string): Promise<void> {
    if ((await this.redis.exists(this.base(name) + id)) === 0) return;
    const job = await this.queue(name).getJob(id);
    if (job && (await job.getState()) === "failed") await job.remove();
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((q) => q.close()));
    this.open.clear();
  }

  private async moveOne(job: Job<DeliveryJobData>, to: LedgerTarget): Promise<keyof ImportCounts> {
    const id = job.id as DeliveryId | undefined;
    if (!id?.startsWith("dl_")) return "left";
    const row = parseRow(id, await this.redis.hgetall(this.keys.delivery(id)));
    const live = row && row.state !== "delivered" && row.state !== "dead";
    if (live && !to.has(row)) return "left";
    if (live) {
      const entry = { id, data: job.data };
      const queue = to.queue(to.plan.queueOf(row.target, id));
      const runAt = job.timestamp + (job.delay ?? 0);
      if (runAt > Date.now()) await queue.park(entry, runAt);
      else await queue.push([entry]);
    }
    // Taken by a worker of the older release meanwhile (locked): it stays that worker's.
    await job.remove().catch(() => undefined);
    return live ? "moved" : "dropped";
  }

  private base(name: string): string {
    return queueKeyBase(this.keys, name);
  }

  private queue(name: string): Queue<DeliveryJobData> {
    let queue = this.open.get(name);
    if (!queue) {
      queue = new Queue<DeliveryJobData>(name, {
        connection: this.redis,
        prefix: this.keys.queuePrefix(name),
      });
      this.open.set(name, queue);
    }
    return queue;
  }
}
