// The ledger engine's answer to BullMQ's stalled-job check: a row whose worker died (its lease lapsed,
// or it was popped and never claimed) is queued again within about `dispatch.lock_ms`, not at the next
// recovery tick (`recovery.interval_ms`, 30 s by default). Every dispatch process sweeps every half
// lock, under a short lock that lets one sweep run at a time cluster-wide; a sweep is one look at each
// bucket's watch set for rows due (Reconcile#recoverDue), so an idle deployment pays 16 range reads per
// interval. A sweep that dies holds the others off for one lock at most.
import type { Logger } from "../observability/logger.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { PeriodicTask } from "./periodic-task.ts";
import type { Reconcile } from "./reconcile.ts";
import { TickLock } from "./tick-lock.ts";

export interface LapseSweepDeps {
  readonly reconcile: Pick<Reconcile, "recoverDue">;
  readonly redis: RedisClient;
  /** The sweeps' lock key (one per deployment). */
  readonly lockKey: string;
  /** dispatch.lock_ms: the sweep runs every half of it (at least every second). */
  readonly lockMs: number;
  readonly logger: Logger;
}

export class LapseSweep {
  private readonly lock: TickLock;
  private readonly task: PeriodicTask;

  constructor(private readonly deps: LapseSweepDeps) {
    this.lock = new TickLock(deps.redis, deps.lockKey, deps.lockMs);
    this.task = new PeriodicTask(() => this.sweep(), Math.max(1000, Math.floor(deps.lockMs / 2)));
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  private async sweep(): Promise<void> {
    try {
      const outcome = await this.lock.withLock(() => this.deps.reconcile.recoverDue());
      if (outcome.ran && outcome.value.reenqueued > 0)
        this.deps.logger.info({ ...outcome.value }, "lapse sweep queued deliveries again");
    } catch (err) {
      this.deps.logger.debug({ err: (err as Error).message }, "lapse sweep failed");
    }
  }
}
