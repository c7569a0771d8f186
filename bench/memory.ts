// bench:memory — Redis bytes per queued hook: N signed 1 KiB Standard Webhooks hooks ingested by the
// API alone (no workers, so every record, delivery row and job stays queued) into a private, empty
// redis-server, measured as the growth of INFO used_memory divided by N, with MEMORY USAGE of one
// hook's own keys beside it to show where the bytes go.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { configSchema } from "../src/config/schema.ts";
import { sinkDeliveryId } from "../src/domain/hook.ts";
import type { HookId } from "../src/domain/ids.ts";
import { silentLogger } from "../src/observability/logger.ts";
import { Metrics } from "../src/observability/metrics.ts";
import { sinkQueueName } from "../src/queue/delivery-job.ts";
import { startPrivateRedis } from "../src/runtime/dev-redis.ts";
import { startGateway } from "../src/runtime/gateway.ts";
import { Keys } from "../src/store/keys.ts";

const N = Number(process.env.BENCH_HOOKS ?? 20_000);
const CONCURRENCY = 32;
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const body = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info("memory"))?.[1]);
}

async function main(): Promise<void> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const prefix = "sy";
  const config = configSchema.parse({
    redis: { url: server.url, prefix },
    http: { port: 0, host: "127.0.0.1" },
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
    sources: {
      bench: {
        verify: { type: "standard_webhooks", secrets: [SECRET] },
        dedup: "standard_webhooks",
        sinks: ["out"],
      },
    },
  });
  const gw = await startGateway(config, { roles: ["api"], logger: silentLogger(), metrics: new Metrics() });
  const webhook = new Webhook(SECRET);
  const url = `http://127.0.0.1:${gw.port}/webhooks/bench`;
  const send = async (i: number): Promise<string> => {
    const id = `msg_${i}_${randomBytes(6).toString("hex")}`;
    const now = new Date();
    const res = await fetch(url, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": webhook.sign(id, now, body),
      },
    });
    if (res.status !== 202) throw new Error(`hook ${i}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  try {
    await send(-1); // queues, scripts and meta keys exist before the baseline is taken
    const before = await usedMemory(redis);
    const keysBefore = await redis.dbsize();
    let next = 0;
    let last = "";
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) last = await send(next++);
      }),
    );
    const after = await usedMemory(redis);
    const keysAfter = await redis.dbsize();
    const keys = new Keys(prefix);
    const queue = sinkQueueName("out");
    const delivery = sinkDeliveryId(last as HookId, "out");
    const usage = async (key: string): Promise<number> =>
      Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    const own = {
      record: await usage(keys.hook(last as HookId)),
      row: await usage(keys.delivery(delivery)),
      job: await usage(`${keys.queuePrefix(queue)}:${queue}:${delivery}`),
    };
    const perHook = (after - before) / N;
    console.log(`bench:memory  ${N.toLocaleString("en")} queued signed 1 KiB hooks, one sink, API only`);
    console.log(`  used_memory growth      ${((after - before) / 1024 / 1024).toFixed(1)} MiB`);
    console.log(
      `  keys                    +${keysAfter - keysBefore} (${((keysAfter - keysBefore) / N).toFixed(2)} per hook)`,
    );
    console.log(`  bytes per queued hook   ${perHook.toFixed(0)} (target ≤ 3072)`);
    console.log(
      `  MEMORY USAGE of one hook's own keys: record ${own.record}, delivery row ${own.row}, job ${own.job} = ${own.record + own.row + own.job}; the rest is the wait list, the watch set and the dedup key`,
    );
  } finally {
    await gw.stop();
    redis.disconnect();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
