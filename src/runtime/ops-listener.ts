// A process without the api role serves no HTTP, so Prometheus could not scrape what only it counts:
// delivery attempts, latency, dead letters, its sink breakers. With `http.metrics_port` set it serves
// /metrics, /healthz and /readyz there, with the API's bounds and drain.
import { createApp } from "../api/app.ts";
import { healthRoutes } from "../api/routes/health.ts";
import { metricsRoutes } from "../api/routes/metrics.ts";
import { drainHttp, listenHttp } from "./http-server.ts";
import type { Core } from "./roles/core.ts";

/** Listen on `port`; resolves with the bound port. Stops with the roles (readyz answers 503 meanwhile). */
export async function startOpsListener(
  core: Pick<Core, "config" | "redis" | "metrics" | "logger" | "life">,
  port: number,
): Promise<number> {
  const { config, redis, metrics, logger } = core;
  let draining = false;
  const app = createApp(
    [healthRoutes({ redis, isDraining: () => draining }), metricsRoutes(metrics)],
    logger,
  );
  const listening = await listenHttp(app, { ...config.http, port });
  core.life.role("metrics").onStop("http server", async (deadline) => {
    draining = true;
    await drainHttp(listening.server, deadline);
  });
  return listening.port;
}
