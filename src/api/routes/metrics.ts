// GET /metrics in the Prometheus text format.
import { Hono } from "hono";
import type { Metrics } from "../../observability/metrics.ts";

export function metricsRoutes(metrics: Metrics): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => {
    c.header("content-type", metrics.registry.contentType);
    return c.body(await metrics.registry.metrics());
  });
  return app;
}
