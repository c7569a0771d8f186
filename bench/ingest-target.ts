// A process under load for bench:ingest: either the Switchyard API (verify → dedup → persist → enqueue)
// or the baseline, a bare Hono route that performs the same Redis writes in one pipeline.
// Prints "ready <port>" on stdout once it listens.
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Redis } from "ioredis";
import { configSchema } from "../src/config/schema.ts";
import { silentLogger } from "../src/observability/logger.ts";
import { Metrics } from "../src/observability/metrics.ts";
import { startGateway } from "../src/runtime/gateway.ts";

const [mode = "switchyard", redisUrl = "redis://127.0.0.1:6379", prefix = "bench", secret = ""] =
  process.argv.slice(2);

if (mode === "switchyard") {
  const config = configSchema.parse({
    redis: { url: redisUrl, prefix },
    http: { port: 0, host: "127.0.0.1" },
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
    sources: {
      bench: {
        verify: { type: "standard_webhooks", secrets: [secret] },
        dedup: "standard_webhooks",
        sinks: ["out"],
      },
    },
  });
  const gw = await startGateway(config, { roles: ["api"], logger: silentLogger(), metrics: new Metrics() });
  process.stdout.write(`ready ${gw.port}\n`);
  process.on("SIGTERM", () => void gw.stop().then(() => process.exit(0)));
} else {
  const redis = new Redis(redisUrl, { enableOfflineQueue: true });
  const base = `{${prefix}}`;
  const app = new Hono();
  app.post("/webhooks/:source", async (c) => {
    const body = Buffer.from(await c.req.arrayBuffer());
    const id = `hk_${randomBytes(13).toString("hex")}`;
    const dedup = c.req.header("webhook-id") ?? createHash("sha256").update(body).digest("hex");
    const now = Date.now();
    const headers = JSON.stringify(Object.fromEntries(c.req.raw.headers));
    const jobKey = `${base}:bq:sink-out:${id}-out`;
    await redis
      .pipeline()
      .set(`${base}:dedup:-:bench:${dedup}`, id, "EX", 259200, "NX")
      .hset(`${base}:hook:${id}`, { src: "bench", rat: now, hdr: headers, st: "persisted", body })
      .expire(`${base}:hook:${id}`, 604800)
      .zadd(`${base}:pending-enqueue`, now, id)
      .hset(jobKey, { name: "deliver", data: JSON.stringify({ hookId: id, sink: "out" }), timestamp: now })
      .lpush(`${base}:bq:sink-out:wait`, `${id}-out`)
      .exec();
    return c.json({ status: "accepted", id }, 202);
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
    process.stdout.write(`ready ${info.port}\n`);
  });
  process.on("SIGTERM", () => {
    server.close();
    redis.disconnect();
    process.exit(0);
  });
}
