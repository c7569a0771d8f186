// The worker side of dispatch: one BullMQ Worker per sink, each with its own concurrency, breaker and
// sink instance, so a sink that hangs or fails only ever occupies its own pool.
import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type DeliveryJobData, parseDeliveryJobId, sinkQueueName } from "../queue/delivery-job.ts";
import type { Sink } from "../sinks/sink.ts";
import type { DlqStore } from "../store/dlq-store.ts";
import type { HookStore } from "../store/hook-store.ts";
import type { Keys } from "../store/keys.ts";
import { claimFor, smallestInlineLimit } from "./claim.ts";
import { type DeliveryJob, createDeliveryProcessor } from "./delivery-processor.ts";
import { backoffFromError } from "./retry-later.ts";
import { InFlightAttempts } from "./safe-deliver.ts";
import { type BreakerStateName, SinkBreaker } from "./sink-breaker.ts";

export interface DispatcherDeps {
  readonly config: Config;
  readonly keys: Keys;
  readonly connection: Redis;
  readonly sinks: ReadonlyMap<string, Sink>;
  readonly hooks: HookStore;
  readonly dlq: DlqStore;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** Base URL of the claim-check endpoint. */
  readonly publicUrl: () => string;
}

const STALLED_TOO_OFTEN = "stalled more than allowable limit";
const BREAKER_GAUGE: Record<BreakerStateName, number> = { closed: 0, half_open: 1, open: 2 };

export class Dispatcher {
  private readonly workers: Worker<DeliveryJobData, void, string>[] = [];
  private readonly breakers: SinkBreaker[] = [];
  private readonly inFlight = new InFlightAttempts();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Start one worker per configured sink. */
  start(): void {
    const { config, sinks, metrics } = this.deps;
    const limitBySource = new Map<string, number | undefined>();
    for (const [name, source] of Object.entries(config.sources)) {
      limitBySource.set(name, smallestInlineLimit(source.sinks.flatMap((s) => sinks.get(s) ?? [])));
    }
    for (const sink of sinks.values()) {
      const sinkConfig = config.sinks[sink.name];
      const breaker = new SinkBreaker({ ...config.dispatch.breaker, ...sinkConfig?.breaker }, (state) => {
        metrics.breakerState.set({ sink: sink.name }, BREAKER_GAUGE[state]);
        metrics.breakerTransitions.inc({ sink: sink.name, to: state });
        this.deps.logger.warn({ sink: sink.name, state }, "breaker state changed");
      });
      metrics.breakerState.set({ sink: sink.name }, 0);
      this.breakers.push(breaker);
      const processor = createDeliveryProcessor({
        ...this.deps,
        sink,
        breaker,
        inFlight: this.inFlight,
        claimFor: (hook) => claimFor(hook, limitBySource.get(hook.source), this.deps.publicUrl()),
      });
      this.workers.push(this.createWorker(sink, processor));
    }
  }

  private createWorker(
    sink: Sink,
    processor: (job: DeliveryJob, token?: string) => Promise<void>,
  ): Worker<DeliveryJobData, void, string> {
    const { config, keys, connection, logger } = this.deps;
    const lockMs = config.dispatch.lock_ms;
    const worker = new Worker<DeliveryJobData, void, string>(sinkQueueName(sink.name), processor, {
      connection,
      prefix: keys.base,
      concurrency: config.sinks[sink.name]?.concurrency ?? config.dispatch.concurrency,
      // A dead worker's jobs come back after at most lock + stalled interval (SPEC: within 15 s).
      lockDuration: lockMs,
      stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
      maxStalledCount: 5,
      settings: { backoffStrategy: backoffFromError },
    });
    worker.on("error", (err) => logger.error({ sink: sink.name, err: err.message }, "worker error"));
    worker.on("failed", (job, err) => {
      // Our own dead-letter decisions are indexed by the processor; a job BullMQ failed by itself
      // (it stalled too often: a poison hook that kills workers) still needs its DLQ entry.
      if (job && err.message.includes(STALLED_TOO_OFTEN))
        void this.indexBullmqFailure(job.id, err.message, job.attemptsMade);
    });
    return worker;
  }

  private async indexBullmqFailure(
    jobId: string | undefined,
    reason: string,
    attempts: number,
  ): Promise<void> {
    const parsed = jobId ? parseDeliveryJobId(jobId) : undefined;
    if (!parsed || !jobId) return;
    const stored = await this.deps.hooks.load(parsed.hookId).catch(() => undefined);
    const now = Date.now();
    await this.deps.dlq
      .add({
        id: jobId,
        hook_id: parsed.hookId,
        source: stored?.hook.source ?? "unknown",
        tenant: stored?.hook.tenant,
        sink: parsed.sink,
        error_class: "transient",
        reason,
        attempts,
        first_attempt_at: stored?.sinkStates[parsed.sink]?.first_attempt_at ?? now,
        last_attempt_at: now,
        dead_at: now,
      })
      .catch((err: Error) => this.deps.logger.error({ err: err.message }, "could not index a failed job"));
  }

  /** Stop taking jobs and wait for in-flight attempts, at most `graceMs`; then hand the rest back. */
  async close(graceMs = 25_000): Promise<void> {
    const graceful = Promise.all(this.workers.map((w) => w.close()));
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
    if ((await Promise.race([graceful, timeout])) === "timeout") {
      // Abort what is still running: each attempt ends transient and its job is retried, by this
      // process's successor or another worker.
      this.inFlight.cancelAll();
      await Promise.race([graceful, new Promise((r) => setTimeout(r, 2000).unref())]);
      await Promise.all(this.workers.map((w) => w.close(true)));
    }
    for (const b of this.breakers) b.shutdown();
  }
}
