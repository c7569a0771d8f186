// Assembles a Switchyard process from its config and roles: the shared core (Redis, stores, queues),
// then each role. On stop the roles stop in parallel under one deadline, then the core closes.
import type { Resolver } from "../fanout/ssrf-guard.ts";
import type { Hono } from "hono";
import { declaredTenants } from "../config/declared-tenants.ts";
import type { Config } from "../config/schema.ts";
import { configWarnings } from "../config/warnings.ts";
import type { LogOutput } from "../observability/log-output.ts";
import { type Logger, createLogger } from "../observability/logger.ts";
import { Metrics } from "../observability/metrics.ts";
import type { OtelEnv } from "../observability/otel-env.ts";
import { startTracing } from "../observability/start-tracing.ts";
import { createDeliveryEngine } from "../queue/delivery-engine.ts";
import { ReplayQueue } from "../queue/replay-queue.ts";
import { createOperationalEvents } from "../operational/operational-events.ts";
import type { RecoveryRunnerOptions } from "../recovery/recovery-runner.ts";
import { DeliveryStore, ledgerOptions } from "../store/delivery-store.ts";
import { DlqStore } from "../store/dlq-store.ts";
import { EndpointStore } from "../store/endpoint-store.ts";
import { EventStore } from "../store/event-store.ts";
import { HookStore } from "../store/hook-store.ts";
import { Keys } from "../store/keys.ts";
import { ensureLayout } from "../store/layout/ensure-layout.ts";
import { layoutSettingsOf } from "../store/layout/layout-settings.ts";
import { OpsOutbox } from "../store/ops-outbox.ts";
import { ReplayStore } from "../store/replay-store.ts";
import { loadClaimSigner } from "./claim-key.ts";
import { checkEvictionPolicy } from "./eviction-check.ts";
import { DEFAULT_DEADLINE_MS, Lifecycle } from "./lifecycle.ts";
import { startOpsListener } from "./ops-listener.ts";
import { closeRedis, connectRedis, createCommandRedis } from "./redis.ts";
import { type ApiRole, startApiRole } from "./roles/api-role.ts";
import type { Core } from "./roles/core.ts";
import { startDispatchRole } from "./roles/dispatch-role.ts";
import { startRecoveryRole } from "./roles/recovery-role.ts";
import { ALL_ROLES, type Role } from "./roles.ts";

export interface GatewayOptions {
  readonly roles?: readonly Role[];
  readonly logger?: Logger;
  /** Where `logger` writes, when it is a LogOutput: its dropped lines are counted in the metrics. */
  readonly logOutput?: LogOutput;
  readonly metrics?: Metrics;
  /** Listen on `http.port`; false builds the app without a socket (tests use `app.request`). */
  readonly listen?: boolean;
  /** SIGTERM grace: in-flight attempts and requests get this long, then they are cut (default 25 s). */
  readonly graceMs?: number;
  /** Recovery tick tuning (tests shrink it). */
  readonly recovery?: RecoveryRunnerOptions;
  /** Resolver of endpoint host names, at registration and at send time (tests point names at chosen addresses). */
  readonly outboundLookup?: Resolver;
  /** The OTEL_* variables tracing is configured from (default process.env; tests pass their own). */
  readonly otelEnv?: OtelEnv;
  /** Told the cause when a start fails, before what was started is torn down (boot guards that teardown). */
  readonly onStartFailure?: (err: unknown) => void;
}

export interface Gateway {
  readonly config: Config;
  readonly app: Hono | undefined;
  /** Port the HTTP server listens on, once started with `listen`. */
  readonly port: number | undefined;
  /** Port of /metrics, /healthz and /readyz in a process without the api role (`http.metrics_port`). */
  readonly metricsPort: number | undefined;
  readonly metrics: Metrics;
  readonly keys: Keys;
  /** Stop accepting, finish or hand back in-flight work, close connections. Idempotent. */
  stop(): Promise<void>;
}

