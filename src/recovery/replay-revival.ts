// A replay's record says `running` (or `paused`) but only its job on the replays queue ever moves it:
// if that job is lost (the API died between writing the record and adding the job, or someone removed
// it from the queue) or failed for good, the replay would stay `running` forever. Each recovery tick
// gives such replays their job back; the runner that takes it resumes from the record's cursor, so
// nothing is moved twice.
import type { ReplayId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { ReplayQueue } from "../queue/replay-queue.ts";
import type { ReplayStore } from "../store/replay-store.ts";

export interface ReplayRevivalDeps {
  readonly replays: Pick<ReplayStore, "list">;
  readonly replayQueue: Pick<ReplayQueue, "enqueue" | "queue">;
  readonly logger: Logger;
}

/** Unfinished replays looked at per tick, newest first (the rest wait for later ticks). */
const MAX_PER_TICK = 100;

/** Give every unfinished replay without a live job its job again; how many were revived. */
export async function reviveLostReplays(deps: ReplayRevivalDeps): Promise<number> {
  const { replays } = await deps.replays.list({
    limit: MAX_PER_TICK,
    filter: (r) => r.state === "running" || r.state === "paused",
  });
  let revived = 0;
  for (const replay of replays) {
    const id: ReplayId = replay.id;
    const state = await deps.replayQueue.queue.getJobState(id);
    if (state === "unknown") await deps.replayQueue.enqueue(id);
    else if (state === "failed") await (await deps.replayQueue.queue.getJob(id))?.retry("failed");
    else continue;
    revived += 1;
    deps.logger.warn({ replay_id: id, job: state }, "replay resumed: its job was lost or had failed");
  }
  return revived;
}
