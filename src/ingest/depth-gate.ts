// Back-pressure for ingest: a source whose sink queues are over `max_queue_depth` answers 429.
// Depths are sampled in the background so the check costs no round trip on the hot path, and sampled
// once per interval for the whole deployment: one process takes the turn and reads the queues, every
// other API process takes its numbers (which also feed the queue gauges).
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";

/** The queues as the gate samples them. */
export interface QueueCounts {
  /** Every queue's counts by state, by name. */
  counts(): Promise<Depths>;
  /** Which of them are a sink's. */
  readonly plan: { sinkQueues(sink: string): string[] };
}

/** The cluster-wide sample the gate shares (see SharedSample). */
export interface SampleTurns {
  turn(
    intervalMs: number,
  ): Promise<{ readonly mine: true } | { readonly mine: false; readonly sample: string | undefined }>;
  publish(sample: string, ttlMs: number): Promise<void>;
}

const BACKLOG_STATES = ["wait", "delayed", "prioritized", "active", "failed", "completed"] as const;
/** A published sample outlives a few missed turns (its sampler died), then lapses. */
const SAMPLE_TTL_INTERVALS = 5;

/** Job counts by queue, then by state. */
type Depths = Record<string, Partial<Record<(typeof BACKLOG_STATES)[number], number>>>;

export class DepthGate {
  private readonly backlog = new Map<string, number>();
  /** Waiting jobs by sink, over its queues: summed once per sample, read on every hook. */
  private readonly sinkBacklogs = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private intervalMs = 1000;

  constructor(
    private readonly config: Config,
    private readonly queues: QueueCounts,
    private readonly turns: SampleTurns,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {}

  /** Sample now, then every `intervalMs`. */
  async start(intervalMs = 1000): Promise<void> {
    this.intervalMs = intervalMs;
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
    return source.sinks.some((sink) => (this.sinkBacklogs.get(sink) ?? 0) > source.max_queue_depth);
  }

  /** Take this interval's turn and read the queues, or take the numbers whoever had the turn published. */
  async sample(): Promise<void> {
    try {
      const turn = await this.turns.turn(this.intervalMs);
      if (turn.mine) {
        const depths = await this.read();
        await this.turns.publish(JSON.stringify(depths), this.intervalMs * SAMPLE_TTL_INTERVALS);
        this.apply(depths);
      } else if (turn.sample !== undefined) {
        this.apply(JSON.parse(turn.sample) as Depths);
      }
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, "queue depth sample failed");
    }
  }

  private read(): Promise<Depths> {
    return this.queues.counts();
  }

  private apply(depths: Depths): void {
    for (const [queue, counts] of Object.entries(depths)) {
      for (const state of BACKLOG_STATES) this.metrics.queueJobs.set({ queue, state }, counts[state] ?? 0);
      this.backlog.set(queue, (counts.wait ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0));
    }
    for (const sink of Object.keys(this.config.sinks)) {
      const queues = this.queues.plan.sinkQueues(sink);
      this.sinkBacklogs.set(
        sink,
        queues.reduce((sum, queue) => sum + (this.backlog.get(queue) ?? 0), 0),
      );
    }
  }
}
