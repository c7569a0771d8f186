// The `dispatch` role: the worker pools of every delivery queue, sinks' and endpoints'.
import { withSignedClaims } from "../../delivery/claim-check.ts";
import { SinkDispatcher } from "../../delivery/sink-dispatcher.ts";
import { OutboundDispatcher } from "../../delivery/outbound-dispatcher.ts";
import { WorkerPool, stopPools } from "../../delivery/worker-pool.ts";
import { LegacyDrain } from "../../delivery/legacy-drain.ts";
import { LegacyJobMover } from "../../delivery/legacy-job-mover.ts";
import { LapseSweep } from "../../recovery/lapse-sweep.ts";
import { Reconcile } from "../../recovery/reconcile.ts";
import type { LedgerQueue } from "../../queue/ledger/ledger-queue.ts";
import { LedgerQueues } from "../../queue/ledger/ledger-queues.ts";
import { type RedisClient, isCluster } from "../../store/redis-client.ts";
import { createSink } from "../../sinks/registry.ts";
import type { Sink } from "../../sinks/sink.ts";
import { DeliveryStore, ledgerOptions } from "../../store/delivery-store.ts";
import { closeRedis, createWorkerRedis } from "../redis.ts";
import type { Core } from "./core.ts";
import type { Resolver } from "../../fanout/ssrf-guard.ts";

const SINK_CLOSE_MS = 3000;

