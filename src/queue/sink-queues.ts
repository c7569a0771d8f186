// Producer side of the per-sink queues: one BullMQ Queue per sink on one shared connection,
// and the enqueue step of ingest, recovery and replay.
import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { HookId } from "../domain/ids.ts";
import type { Keys } from "../store/keys.ts";
import {
  BACKOFF_TYPE,
  DELIVERY_JOB_NAME,
  type DeliveryJobData,
  deliveryJobId,
  sinkQueueName,
} from "./delivery-job.ts";

/** How long finished jobs stay visible in Bull Board; the hook record keeps the lasting state. */
const KEEP_COMPLETED = { age: 3600, count: 1000 };

export class SinkQueues {
  private readonly queues = new Map<string, Queue<DeliveryJobData>>();

  constructor(connection: Redis, keys: Keys, sinkNames: readonly string[]) {
    for (const sink of sinkNames) {
      this.queues.set(
        sink,
        new Queue<DeliveryJobData>(sinkQueueName(sink), { connection, prefix: keys.base }),
      );
    }
  }

  get(sink: string): Queue<DeliveryJobData> {
    const queue = this.queues.get(sink);
    if (!queue) throw new Error(`no queue for sink "${sink}"`);
    return queue;
  }

  all(): ReadonlyMap<string, Queue<DeliveryJobData>> {
    return this.queues;
  }

  /** Job options of a delivery: attempts from the source's retry policy, our own backoff, failed jobs kept (DLQ). */
  static jobOptions(hookId: HookId, sink: string, maxAttempts: number): JobsOptions {
    return {
      jobId: deliveryJobId(hookId, sink),
      attempts: maxAttempts,
      backoff: { type: BACKOFF_TYPE },
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: false,
    };
  }

  /**
   * Add one job per sink. Idempotent: a job id that exists is left as it is. Resolves when Redis has
   * acknowledged every add; the adds go out together, so this costs one round trip.
   */
  async enqueue(hookId: HookId, sinks: readonly string[], maxAttempts: number): Promise<void> {
    await Promise.all(
      sinks.map((sink) =>
        this.get(sink).add(
          DELIVERY_JOB_NAME,
          { hookId, sink },
          SinkQueues.jobOptions(hookId, sink, maxAttempts),
        ),
      ),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
