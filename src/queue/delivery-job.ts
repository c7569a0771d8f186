// The BullMQ side of a delivery: queue names, job ids and job data. Jobs carry ids only; the hook
// record holds the truth. Job ids are deterministic so recovery and replay can re-add without duplicating.
import type { HookId, ReplayId } from "../domain/ids.ts";

/** Job data of one delivery job. */
export interface DeliveryJobData {
  readonly hookId: HookId;
  readonly sink: string;
  readonly replayId?: ReplayId;
}

/** BullMQ queue of one sink (queue names may not contain `:`; sink names cannot). */
export function sinkQueueName(sink: string): string {
  return `sink-${sink}`;
}

export const DELIVERY_JOB_NAME = "deliver";
export const BACKOFF_TYPE = "switchyard";

/** `<hook id>-<sink>`: one job per hook and sink, whoever adds it. */
export function deliveryJobId(hookId: HookId, sink: string): string {
  return `${hookId}-${sink}`;
}

const HOOK_ID_LENGTH = "hk_".length + 26;

/** The hook id and sink a delivery job id names, or undefined if it is not one. */
export function parseDeliveryJobId(jobId: string): { hookId: HookId; sink: string } | undefined {
  if (!jobId.startsWith("hk_") || jobId[HOOK_ID_LENGTH] !== "-") return undefined;
  return { hookId: jobId.slice(0, HOOK_ID_LENGTH) as HookId, sink: jobId.slice(HOOK_ID_LENGTH + 1) };
}
