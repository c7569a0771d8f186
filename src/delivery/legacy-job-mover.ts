// The ledger engine's side of a rolling upgrade (or of a switch from `dispatch.engine: bullmq`):
// BullMQ delivery jobs that processes of the older engine still add are moved onto ledger queues
// (queue/ledger/bullmq-import.ts), so none waits for a worker that is gone. Each BullMQ queue of
// either queue layout is counted every CHECK_MS, one command each; a deployment with nothing left there
// pays that and nothing more.
import type { Logger } from "../observability/logger.ts";
import { BullmqJobs } from "../queue/ledger/bullmq-import.ts";
import type { LedgerQueues } from "../queue/ledger/ledger-queues.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { PeriodicTask } from "../recovery/periodic-task.ts";

const CHECK_MS = 10_000;

export interface LegacyJobMoverDeps {
  readonly redis: RedisClient;
  readonly keys: Keys;
  /** Where the jobs go; its `legacyNames` are the BullMQ delivery queues looked in. */
  readonly queues: LedgerQueues;
  readonly logger: Logger;
  readonly checkMs?: number;
}

export class LegacyJobMover {
  private readonly jobs: BullmqJobs;
  private readonly task: PeriodicTask;
  private stopped = false;

  constructor(private readonly deps: LegacyJobMoverDeps) {
    this.jobs = new BullmqJobs(deps.redis, deps.keys);
    this.task = new PeriodicTask(() => this.check(), deps.checkMs ?? CHECK_MS);
  }

  /** Move what is there now (so jobs left by the older engine run at once), then every interval. */
  start(): Promise<void> {
    return this.task.startNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.task.stop();
    await this.jobs.close();
  }

  private async check(): Promise<void> {
    for (const name of this.deps.queues.legacyNames) {
      if (this.stopped) return;
      try {
        if ((await this.jobs.movable(name)) === 0) continue;
        const counts = await this.jobs.move(name, this.deps.queues);
        this.deps.logger.info({ queue: name, ...counts }, "moved BullMQ delivery jobs onto ledger queues");
      } catch (err) {
        this.deps.logger.warn({ queue: name, err: (err as Error).message }, "moving BullMQ jobs failed");
      }
    }
  }
}
