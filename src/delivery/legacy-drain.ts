// Jobs stored in the queues of the other queue layout (queue-plan.ts) are still delivered: those left
// behind when a cluster moves to bucket-aligned queues (an upgrade, or a switch of
// `redis.cluster.queues`), and those an older process still adds there during a rolling upgrade. Each
// such queue is counted every CHECK_MS and has a worker, running its direction's processor, only while
// it holds jobs: a deployment with nothing left there pays one count per queue per interval, not a
// blocking connection per queue.
import type { Logger } from "../observability/logger.ts";
import { pendingJobs, queueKeyBase } from "../queue/bullmq/queue-census.ts";
import type { QueuePlan } from "../queue/queue-plan.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { PeriodicTask } from "../recovery/periodic-task.ts";
import type { PoolQueue, PoolWorker, WorkerPool } from "./worker-pool.ts";

const CHECK_MS = 10_000;

interface Watched {
  readonly pool: WorkerPool;
  readonly queue: PoolQueue;
  worker?: PoolWorker;
}

export interface LegacyDrainDeps {
  /** The other layout's queues: where old jobs may wait. */
  readonly plan: QueuePlan;
  /** Where the counts are read (any command connection). */
  readonly redis: RedisClient;
  readonly keys: Keys;
  readonly logger: Logger;
  readonly checkMs?: number;
}

export class LegacyDrain {
  private readonly watched: Watched[] = [];
  private readonly task: PeriodicTask;
  private stopped = false;

  constructor(private readonly deps: LegacyDrainDeps) {
    this.task = new PeriodicTask(() => this.check(), deps.checkMs ?? CHECK_MS);
  }

  get plan(): QueuePlan {
    return this.deps.plan;
  }

  /** Give `queue` a worker in `pool` whenever it holds jobs. */
  watch(pool: WorkerPool, queue: PoolQueue): void {
    this.watched.push({ pool, queue });
  }

  /** Count once now (so jobs already there start at once), then every interval. */
  start(): Promise<void> {
    return this.task.startNow();
  }

  /** Stop counting (the pools stop their workers, retired or not, themselves). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
  }

  private async check(): Promise<void> {
    for (const w of this.watched) {
      if (this.stopped) return;
      try {
        const pending = await pendingJobs(this.deps.redis, queueKeyBase(this.deps.keys, w.queue.name));
        if (pending > 0 && !w.worker) {
          this.deps.logger.info(
            { queue: w.queue.name, jobs: pending },
            "draining jobs of the other queue layout",
          );
          w.worker = w.pool.add(w.queue);
        } else if (pending === 0 && w.worker) {
          const worker = w.worker;
          w.worker = undefined;
          await w.pool.retire(worker);
          this.deps.logger.info({ queue: w.queue.name }, "queue of the other layout drained");
        }
      } catch (err) {
        this.deps.logger.debug(
          { queue: w.queue.name, err: (err as Error).message },
          "legacy queue count failed",
        );
      }
    }
  }
}
