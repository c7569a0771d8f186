// Which BullMQ queues a deployment's deliveries run on, and which of them a row's job goes to: one
// answer for every writer (ingest, fanout, recovery, replay) and every reader (workers, depth sampling,
// Bull Board). On one Redis a sink has its configured partitions, each its own hash tag. On a Redis
// Cluster aligned by bucket (`redis.cluster.queues: bucket`, the default) each sink, and the outbound
// direction, has one queue per storage bucket in that bucket's hash tag: a row and its job share a
// slot, so the script that creates the row writes its job too, as on one Redis.
import type { Target } from "../domain/delivery.ts";
import { BUCKETS, type DeliveryId, bucketOf } from "../domain/ids.ts";
import {
  OUTBOUND_QUEUE,
  type SinkPartitions,
  bucketQueueName,
  queueNameOf,
  sinkQueueName,
  sinkQueueNames,
  sinkPartitionsOf,
} from "./delivery-job.ts";

/** What the plan reads of the config. */
export interface QueuePlanConfig {
  readonly redis: { readonly cluster?: { readonly queues?: "bucket" | "partition" } | undefined };
  /** The ledger engine's queues are by bucket on a cluster whatever `queues` says (its pop and create need it). */
  readonly dispatch?: { readonly engine?: "bullmq" | "ledger" };
  readonly sinks: Readonly<Record<string, { readonly partitions?: number | undefined }>>;
}

const everyBucket = (queue: string): string[] =>
  Array.from({ length: BUCKETS }, (_, b) => bucketQueueName(queue, b));

export class QueuePlan {
  constructor(
    readonly partitions: SinkPartitions,
    /** Queues aligned with storage buckets (a cluster's default), rather than a sink's partitions. */
    readonly byBucket: boolean,
  ) {}

  static of(config: QueuePlanConfig): QueuePlan {
    const cluster = config.redis.cluster;
    const byBucket = (cluster?.queues ?? "bucket") === "bucket" || config.dispatch?.engine === "ledger";
    return new QueuePlan(sinkPartitionsOf(config.sinks), byBucket && !!cluster);
  }

  /** The queues of one sink. */
  sinkQueues(sink: string): string[] {
    return this.byBucket
      ? everyBucket(sinkQueueName(sink))
      : sinkQueueNames(sink, this.partitions[sink] ?? 1);
  }

  /** The queues of the outbound direction. */
  outboundQueues(): string[] {
    return this.byBucket ? everyBucket(OUTBOUND_QUEUE) : [OUTBOUND_QUEUE];
  }

  /** Every delivery queue: each sink's, then the outbound ones. */
  all(): string[] {
    return [
      ...Object.keys(this.partitions).flatMap((sink) => this.sinkQueues(sink)),
      ...this.outboundQueues(),
    ];
  }

  /** The queue a delivery's job goes to: its bucket's, or its partition's. */
  queueOf(target: Target, id: DeliveryId): string {
    if (!this.byBucket) return queueNameOf(target, id, this.partitions);
    const queue = target.kind === "sink" ? sinkQueueName(target.name) : OUTBOUND_QUEUE;
    return bucketQueueName(queue, bucketOf(id));
  }

  /** The same deployment's queues laid out the other way: where jobs from before a switch may wait. */
  other(): QueuePlan {
    return new QueuePlan(this.partitions, !this.byBucket);
  }
}
