// Assembles a Switchyard process from its config and roles: connections, stores, queues, sinks,
// workers and the HTTP server, started in order and stopped in reverse.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { createApp } from "../api/app.ts";
import { healthRoutes } from "../api/routes/health.ts";
import { metricsRoutes } from "../api/routes/metrics.ts";
import { webhookRoutes } from "../api/routes/webhooks.ts";
import type { Config } from "../config/schema.ts";
import { Dispatcher } from "../delivery/dispatcher.ts";
import { DepthGate } from "../ingest/depth-gate.ts";
import { IngestService } from "../ingest/ingest-service.ts";
import { type Logger, createLogger } from "../observability/logger.ts";
import { Metrics } from "../observability/metrics.ts";
import { SinkQueues } from "../queue/sink-queues.ts";
import { createSink } from "../sinks/registry.ts";
import type { Sink } from "../sinks/sink.ts";
import { DlqStore } from "../store/dlq-store.ts";
import { HookStore } from "../store/hook-store.ts";
import { Keys } from "../store/keys.ts";
import { Lifecycle } from "./lifecycle.ts";
import { connectRedis, createCommandRedis, createWorkerRedis } from "./redis.ts";
import { ALL_ROLES, type Role } from "./roles.ts";

export interface GatewayOptions {
  readonly roles?: readonly Role[];
  readonly logger?: Logger;
  readonly metrics?: Metrics;
  /** Listen on `http.port`; false builds the app without a socket (tests use `app.request`). */
  readonly listen?: boolean;
  /** SIGTERM grace for in-flight attempts. */
  readonly graceMs?: number;
}

export interface Gateway {
  readonly config: Config;
  readonly app: Hono | undefined;
  /** Port the HTTP server listens on, once started with `listen`. */
  readonly port: number | undefined;
  readonly metrics: Metrics;
  readonly keys: Keys;
  /** Stop accepting, finish or hand back in-flight work, close connections. Idempotent. */
  stop(): Promise<void>;
}

export async function startGateway(config: Config, opts: GatewayOptions = {}): Promise<Gateway> {
  const roles = new Set(opts.roles ?? ALL_ROLES);
  const logger = opts.logger ?? createLogger();
  const metrics = opts.metrics ?? new Metrics({ defaultMetrics: true });
  const life = new Lifecycle(logger);
  const keys = new Keys(config.redis.prefix);
  let port: number | undefined;
  let app: Hono | undefined;

  try {
    const redis = createCommandRedis(config.redis.url);
    redis.on("error", (err: Error) => logger.debug({ err: err.message }, "redis connection error"));
    await connectRedis(redis, config.redis.url);
    life.onStop("redis", async () => void (await redis.quit().catch(() => redis.disconnect())));

    const hooks = new HookStore(redis, keys);
    const dlq = new DlqStore(redis, keys, config.retention_s);
    const queues = new SinkQueues(redis, keys, Object.keys(config.sinks));
    life.onStop("queues", () => queues.close());
    const publicUrl = config.http.public_url ?? `http://127.0.0.1:${config.http.port}`;

    if (roles.has("dispatch")) {
      const workerRedis = createWorkerRedis(config.redis.url);
      workerRedis.on("error", (err: Error) => logger.debug({ err: err.message }, "redis worker connection error"));
      life.onStop("worker redis", async () => workerRedis.disconnect());
      const sinks = new Map<string, Sink>();
      for (const [name, sinkConfig] of Object.entries(config.sinks)) {
        sinks.set(name, createSink(name, sinkConfig, { logger, defaultClaimCheckBytes: config.dispatch.claim_check_bytes }));
      }
      life.onStop("sinks", async () => void (await Promise.all([...sinks.values()].map((s) => s.close()))));
      const dispatcher = new Dispatcher({ config, keys, connection: workerRedis, sinks, hooks, dlq, metrics, logger, publicUrl });
      dispatcher.start();
      life.onStop("dispatcher", () => dispatcher.close(opts.graceMs));
    }

    if (roles.has("api")) {
      const depth = new DepthGate(config, queues, metrics, logger);
      await depth.start();
      life.onStop("depth gate", async () => depth.stop());
      const ingest = new IngestService({ config, redis, hooks, queues, depth, metrics, logger });
      let draining = false;
      app = createApp(
        [
          healthRoutes({ redis, isDraining: () => draining }),
          metricsRoutes(metrics),
          webhookRoutes({ ingest, metrics, maxBodyBytes: config.http.max_body_bytes }),
        ],
        logger,
      );
      if (opts.listen !== false) {
        const server = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host });
        await new Promise<void>((resolve, reject) => {
          server.once("listening", resolve);
          server.once("error", reject);
        });
        port = (server.address() as AddressInfo).port;
        life.onStop("http server", async () => {
          draining = true;
          ingest.drain();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        });
        logger.info({ port, roles: [...roles] }, "switchyard listening");
      }
    }
  } catch (err) {
    await life.stop();
    throw err;
  }

  return { config, app, port, metrics, keys, stop: () => life.stop() };
}
