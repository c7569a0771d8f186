// The bare baseline of bench:e2e, split like the Procfile into two processes:
//   web     a bare Hono route that answers 202 after one BullMQ Queue.add of the body (nothing verified,
//           deduplicated or persisted beside the job); GET /healthz for readiness
//   worker  a bare BullMQ Worker (concurrency 64) POSTing each job's body with undici, failing on a non-2xx;
//           or, with BASELINE_AMQP_URL, publishing each job's body (persistent, mandatory) on one amqplib
//           confirm channel and completing the job once the broker confirms it
// Environment: REDIS_URL, PORT (web), RECEIVER_URL (worker), BASELINE_PREFIX (BullMQ prefix),
// BASELINE_AMQP_URL, BASELINE_AMQP_EXCHANGE, BASELINE_AMQP_ROUTING_KEY (worker, AMQP).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Queue, Worker } from "bullmq";
import amqp from "amqplib";
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

/** Deliver one body; `close` once the worker has stopped. */
interface Deliverer {
  deliver(body: string): Promise<void>;
  close(): Promise<void>;
}

function httpDeliverer(): Deliverer {
  const target = new URL(process.env.RECEIVER_URL ?? "http://127.0.0.1:9/in");
  const pool = new Pool(target.origin, { connections: CONCURRENCY });
  return {
    async deliver(body) {
      const res = await pool.request({
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await res.body.dump();
      if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode}`);
    },
    close: () => pool.close(),
  };
}

async function amqpDeliverer(url: string): Promise<Deliverer> {
  const exchange = process.env.BASELINE_AMQP_EXCHANGE ?? "";
  const routingKey = process.env.BASELINE_AMQP_ROUTING_KEY ?? "";
  const connection = await amqp.connect(url);
  const channel = await connection.createConfirmChannel();
  return {
    deliver: (body) =>
      new Promise<void>((resolve, reject) => {
        const opts = { persistent: true, mandatory: true, contentType: "application/json" };
        channel.publish(exchange, routingKey, Buffer.from(body), opts, (err: unknown) =>
          err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
        );
      }),
    close: async () => void (await connection.close().catch(() => undefined)),
  };
}

async function worker(): Promise<void> {
  const amqpUrl = process.env.BASELINE_AMQP_URL;
  const out = amqpUrl ? await amqpDeliverer(amqpUrl) : httpDeliverer();
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: false });
  const w = new Worker<{ body: string }>(QUEUE, (job) => out.deliver(job.data.body), {
    connection,
    prefix: PREFIX,
    concurrency: CONCURRENCY,
  });
  w.on("error", (err) => process.stderr.write(`baseline worker error: ${err.message}\n`));
  process.on("SIGTERM", () => {
    void w
      .close()
      .then(() => out.close())
      .then(() => process.exit(0));
  });
}

const role = process.argv[2];
if (role === "web") web();
else if (role === "worker") await worker();
else throw new Error(`usage: e2e-baseline.ts web|worker (got ${role})`);
