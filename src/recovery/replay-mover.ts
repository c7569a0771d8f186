// Moving one dead delivery back to its sink queue, idempotently. A runner that crashed may have done
// any prefix of (set replayId in the job's data → retry the failed job); the job itself says which:
//   - data.replayId is ours and the job is no longer failed → the retry happened;
//   - data.replayId is ours, the job is failed again, and it was processed after the replay's snapshot
//     → the retry happened and the delivery died again (its new DLQ entry is outside the snapshot);
//   - otherwise the retry has not happened yet, and doing it now is the first and only time.
import type { Job } from "bullmq";
import type { ReplayId } from "../domain/ids.ts";
import type { DeliveryJobData } from "../queue/delivery-job.ts";
import { parseDeliveryJobId } from "../queue/delivery-job.ts";
import type { SinkQueues } from "../queue/sink-queues.ts";

export type MoveOutcome = { readonly kind: "moved" } | { readonly kind: "failed"; readonly reason: string };

const MOVED: MoveOutcome = { kind: "moved" };
const failed = (reason: string): MoveOutcome => ({ kind: "failed", reason });

/** Has `replayId` already sent this job back to its queue? */
export function alreadyMoved(
  job: Pick<Job<DeliveryJobData>, "data" | "processedOn">,
  state: string,
  replayId: ReplayId,
  snapshotAt: number,
): boolean {
  if (job.data.replayId !== replayId) return false;
  return state !== "failed" || (job.processedOn ?? 0) > snapshotAt;
}

/**
 * Send the failed delivery job `jobId` back to its queue under `replayId`, with fresh attempts.
 * Safe to call again after a crash at any point: it moves the job at most once per replay.
 */
export async function moveEntry(
  queues: SinkQueues,
  jobId: string,
  replayId: ReplayId,
  snapshotAt: number,
): Promise<MoveOutcome> {
  const parsed = parseDeliveryJobId(jobId);
  if (!parsed) return failed("not a delivery job id");
  if (!queues.all().has(parsed.sink)) return failed(`sink "${parsed.sink}" is no longer configured`);
  const queue = queues.get(parsed.sink);
  const job = await queue.getJob(jobId);
  if (!job) return failed("the failed job no longer exists");
  const state = await job.getState();
  if (alreadyMoved(job, state, replayId, snapshotAt)) return MOVED;
  if (state !== "failed") return failed(`the job is ${state}, not failed`);
  if (job.data.replayId !== replayId) await job.updateData({ ...job.data, replayId });
  try {
    await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
    return MOVED;
  } catch (err) {
    // Someone else moved it between our look and our retry; ours only if it carries our id.
    const again = await queue.getJob(jobId);
    if (again && alreadyMoved(again, await again.getState(), replayId, snapshotAt)) return MOVED;
    return failed(`retry refused: ${(err as Error).message}`);
  }
}
