// Back-pressure for ingest: a source whose sink queues are over `max_queue_depth` answers 429.
// Depths are sampled in the background so the check costs no round trip on the hot path.
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { sinkQueueNames } from "../queue/delivery-job.ts";

/** The queues as the gate samples them. */
export interface QueueCounts {
  all(): ReadonlyMap<
    string,
    { readonly name: string; getJobCounts(...states: string[]): Promise<Record<string, number>> }
  >;
}

const BACKLOG_STATES = ["wait", "delayed", "prioritized", "active", "failed", "completed"] as const;

export class DepthGate {
  private readonly backlog = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: Config,
    private readonly queues: QueueCounts,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {}

  /** Sample now, then every `intervalMs`. */
  async start(intervalMs = 1000): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Is any of this source's sinks backed up beyond its limit? */
  isOver(sourceName: string): boolean {
    const source = this.config.sources[sourceName];
    if (!source) return false;
    return source.sinks.some((sink) => this.sinkBacklog(sink) > source.max_queue_depth);
  }

  /** Waiting jobs of a sink, over its partitions. */
  private sinkBacklog(sink: string): number {
    const partitions = this.config.sinks[sink]?.partitions ?? 1;
    return sinkQueueNames(sink, partitions).reduce((sum, queue) => sum + (this.backlog.get(queue) ?? 0), 0);
  }

  async sample(): Promise<void> {
    try {
      for (const [name, queue] of this.queues.all()) {
        const counts = await queue.getJobCounts(...BACKLOG_STATES);
        for (const state of BACKLOG_STATES) {
          this.metrics.queueJobs.set({ queue: queue.name, state }, counts[state] ?? 0);
        }
        this.backlog.set(name, (counts.wait ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0));
      }
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, "queue depth sample failed");
    }
  }
}
