// The worker side of inbound dispatch: one BullMQ Worker per sink (per partition of a partitioned sink),
// each with its own concurrency, breaker and sink instance, so a sink that hangs or fails only ever
// occupies its own pool. A sink's breaker is shared by every worker process (SharedBreaker): opened by
// one, it holds for all, and one probe goes out per open period cluster-wide.
import { Worker } from "bullmq";
import type { Config } from "../config/schema.ts";
import type { DeliveryId, HookId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Tracing } from "../observability/tracing.ts";
import { type DeliveryJobData, deliveryOf, sinkQueueName } from "../queue/delivery-job.ts";
import { keepFinished } from "../queue/delivery-queues.ts";
import type { Sink } from "../sinks/sink.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { claimFor, smallestInlineLimit } from "./claim.ts";
import { type DeliveryJob, createDeliveryProcessor } from "./delivery-processor.ts";
import { InFlightAttempts } from "./safe-deliver.ts";
import { type BreakerStateName, SharedBreaker } from "./shared-breaker.ts";

export interface DispatcherDeps {
  readonly config: Config;
  readonly keys: Keys;
  /** BullMQ's connection (blocking commands, retried across reconnects). */
  readonly connection: RedisClient;
  /** The ledger, on a connection that waits out a Redis blip rather than failing an attempt. */
  readonly ledger: DeliveryStore;
  /** Commands of the shared breakers (a connection that waits out a blip, like the ledger's). */
  readonly redis: RedisClient;
  /** A connection the sinks' shared breaker subscribes on (it may be shared with other breakers). */
  readonly subscriber: RedisClient;
  readonly sinks: ReadonlyMap<string, Sink>;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** A span per attempt (off unless the OTEL_* variables configure an exporter). */
  readonly tracing?: Tracing;
  /** Base URL of the claim-check endpoint. */
  readonly publicUrl: () => string;
  /** Times BullMQ may find a job stalled (its worker died) before failing it; tests lower it. */
  readonly maxStalledCount?: number;
}

const STALLED_TOO_OFTEN = "stalled more than allowable limit";
const BREAKER_GAUGE: Record<BreakerStateName, number> = { closed: 0, half_open: 1, open: 2 };

export class Dispatcher {
  private readonly workers: Worker<DeliveryJobData, void, string>[] = [];
  private breaker: SharedBreaker | undefined;
  private readonly inFlight = new InFlightAttempts();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Start the sinks' shared breaker, then one worker per configured sink (per partition). */
  async start(): Promise<void> {
    const { config, sinks, metrics, keys, logger } = this.deps;
    const limitBySource = new Map<string, number | undefined>();
    for (const [name, source] of Object.entries(config.sources)) {
      limitBySource.set(name, smallestInlineLimit(source.sinks.flatMap((s) => sinks.get(s) ?? [])));
    }
    const breaker = new SharedBreaker({
      redis: this.deps.redis,
      subscriber: this.deps.subscriber,
      keyOf: (sink) => keys.sinkGate(sink, "breaker"),
      channel: keys.sinkBreakerChannel,
      config: (sink) => ({ ...config.dispatch.breaker, ...config.sinks[sink]?.breaker }),
      // A probe ends by its attempt's timeout at the latest; waiters park until then.
      probeLeaseMs: config.dispatch.attempt_timeout_ms + config.dispatch.lock_ms,
      // This process's view, from any process's change: what the gauge shows.
      onState: (sink, state) => metrics.breakerState.set({ sink }, BREAKER_GAUGE[state]),
      onTransition: (sink, state) => {
        metrics.breakerTransitions.inc({ sink, to: state });
        logger.warn({ sink, state }, "breaker state changed");
      },
    });
    this.breaker = breaker;
    await breaker.start();
    for (const sink of sinks.values()) {
      const sinkConfig = config.sinks[sink.name];
      metrics.breakerState.set({ sink: sink.name }, 0);
      const processor = createDeliveryProcessor({
        ...this.deps,
        sink,
        breaker,
        inFlight: this.inFlight,
        claimFor: (hook) => claimFor(hook, limitBySource.get(hook.source), this.deps.publicUrl()),
      });
      const partitions = sinkConfig?.partitions ?? 1;
      for (let p = 0; p < partitions; p++)
        this.workers.push(this.createWorker(sink, p, partitions, processor));
    }
  }

  /**
   * The worker of one partition of a sink's queue. The sink's concurrency (per process) is shared out
   * over its partitions, whose jobs are spread evenly by delivery id.
   */
  private createWorker(
    sink: Sink,
    partition: number,
    partitions: number,
    processor: (job: DeliveryJob, token?: string) => Promise<void>,
  ): Worker<DeliveryJobData, void, string> {
    const { config, keys, connection, logger } = this.deps;
    const lockMs = config.dispatch.lock_ms;
    const queue = sinkQueueName(sink.name, partition);
    const concurrency = config.sinks[sink.name]?.concurrency ?? config.dispatch.concurrency;
    const worker = new Worker<DeliveryJobData, void, string>(queue, processor, {
      connection,
      prefix: keys.queuePrefix(queue),
      concurrency: Math.max(1, Math.ceil(concurrency / partitions)),
      // A dead worker's jobs come back after at most lock + stalled interval (within 15 s by default).
      lockDuration: lockMs,
      stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
      maxStalledCount: this.deps.maxStalledCount ?? 5,
      ...keepFinished(config.retention_s),
    });
    worker.on("error", (err) => logger.error({ sink: sink.name, err: err.message }, "worker error"));
    worker.on("failed", (job, err) => {
      // Our own dead letters are recorded by the processor. A job BullMQ failed by itself (it stalled
      // too often: a poison hook that kills workers) still owes its row an ending.
      if (job && err.message.includes(STALLED_TOO_OFTEN))
        void this.deadLetterStalled(sink.name, deliveryOf(job), err.message);
    });
    return worker;
  }

  private async deadLetterStalled(sink: string, id: DeliveryId, reason: string): Promise<void> {
    const { ledger, metrics, logger } = this.deps;
    try {
      const row = await ledger.get(id);
      if (!row || (row.state !== "pending" && row.state !== "sending" && row.state !== "retrying")) return;
      metrics.deadLettered.inc({ source: row.source, sink, error_class: "transient" });
      const written = await ledger.finish(row, "unfenced", {
        outcome: "dead",
        reason,
        errorClass: "transient",
      });
      if (written)
        logger.error(
          { delivery_id: row.id, hook_id: row.parentId as HookId, sink, attempts: row.attempts, reason },
          "dead-lettered",
        );
    } catch (err) {
      logger.error({ delivery_id: id, err: (err as Error).message }, "could not dead-letter a stalled job");
    }
  }

  /** Stop taking jobs and wait for in-flight attempts, at most `graceMs`; then hand the rest back. */
  async close(graceMs = 25_000): Promise<void> {
    const graceful = Promise.all(this.workers.map((w) => w.close()));
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
    if ((await Promise.race([graceful, timeout])) === "timeout") {
      // Abort what is still running: each attempt is handed back unattempted, for this process's
      // successor or another worker.
      this.inFlight.cancelAll();
      await Promise.race([graceful, new Promise((r) => setTimeout(r, 2000).unref())]);
      await Promise.all(this.workers.map((w) => w.close(true)));
    }
    await this.breaker?.close().catch(() => undefined);
  }
}
