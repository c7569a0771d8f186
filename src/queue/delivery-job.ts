// The BullMQ side of a delivery: queue names, job ids and job data. A job's id is its delivery row's id
// (so every writer adds the same job), and its data names the record that row delivers, so a claim
// reads both in one round trip; all state lives in the row.
import type { Job } from "bullmq";
import type { Target } from "../domain/delivery.ts";
import { type DeliveryId, fnv1a } from "../domain/ids.ts";

/**
 * Job data of one delivery job: the id of the hook or event delivered, immutable, never state. (The
 * job id is the delivery id; short data keeps the job hash in Redis's compact encoding.)
 */
export interface DeliveryJobData {
  readonly p: string;
  /** Outbound only: the endpoint, so its limits are checked before anything is read. */
  readonly e?: string;
}

/** The data a delivery carries on its queue: its parent, and for an endpoint the endpoint. */
export function jobDataOf(row: { readonly parentId: string; readonly target: Target }): DeliveryJobData {
  return row.target.kind === "endpoint" ? { p: row.parentId, e: row.target.id } : { p: row.parentId };
}

/** A delivery job as a processor receives it. */
export type DeliveryJob = Job<DeliveryJobData, void, string>;

/** The delivery a job runs. */
export function deliveryOf(job: { readonly id?: string | undefined }): DeliveryId {
  if (job.id === undefined || !job.id.startsWith("dl_")) throw new Error(`not a delivery job: ${job.id}`);
  return job.id as DeliveryId;
}

/**
 * BullMQ queue of one partition of a sink: `sink-<name>` for the first (the only one of a sink with one
 * partition), `sink-<name>.<n>` for the others. Queue names may not contain `:` and sink names cannot;
 * nor can they contain `.`, so no sink's queue is another's partition.
 */
export function sinkQueueName(sink: string, partition = 0): string {
  return partition === 0 ? `sink-${sink}` : `sink-${sink}.${partition}`;
}

/** The queues of a sink with `partitions` partitions. */
export function sinkQueueNames(sink: string, partitions: number): string[] {
  return Array.from({ length: partitions }, (_, p) => sinkQueueName(sink, p));
}

/** The shared queue every outbound endpoint's deliveries run on. */
export const OUTBOUND_QUEUE = "outbound";

/**
 * The queue of one storage bucket of a sink's (`sink-<name>`) or the outbound (`outbound`) queue, on a
 * cluster whose queues are aligned with buckets: `<queue>.b<bucket>`. Its keys take the bucket's hash
 * tag (Keys#queuePrefix); a partition's suffix is digits only, so the two never meet.
 */
export function bucketQueueName(queue: string, bucket: number): string {
  return `${queue}.b${bucket}`;
}

/** How many queue partitions each sink has (`sinks.<name>.partitions`); a sink not named has one. */
export type SinkPartitions = Readonly<Record<string, number>>;

export function sinkPartitionsOf(
  sinks: Readonly<Record<string, { readonly partitions?: number | undefined }>>,
): SinkPartitions {
  return Object.fromEntries(Object.entries(sinks).map(([name, sink]) => [name, sink.partitions ?? 1]));
}

/** Which of `partitions` a delivery's job goes to: fixed by its id, so every writer picks the same queue. */
export function partitionOf(id: DeliveryId, partitions: number): number {
  return partitions <= 1 ? 0 : fnv1a(id) % partitions;
}

/** The queue a delivery's job goes to. */
export function queueNameOf(target: Target, id: DeliveryId, partitions: SinkPartitions = {}): string {
  switch (target.kind) {
    case "sink":
      return sinkQueueName(target.name, partitionOf(id, partitions[target.name] ?? 1));
    case "endpoint":
      return OUTBOUND_QUEUE;
  }
}

/** Every delivery queue of a deployment: each partition of each sink, and the outbound queue. */
export function deliveryQueueNames(partitions: SinkPartitions): string[] {
  return [...Object.entries(partitions).flatMap(([sink, n]) => sinkQueueNames(sink, n)), OUTBOUND_QUEUE];
}

export const DELIVERY_JOB_NAME = "deliver";