export async function startDispatchRole(core: Core, opts: { outboundLookup?: Resolver }): Promise<void> {
  const { config, logger, keys } = core;
  const life = core.life.role("dispatch");
  const connection = createWorkerRedis(config.redis);
  connection.on("error", (err: Error) => logger.debug({ err: err.message }, "redis worker connection error"));
  life.onStop("worker redis", () => closeRedis(connection));
  // Attempts record their outcome on a connection that waits out a Redis blip: a delivered send is
  // recorded as delivered once Redis answers again, rather than failing and being sent twice.
  // Autopipelining this connection was measured and left off: delivered/s fell (2,596 vs 3,317 side
  // by side, one run); why was not found. ioredis's callBuffer also fails under it (evalshaBuffer works).
  const ledgerRedis = createWorkerRedis(config.redis, "switchyard-ledger");
  ledgerRedis.on("error", (err: Error) =>
    logger.debug({ err: err.message }, "redis ledger connection error"),
  );
  life.onStop("ledger redis", () => closeRedis(ledgerRedis));
  // Its outcomes record operational facts (delivery.*, hook.dead) in the same scripts; the process's
  // drainer hears of each and publishes it after operational.flush_ms.
  const ledger = new DeliveryStore(ledgerRedis, keys, ledgerOptions(config), core.operational.outbox);

  const sinks = new Map<string, Sink>();
  const deps = { logger, defaultClaimCheckBytes: config.dispatch.claim_check_bytes };
  const sign = core.claimSigner.signUrl.bind(core.claimSigner);
  for (const [name, sinkConfig] of Object.entries(config.sinks))
    sinks.set(name, withSignedClaims(createSink(name, sinkConfig, deps), sign));
  // A broker that hangs must not hold shutdown past the platform's grace (kafkajs waits for in-flight
  // requests): after SINK_CLOSE_MS the process exits and the broker sees the connection drop.
  life.onStop("sinks", async () => {
    const closing = Promise.allSettled([...sinks.values()].map((s) => s.close()));
    await Promise.race([closing, new Promise((r) => setTimeout(r, SINK_CLOSE_MS).unref())]);
  });

  // The shared breakers (sinks', endpoints') hear each other's changes on one subscriber connection.
  const subscriber = createWorkerRedis(config.redis, "switchyard-breaker-sub");
  subscriber.on("error", (err: Error) => logger.debug({ err: err.message }, "redis subscriber error"));
  life.onStop("breaker subscriber", () => closeRedis(subscriber));

  // Outbound endpoints share one queue; their limits (breaker, slots, rate) live in Redis.
  // Its own BullMQ connection: the outbound worker's lifecycle does not touch the sink workers'.
  const outboundConnection = createWorkerRedis(config.redis, "switchyard-outbound");
  outboundConnection.on("error", (err: Error) =>
    logger.debug({ err: err.message }, "redis outbound connection error"),
  );
  life.onStop("outbound redis", () => closeRedis(outboundConnection));

  // Every delivery queue of the process runs in a worker pool. The pools stop together under the one
  // shutdown deadline, before the breakers their attempts use (steps are undone last registered
  // first), and their stop is registered before any worker starts, so a failed start stops them too.
  const plan = core.queues.plan;
  // The ledger engine's workers pop on the ledger's connection and each wait on a doorbell connection
  // of their own (closed with the worker).
  const ledgerQueues =
    config.dispatch.engine === "ledger"
      ? new LedgerQueues(ledgerRedis, keys, plan, config.dispatch.lock_ms)
      : undefined;
  const ledgerPools = ledgerQueues && {
    queues: ledgerQueues,
    blocking: (queue: string) => doorbellConnection(config, logger, ledgerQueues.queue(queue)),
  };
  const pool = (connection: RedisClient): WorkerPool =>
    new WorkerPool({ config, keys, connection, logger, ...(ledgerPools ? { ledger: ledgerPools } : {}) });
  const sinkPool = pool(connection);
  const outboundPool = pool(outboundConnection);
  // On a cluster, jobs may wait in the other queue layout's queues (from before an upgrade or a switch
  // of redis.cluster.queues): they are drained beside the current ones. One Redis has one layout only.
  // (The ledger engine moves BullMQ jobs onto its own queues instead: the mover below.)
  const legacy =
    isCluster(ledgerRedis) && !ledgerPools
      ? new LegacyDrain({ plan: plan.other(), redis: ledgerRedis, keys, logger })
      : undefined;
  const dispatcher = new SinkDispatcher({
    ...core,
    pool: sinkPool,
    plan,
    legacy,
    ledger,
    redis: ledgerRedis,
    subscriber,
    sinks,
    facts: core.operational.outbox,
  });
  const outbound = new OutboundDispatcher({
    config,
    keys,
    pool: outboundPool,
    plan,
    legacy,
    redis: ledgerRedis,
    subscriber,
    ledger,
    endpoints: core.endpoints,
    metrics: core.metrics,
    logger,
    tracing: core.tracing,
    facts: core.operational.outbox,
    ...(opts.outboundLookup ? { lookup: opts.outboundLookup } : {}),
  });
  life.onStop("sink breakers", () => dispatcher.close());
  life.onStop("endpoint breakers", () => outbound.close());
  life.onStop("worker pools", (deadline) => stopPools([sinkPool, outboundPool], deadline));
  // Registered after the pools: it stops counting (and adding workers) before they stop.
  if (legacy) life.onStop("legacy queue drain", () => legacy.stop());
  // The ledger engine moves the jobs older processes add (a rolling upgrade) onto its queues.
  const mover =
    ledgerQueues &&
    new LegacyJobMover({
      redis: ledgerRedis,
      keys,
      queues: ledgerQueues,
      logger,
    });
  if (mover) life.onStop("BullMQ job mover", () => mover.stop());
  // A dead worker's rows come back within about lock_ms, as BullMQ's stalled check gives them back.
  const lapses =
    ledgerQueues &&
    new LapseSweep({
      reconcile: new Reconcile({ ...core, ledger, queues: ledgerQueues }),
      redis: ledgerRedis,
      lockKey: `${keys.recoveryLock}:lapses`,
      lockMs: config.dispatch.lock_ms,
      logger,
    });
  if (lapses) life.onStop("lapse sweep", () => lapses.stop());
  await dispatcher.start();
  await outbound.start();
  await legacy?.start();
  await mover?.start();
  lapses?.start();
}

/** Named after the queue's ready list, so CLIENT LIST shows which queues have workers waiting. */
function doorbellConnection(config: Core["config"], logger: Core["logger"], queue: LedgerQueue): RedisClient {
  const client = createWorkerRedis(config.redis, `switchyard-lq:${queue.keys[0]}`);
  client.on("error", (err: Error) => logger.debug({ err: err.message }, "redis doorbell connection error"));
  return client;
}
