// The workers of delivery, for both directions: a pool is given its queues and the attempt runner of
// its target (a sink's, or the endpoints'), so both directions share one close path and one stall
// handling. Its workers are BullMQ's, where an attempt's ending becomes BullMQ's
// (queue/bullmq/control.ts), or, with the ledger engine, ledger queue workers (ledger-worker.ts), which
// carry a park out as a `later` entry and leave a crashed worker's rows to recovery's watch sets.
//
// Stalls: a job whose worker died or lost its lock comes back, and its next claim counts the attempt
// the dead worker made; the retry policy in the ledger ends it (out of attempts, through the fenced
// ledger) like any other delivery. BullMQ's stall counter, kept over a job's whole life, never decides
// a death, so no job is failed behind the ledger's back and no unfenced write ever ends a row.
import { type Job, Worker } from "bullmq";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { DeliveryJobData } from "../queue/delivery-job.ts";
import { keepFinished } from "../queue/delivery-queues.ts";
import { closeWorker } from "../queue/bullmq/close-worker.ts";
import { carryOut } from "../queue/bullmq/control.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { AttemptRun } from "./attempt-runner.ts";
import type { LedgerQueues } from "../queue/ledger/ledger-queues.ts";
import { LedgerWorker } from "./ledger-worker.ts";
import { InFlightAttempts } from "./safe-deliver.ts";

/** BullMQ fails a job found stalled more often than this: far past any retry budget, so never. */
const NEVER_STALLED_OUT = 1_000_000_000;
/** After the deadline, how long cancelled attempts get to hand their rows back before workers are cut. */
const HAND_BACK_MS = 2000;

/** A worker of the pool, as `add` hands it out and `retire` takes it back. */
export interface PoolWorker {
  /** Stop taking work; resolves once its running attempts have ended. */
  close(): Promise<void>;
  /** Let go at once of whatever still runs (past the deadline and the hand-back). */
  cut(): Promise<void>;
  /** Its queue's hold may have changed (the target's breaker did): look again now. BullMQ: nothing to do. */
  wake(): void;
}
type PoolJob = Job<DeliveryJobData, void, string>;

export interface PoolQueue {
  readonly name: string;
  /** Attempts this process runs at once on the queue. */
  readonly concurrency: number;
  readonly processor: AttemptRun;
  /** Coordinates of the queue's log lines (its sink, say). */
  readonly log?: Readonly<Record<string, unknown>>;
  /** Ledger engine: until when (ms) the queue's target takes nothing (its sink's breaker is open). */
  readonly heldUntil?: () => number | undefined;
}

/** The ledger engine's queues, and a blocking connection of its own for each worker's doorbell wait. */
export interface LedgerPoolDeps {
  readonly queues: LedgerQueues;
  readonly blocking: (queue: string) => RedisClient;
}

export interface WorkerPoolDeps {
  readonly config: Config;
  readonly keys: Keys;
  /** BullMQ's connection (blocking commands, retried across reconnects). */
  readonly connection: RedisClient;
  readonly logger: Logger;
  /** Given: the pool runs ledger queue workers instead of BullMQ's. */
  readonly ledger?: LedgerPoolDeps;
}

export class WorkerPool {
  /** The attempts running in this pool's workers: a deadline cancels them, and they hand back their rows. */
  readonly inFlight = new InFlightAttempts();
  private readonly workers: PoolWorker[] = [];

  constructor(private readonly deps: WorkerPoolDeps) {}

  /** Start taking jobs from `queue`; the worker is the handle `retire` takes. */
  add(queue: PoolQueue): PoolWorker {
    const worker = this.deps.ledger ? this.ledgerWorker(queue, this.deps.ledger) : this.bullmqWorker(queue);
    this.workers.push(worker);
    return worker;
  }

  private ledgerWorker(queue: PoolQueue, ledger: LedgerPoolDeps): PoolWorker {
    const log = queue.log ?? { queue: queue.name };
    const worker = new LedgerWorker({
      queue: ledger.queues.queue(queue.name),
      blocking: ledger.blocking(queue.name),
      lanes: Math.max(1, queue.concurrency),
      run: queue.processor,
      onError: (err) => this.deps.logger.error({ ...log, err: err.message }, "worker error"),
      ...(queue.heldUntil ? { heldUntil: queue.heldUntil } : {}),
    });
    return { close: () => worker.close(), cut: async () => {}, wake: () => worker.wake() };
  }

  private bullmqWorker(queue: PoolQueue): PoolWorker {
    const { config, keys, connection, logger } = this.deps;
    const lockMs = config.dispatch.lock_ms;
    const run = queue.processor;
    const processor = async (job: PoolJob, token?: string): Promise<void> =>
      carryOut(job, token, await run(job, token));
    const worker = new Worker<DeliveryJobData, void, string>(queue.name, processor, {
      connection,
      prefix: keys.queuePrefix(queue.name),
      concurrency: Math.max(1, queue.concurrency),
      // A dead worker's jobs come back after at most lock + stalled interval (within 15 s by default).
      lockDuration: lockMs,
      stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
      maxStalledCount: NEVER_STALLED_OUT,
      ...keepFinished(config.retention_s),
    });
    const log = queue.log ?? { queue: queue.name };
    worker.on("error", (err) => logger.error({ ...log, err: err.message }, "worker error"));
    return { close: () => closeWorker(worker), cut: () => closeWorker(worker, true, 0), wake: () => {} };
  }

  /** Stop one worker of the pool once its running attempts finish (a drained queue's, say). */
  async retire(worker: PoolWorker): Promise<void> {
    const at = this.workers.indexOf(worker);
    if (at < 0) return;
    this.workers.splice(at, 1);
    await worker.close();
  }

  /**
   * Stop taking jobs and let running attempts finish; when `deadline` aborts, cancel what still runs
   * (each attempt hands its row back unattempted through the fenced ledger, for a successor or another
   * worker), give the hand-backs a moment, then cut the workers.
   */
  async stop(deadline: AbortSignal): Promise<void> {
    const graceful = Promise.all(this.workers.map((w) => w.close()));
    const aborted = new Promise<"deadline">((resolve) => {
      if (deadline.aborted) resolve("deadline");
      else deadline.addEventListener("abort", () => resolve("deadline"), { once: true });
    });
    if ((await Promise.race([graceful, aborted])) !== "deadline") return;
    this.inFlight.cancelAll();
    await Promise.race([graceful, new Promise((r) => setTimeout(r, HAND_BACK_MS).unref())]);
    // The graceful close above already gave each worker's start its time.
    await Promise.all(this.workers.map((w) => w.cut()));
  }
}

/** Stop every pool of a process together, under the one deadline. */
export async function stopPools(pools: readonly WorkerPool[], deadline: AbortSignal): Promise<void> {
  await Promise.all(pools.map((pool) => pool.stop(deadline)));
}
