// The worker side of inbound dispatch: each sink's queues (queue-plan.ts: its partitions, or its
// bucket queues on a cluster) in the worker pool, each sink with its own concurrency, breaker and sink
// instance, so a sink that hangs or fails only ever occupies its own workers. A sink's breaker is shared by every worker process
// (SharedBreaker): opened by one, it holds for all, and one probe goes out per open period cluster-wide.
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Tracing } from "../observability/tracing.ts";
import type { QueuePlan } from "../queue/queue-plan.ts";
import type { Sink } from "../sinks/sink.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { claimFor, smallestInlineLimit } from "./claim-check.ts";
import { createDeliveryProcessor } from "./sink-target.ts";
import { type BreakerStateName, SharedBreaker } from "./shared-breaker.ts";
import type { LegacyDrain } from "./legacy-drain.ts";
import type { OpsOutbox } from "../store/ops-outbox.ts";
import type { PoolWorker, WorkerPool } from "./worker-pool.ts";

export interface SinkDispatcherDeps {
  readonly config: Config;
  readonly keys: Keys;
  /** The pool the sinks' queues run in. */
  readonly pool: WorkerPool;
  /** Which queues each sink has. */
  readonly plan: QueuePlan;
  /** Where the other queue layout's jobs are drained (on a cluster). */
  readonly legacy?: LegacyDrain | undefined;
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
  /** Where the sinks' breakers record their opens and closes as operational facts. */
  readonly facts?: OpsOutbox;
}

const BREAKER_GAUGE: Record<BreakerStateName, number> = { closed: 0, half_open: 1, open: 2 };

export class SinkDispatcher {
  private breaker: SharedBreaker | undefined;
  /** Each sink's workers, woken when its breaker changes (a held ledger worker looks again). */
  private readonly workers = new Map<string, PoolWorker[]>();

  constructor(private readonly deps: SinkDispatcherDeps) {}

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
      // This process's view, from any process's change: what the gauge shows. A ledger worker held
      // until a probe's lease ends looks again when the probe closes the breaker or fails and opens it
      // for another period, so the next probe goes out one open period later, not one lease later.
      onState: (sink, state) => {
        metrics.breakerState.set({ sink }, BREAKER_GAUGE[state]);
        for (const worker of this.workers.get(sink) ?? []) worker.wake();
      },
      onTransition: (sink, state) => {
        metrics.breakerTransitions.inc({ sink, to: state });
        logger.warn({ sink, state }, "breaker state changed");
      },
      ...(this.deps.facts ? { facts: { outbox: this.deps.facts, kind: "sink" as const } } : {}),
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
        inFlight: this.deps.pool.inFlight,
        claimFor: (hook) => claimFor(hook, limitBySource.get(hook.source), this.deps.publicUrl()),
      });
      // The sink's concurrency (per process) is shared out over its queues, whose jobs are spread
      // evenly by delivery id (its partition, or its bucket).
      const concurrency = sinkConfig?.concurrency ?? config.dispatch.concurrency;
      const log = { sink: sink.name };
      const queues = this.deps.plan.sinkQueues(sink.name);
      // A ledger queue's worker pops nothing while the sink's breaker is open (a BullMQ worker's jobs
      // are each parked by the runner instead).
      const heldUntil = (): number | undefined => breaker.heldUntil(sink.name);
      const added = queues.map((name) =>
        this.deps.pool.add({
          name,
          concurrency: Math.ceil(concurrency / queues.length),
          processor,
          log,
          heldUntil,
        }),
      );
      this.workers.set(sink.name, added);
      const legacy = this.deps.legacy;
      const old = legacy?.plan.sinkQueues(sink.name) ?? [];
      for (const name of old)
        legacy?.watch(this.deps.pool, {
          name,
          concurrency: Math.ceil(concurrency / old.length),
          processor,
          log,
        });
    }
  }

  /** Stop the sinks' breaker, once the pool's workers have stopped (WorkerPool.stop). */
  async close(): Promise<void> {
    await this.breaker?.close().catch(() => undefined);
  }
}
