// Liveness and readiness for load balancers and orchestrators.
import { Hono } from "hono";
import type { RedisClient } from "../../store/redis-client.ts";
import { ApiError } from "../api-error.ts";

export function healthRoutes(deps: { redis: RedisClient; isDraining: () => boolean }): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    if (deps.isDraining()) throw new ApiError(503, "not_ready", "shutting down", { "retry-after": "5" });
    try {
      await deps.redis.ping();
    } catch {
      throw new ApiError(503, "not_ready", "redis is unreachable", { "retry-after": "5" });
    }
    return c.json({ status: "ready" });
  });
  return app;
}
