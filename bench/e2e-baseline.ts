// The bare baseline of bench:e2e, split like the Procfile into two processes:
//   web     a bare Hono route that answers 202 after one BullMQ Queue.add of the body (nothing verified,
//           deduplicated or persisted beside the job); GET /healthz for readiness
//   worker  a bare BullMQ Worker (concurrency 64) POSTing each job's body with undici, failing on a non-2xx
// Environment: REDIS_URL, PORT (web), RECEIVER_URL (worker), BASELINE_PREFIX (BullMQ prefix).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Queue, Worker } from "bullmq";
import { Hono } from "hono";
import { Redis } from "ioredis";
import { Pool } from "undici";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `{${process.env.BASELINE_PREFIX ?? "bare"}}`;
const QUEUE = "deliver";
const CONCURRENCY = 64;

function web(): void {
  const queue = new Queue<{ body: string }>(QUEUE, { connection: new Redis(REDIS_URL), prefix: PREFIX });
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.post("/webhooks/:source", async (c) => {
    const job = await queue.add("deliver", { body: await c.req.text() });
    return c.json({ status: "accepted", id: job.id }, 202);
  });
  const server = serve(
    { fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" },
    (info) => process.stdout.write(`ready ${(info as AddressInfo).port}\n`),
  );
  process.on("SIGTERM", () => {
    server.close();
    void queue.close().then(() => process.exit(0));
  });
}

function worker(): void {
  const target = new URL(process.env.RECEIVER_URL ?? "http://127.0.0.1:9/in");
  const pool = new Pool(target.origin, { connections: CONCURRENCY });
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: false });
  const w = new Worker<{ body: string }>(
    QUEUE,
    async (job) => {
      const res = await pool.request({
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: job.data.body,
      });
      await res.body.dump();
      if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode}`);
    },
    { connection, prefix: PREFIX, concurrency: CONCURRENCY },
  );
  w.on("error", (err) => process.stderr.write(`baseline worker error: ${err.message}\n`));
  process.on("SIGTERM", () => {
    void w
      .close()
      .then(() => pool.close())
      .then(() => process.exit(0));
  });
}

const role = process.argv[2];
if (role === "web") web();
else if (role === "worker") worker();
else throw new Error(`usage: e2e-baseline.ts web|worker (got ${role})`);
