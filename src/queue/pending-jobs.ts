// How many jobs a delivery queue still holds for a worker, read by name: what decides whether a queue of
// the other layout (delivery/legacy-drain.ts) needs a worker. The queue objects are made once a name and
// share the given connection.
import { Queue } from "bullmq";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/** Jobs a worker would take or finish. A paused queue's waiting jobs are not counted: no worker runs them. */
const PENDING_STATES = ["wait", "delayed", "active", "prioritized", "waiting-children"] as const;

export class PendingJobs {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: RedisClient,
    private readonly keys: Keys,
  ) {}

  async of(name: string): Promise<number> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.keys.queuePrefix(name) });
      this.queues.set(name, queue);
    }
    const counts = await queue.getJobCounts(...PENDING_STATES);
    return PENDING_STATES.reduce((n, state) => n + (counts[state] ?? 0), 0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
