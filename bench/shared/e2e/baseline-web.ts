// The web half of bench:e2e's bare baseline (the worker half is the shared baseline worker,
// baseline-worker-process.ts): a bare Hono route that answers 202 after one BullMQ Queue.add of the body
// (nothing verified, deduplicated or persisted beside the job); GET /healthz for readiness.
// Environment: REDIS_URL, PORT, BASELINE_PREFIX (BullMQ prefix), BASELINE_QUEUE, and
// BASELINE_REMOVE_ON_COMPLETE=1 to add each job with removeOnComplete (by default every completed job is
// kept, as BullMQ's defaults do).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Queue } from "bullmq";
import { Hono } from "hono";
import { Redis } from "ioredis";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `{${process.env.BASELINE_PREFIX ?? "bare"}}`;
const QUEUE = process.env.BASELINE_QUEUE ?? "deliver";
const JOB_OPTS = process.env.BASELINE_REMOVE_ON_COMPLETE === "1" ? { removeOnComplete: true } : undefined;

function web(): void {
  const queue = new Queue<{ body: string }>(QUEUE, { connection: new Redis(REDIS_URL), prefix: PREFIX });
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.post("/webhooks/:source", async (c) => {
    const job = await queue.add("deliver", { body: await c.req.text() }, JOB_OPTS);
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

web();
