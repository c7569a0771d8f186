// The BullMQ side of a delivery: queue names, job ids and job data. A job's id is its delivery row's id
// (so every writer adds the same job), and its data names the record that row delivers, so a claim
// reads both in one round trip; all state lives in the row.
import type { Job } from "bullmq";
import type { Target } from "../domain/delivery.ts";
import type { DeliveryId } from "../domain/ids.ts";

/**
 * Job data of one delivery job: the id of the hook or event delivered, immutable, never state. (The
 * job id is the delivery id; short data keeps the job hash in Redis's compact encoding.)
 */
export interface DeliveryJobData {
  readonly p: string;
  /** Outbound only: the endpoint, so its limits are checked before anything is read. */
  readonly e?: string;
}

/** A delivery job as a processor receives it. */
export type DeliveryJob = Job<DeliveryJobData, void, string>;

/** The delivery a job runs. */
export function deliveryOf(job: { readonly id?: string | undefined }): DeliveryId {
  if (job.id === undefined || !job.id.startsWith("dl_")) throw new Error(`not a delivery job: ${job.id}`);
  return job.id as DeliveryId;
}

/** BullMQ queue of one sink (queue names may not contain `:`; sink names cannot). */
export function sinkQueueName(sink: string): string {
  return `sink-${sink}`;
}

/** The shared queue every outbound endpoint's deliveries run on. */
export const OUTBOUND_QUEUE = "outbound";

/** The queue a delivery's job goes to. */
export function queueNameOf(target: Target): string {
  switch (target.kind) {
    case "sink":
      return sinkQueueName(target.name);
    case "endpoint":
      return OUTBOUND_QUEUE;
  }
}

export const DELIVERY_JOB_NAME = "deliver";
