// The BullMQ side of a delivery: queue names, job ids and job data. A job names its delivery row
// (whose id is also the job id, so every writer adds the same job) and the record that row delivers,
// so a claim reads both in one round trip; all state lives in the row.
import type { Target } from "../domain/delivery.ts";
import type { DeliveryId } from "../domain/ids.ts";

/** Job data of one delivery job: two immutable ids, never state. */
export interface DeliveryJobData {
  /** The delivery row. */
  readonly d: DeliveryId;
  /** The hook or event it delivers. */
  readonly p: string;
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
