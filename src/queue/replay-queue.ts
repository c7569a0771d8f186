// The `replays` queue: one job per replay, handed by BullMQ to one runner at a time (and to another
// when that runner dies). The job's lock also fences the replay record's writes.
import { Queue } from "bullmq";
import type { RedisClient } from "../store/redis-client.ts";
import type { ReplayId } from "../domain/ids.ts";
import type { Keys } from "../store/keys.ts";

export const REPLAY_QUEUE = "replays";
export const REPLAY_JOB_NAME = "replay";

export interface ReplayJobData {
  readonly replayId: ReplayId;
}

/**
 * Replay jobs retry on errors (Redis away) for a while; the record keeps their progress meanwhile. A
 * finished job goes at once: its record (kept retention_s) says how it ended, and BullMQ removes aged
 * completed jobs only when another one completes, so the last one would stay for good.
 */
const JOB_OPTIONS = {
  attempts: 100,
  backoff: { type: "fixed", delay: 2000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 86_400 },
} as const;

export class ReplayQueue {
  readonly queue: Queue<ReplayJobData>;

  constructor(connection: RedisClient, keys: Keys) {
    this.queue = new Queue<ReplayJobData>(REPLAY_QUEUE, {
      connection,
      prefix: keys.queuePrefix(REPLAY_QUEUE),
    });
  }

  /** Add the replay's job (idempotent: the job id is the replay id). */
  async enqueue(id: ReplayId): Promise<void> {
    await this.queue.add(REPLAY_JOB_NAME, { replayId: id }, { ...JOB_OPTIONS, jobId: id });
  }

  /** The BullMQ lock key of a replay's job: its value is the token of the runner holding it. */
  lockKey(id: ReplayId): string {
    return `${this.queue.qualifiedName}:${id}:lock`;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
