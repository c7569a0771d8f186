// What the attempt runner and the targets know of a delivery a queue handed them: its id, the record it
// delivers, how often it was handed out. Nothing of the queue itself, so the runner does not depend on
// BullMQ's Job (which satisfies it as it is) and a queue of another kind can feed the same runner.
import type { DeliveryJobData } from "../queue/delivery-job.ts";

export interface DeliveryTicket {
  /** The delivery row's id (`dl_…`). */
  readonly id?: string | undefined;
  readonly data: DeliveryJobData;
  /** How many times the queue has handed this delivery out, this time included. */
  readonly attemptsStarted: number;
  /** When the queue handed it out (ms), where the queue records it. */
  readonly processedOn?: number | undefined;
}
