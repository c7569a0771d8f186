// The baseline of bench:ingest, a process under load beside Switchyard's api role
// (shared/switchyard-node.ts): a bare Hono route that performs the same Redis writes as Switchyard's
// ingest (dedup, the hook hash, the pending-enqueue entry, a BullMQ job hash and its wait-list push) in one
// pipeline. `baseline-target.ts <redis url> <prefix>`; prints "ready <port>" on stdout once it listens.
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Redis } from "ioredis";

const [redisUrl = "redis://127.0.0.1:6379", prefix = "bench"] = process.argv.slice(2);

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