export async function startGateway(config: Config, opts: GatewayOptions = {}): Promise<Gateway> {
  const roles = new Set(opts.roles ?? ALL_ROLES);
  const logger = opts.logger ?? createLogger({ level: config.log_level });
  const metrics = opts.metrics ?? new Metrics({ defaultMetrics: true });
  metrics.declareTenants(declaredTenants(config));
  opts.logOutput?.onDrop((lines) => metrics.logLinesDropped.inc(lines));
  const graceMs = opts.graceMs ?? DEFAULT_DEADLINE_MS;
  const life = new Lifecycle(logger, { deadlineMs: graceMs });
  if (!opts.metrics) life.onStop("runtime metrics", async () => metrics.stopRuntimeMetrics());
  const keys = new Keys(config.redis.prefix);
  let api: ApiRole | undefined;
  let metricsPort: number | undefined;
  for (const warning of configWarnings(config, { api: roles.has("api"), dispatch: roles.has("dispatch") }))
    logger.warn({ key: warning.path }, `config: ${warning.path}: ${warning.message}`);

  try {
    // Closed last: the spans of the roles' final attempts are exported before the process exits.
    const tracing = await startTracing(opts.otelEnv ?? process.env, logger);
    life.onStop("tracing", () => tracing.shutdown());
    const redis = createCommandRedis(config.redis);
    redis.on("error", (err: Error) => logger.debug({ err: err.message }, "redis connection error"));
    await connectRedis(redis, config.redis);
    life.onStop("redis", () => closeRedis(redis));

    await checkEvictionPolicy(redis, config.redis.require_noeviction, logger);
    // Before anything below writes: a layout this release cannot use stops the boot here (LayoutError).
    await ensureLayout(redis, keys, logger, { settings: layoutSettingsOf(config) });

    const { queues, queuesInScript: jobsInScript } = createDeliveryEngine(redis, keys, config, logger);
    life.onStop("queues", () => queues.close());
    const replayQueue = new ReplayQueue(redis, keys);
    life.onStop("replays queue", () => replayQueue.close());
    // The ledger's scripts record operational facts in their outboxes; the drainer publishes them as
    // events, through the event store built on that ledger.
    const outbox = new OpsOutbox(redis, keys, {
      enabled: config.operational.enabled,
      retentionS: config.retention_s,
    });
    const ledger = new DeliveryStore(redis, keys, ledgerOptions(config), outbox);
    // The endpoint scripts record the switchyard.endpoint.* facts in the same outboxes.
    const endpoints = new EndpointStore(redis, keys, config.outbound.max_endpoints_per_tenant, outbox);
    // Jobs are written with their rows (a hook's, a fanout page's) where this BullMQ's job layout is the
    // verified one.
    const events = new EventStore(redis, keys, ledger, jobsInScript ? queues : undefined);
    const operational = createOperationalEvents({
      config,
      outbox,
      redis,
      metrics,
      logger,
      endpoints,
      publish: {
        events,
        endpoints,
        jobs: queues,
        metrics,
        staleAfterMs: config.recovery.stale_after_ms,
        retentionS: config.retention_s,
        maxPayloadBytes: config.http.max_body_bytes,
        pageSize: config.outbound.fanout_page_size,
      },
    });
    // Closed before the queues and Redis it publishes through (shared steps stop last registered first).
    life.onStop("operational drainer", () => operational.drainer.close());
    const core: Core = {
      config,
      keys,
      logger,
      metrics,
      tracing,
      life,
      redis,
      queues,
      replays: new ReplayStore(redis, keys, config.retention_s, outbox),
      replayQueue,
      ledger,
      hooks: new HookStore(redis, keys, ledger, jobsInScript ? queues : undefined),
      dlq: new DlqStore(redis, keys, ledger),
      endpoints,
      events,
      operational,
      claimSigner: await loadClaimSigner(redis, keys, config),
      // A worker-only process cannot know the API's port: it is told through http.public_url (the boot
      // warns when it is missing and claim URLs would be handed out).
      publicUrl: () => config.http.public_url ?? `http://127.0.0.1:${api?.port ?? config.http.port}`,
    };

    if (roles.has("dispatch")) await startDispatchRole(core, opts);
    if (roles.has("recovery")) await startRecoveryRole(core, { ...opts, graceMs });
    if (roles.has("api")) {
      api = await startApiRole(core, {
        listen: opts.listen !== false,
        ...(opts.outboundLookup ? { resolve: opts.outboundLookup } : {}),
      });
      if (api.port !== undefined) logger.info({ port: api.port, roles: [...roles] }, "switchyard listening");
    } else if (config.http.metrics_port !== undefined && opts.listen !== false) {
      metricsPort = await startOpsListener(core, config.http.metrics_port);
      logger.info({ port: metricsPort, roles: [...roles] }, "serving /metrics, /healthz and /readyz");
    }
  } catch (err) {
    opts.onStartFailure?.(err);
    await life.stop();
    throw err;
  }

  return { config, app: api?.app, port: api?.port, metricsPort, metrics, keys, stop: () => life.stop() };
}
