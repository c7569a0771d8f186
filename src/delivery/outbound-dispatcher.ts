// The worker side of outbound fanout: the shared outbound queue in the worker pool, whose attempts
// are bounded per endpoint by limits kept in Redis (breaker, concurrency, rate), so thousands of
// endpoints need no queue or worker each and one slow endpoint cannot take the pool.
import { EndpointStatsStore } from "../store/endpoint-stats.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Tracing } from "../observability/tracing.ts";
import type { QueuePlan } from "../queue/queue-plan.ts";
import type { LegacyDrain } from "./legacy-drain.ts";
import { createGuardedDispatcher } from "../fanout/ssrf-guard.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { Keys } from "../store/keys.ts";
import { createAttemptRunner } from "./attempt-runner.ts";
import { type EndpointReader, endpointMetrics, endpointTarget } from "./endpoint-target.ts";
import { InflightGate } from "./inflight-gate.ts";
import { RateGate } from "./rate-gate.ts";
import { SharedBreaker } from "./shared-breaker.ts";
import type { OpsOutbox } from "../store/ops-outbox.ts";
import type { WorkerPool } from "./worker-pool.ts";

/**
 * Deliveries an endpoint's rate lets go early. The receiver counts arrivals, not sends: with the whole
 * burst of 2 spent at the gate, sends sit exactly at the bound and one that connected slowly (the
 * first ones open connections) lands in the same second as those after it. One early delivery keeps a
 * margin of one interval (1 / rate) for such differences in send latency.
 */
const RATE_BURST = 1;

export interface OutboundDispatcherDeps {
  readonly config: Config;
  readonly keys: Keys;
  /** The pool the outbound queues run in. */
  readonly pool: WorkerPool;
  /** Which queues the outbound direction has. */
  readonly plan: QueuePlan;
  /** Where the other queue layout's jobs are drained (on a cluster). */
  readonly legacy?: LegacyDrain | undefined;
  /** Commands of the ledger and the shared limits (a connection that waits out a blip). */
  readonly redis: RedisClient;
  /** A connection the shared breaker subscribes on. */
  readonly subscriber: RedisClient;
  readonly ledger: DeliveryStore;
  readonly endpoints: EndpointReader;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly tracing?: Tracing;
  /** Where the endpoints' breakers record their opens and closes as operational facts. */
  readonly facts?: OpsOutbox;
  /** Resolver of endpoint host names (tests point names at chosen addresses). */
  readonly lookup?: Parameters<typeof createGuardedDispatcher>[0]["lookup"];
}

export class OutboundDispatcher {
  private readonly breaker: SharedBreaker;
  private readonly agent: ReturnType<typeof createGuardedDispatcher>;

  constructor(private readonly deps: OutboundDispatcherDeps) {
    const { config, keys, redis } = deps;
    this.breaker = new SharedBreaker({
      redis,
      subscriber: deps.subscriber,
      keyOf: (id) => keys.endpointGate(id, "breaker"),
      channel: keys.breakerChannel,
      config: { ...config.dispatch.breaker, ...config.outbound.breaker },
      probeLeaseMs: config.outbound.timeout_ms + config.dispatch.lock_ms,
      ...(deps.facts ? { facts: { outbox: deps.facts, kind: "endpoint" as const } } : {}),
    });
    this.agent = createGuardedDispatcher({
      allowPrivate: config.outbound.allow_private,
      ...(deps.lookup ? { lookup: deps.lookup } : {}),
      connect: { timeout: config.outbound.timeout_ms },
    });
  }

  async start(): Promise<void> {
    const { config, keys, logger, metrics } = this.deps;
    await this.breaker.start();
    const target = endpointTarget({
      config,
      keys,
      endpoints: this.deps.endpoints,
      breaker: this.breaker,
      inflight: new InflightGate(this.deps.redis, (id) => keys.endpointGate(id, "inflight")),
      rate: new RateGate(this.deps.redis, (id) => keys.endpointGate(id, "rate"), { burst: RATE_BURST }),
      stats: new EndpointStatsStore(this.deps.redis, keys),
      dispatcher: this.agent,
      inFlight: this.deps.pool.inFlight,
      onRefused: (endpoint, detail) =>
        logger.info({ endpoint: endpoint.id, tenant: endpoint.tenant, detail }, "refused by the SSRF guard"),
      onDisabled: (endpoint, reason) => {
        metrics.outboundEndpointsDisabled.inc({ tenant: metrics.tenantLabel(endpoint.tenant) });
        logger.warn({ endpoint: endpoint.id, tenant: endpoint.tenant, reason }, "endpoint disabled");
      },
    });
    const processor = createAttemptRunner({
      target,
      ledger: this.deps.ledger,
      metrics: endpointMetrics(metrics),
      logger,
      leaseMs: config.dispatch.lock_ms,
      maxRetryAfterMs: config.dispatch.max_retry_after_ms,
      ...(this.deps.tracing ? { tracing: this.deps.tracing } : {}),
    });
    // The concurrency (per process) is shared out over the outbound queues (one, or one per bucket).
    const queues = this.deps.plan.outboundQueues();
    const concurrency = config.outbound.concurrency;
    for (const name of queues)
      this.deps.pool.add({ name, concurrency: Math.ceil(concurrency / queues.length), processor });
    const legacy = this.deps.legacy;
    const old = legacy?.plan.outboundQueues() ?? [];
    for (const name of old)
      legacy?.watch(this.deps.pool, { name, concurrency: Math.ceil(concurrency / old.length), processor });
  }

  /** Stop the endpoints' breaker and agent, once the pool's workers have stopped (WorkerPool.stop). */
  async close(): Promise<void> {
    await this.breaker.close();
    await this.agent.close();
  }
}
