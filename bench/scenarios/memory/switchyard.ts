// Switchyard's side of bench:memory, each on a private, empty redis-server with the gateway in this
// process: N signed 1 KiB Standard Webhooks hooks ingested through the HTTP API, then the growth of
// INFO used_memory divided by N.
//   queued  the api role alone: every record, delivery row and job stays queued
//   dead    api and dispatch roles, the one http sink refusing every delivery with a 422 and retries off
//           (max_attempts 1): measured once every hook's row is in the DLQ and its queue is idle
import { randomBytes } from "node:crypto";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { type Config, configSchema } from "../../../src/config/schema.ts";
import { sinkDeliveryId } from "../../../src/domain/hook.ts";
import type { HookId } from "../../../src/domain/ids.ts";
import { silentLogger } from "../../../src/observability/logger.ts";
import { Metrics } from "../../../src/observability/metrics.ts";
import { sinkQueueName } from "../../../src/queue/delivery-job.ts";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { type Gateway, startGateway } from "../../../src/runtime/gateway.ts";
import { Keys } from "../../../src/store/keys.ts";
import { listenReceiver } from "../../shared/receiver.ts";
import { signedHeaders } from "../../shared/support.ts";
import { BODY, REFUSE, footprint, forEachConcurrently, perItem, until } from "./support.ts";

const CONCURRENCY = 32;
const PREFIX = "sy";
const SINK = "out";

export interface SwitchyardMemory {
  /** Bytes and keys per hook. */
  readonly bytes: number;
  readonly keys: number;
  /** queued only: MEMORY USAGE of the last hook's own keys. */
  readonly own?: { readonly record: number; readonly row: number; readonly job: number };
}

function config(redisUrl: string, secret: string, sinkUrl: string): Config {
  return configSchema().parse({
    redis: { url: redisUrl, prefix: PREFIX },
    http: { port: 0, host: "127.0.0.1" },
    dispatch: { retry: { max_attempts: 1 } },
    sinks: { [SINK]: { type: "http", url: sinkUrl } },
    sources: {
      bench: {
        verify: { type: "standard_webhooks", secrets: [secret] },
        dedup: "standard_webhooks",
        sinks: [SINK],
      },
    },
  });
}

function sender(gw: Gateway, secret: string): (i: number) => Promise<HookId> {
  const webhook = new Webhook(secret);
  const url = `http://127.0.0.1:${gw.port}/webhooks/bench`;
  return async (i) => {
    const id = `msg_${i}_${randomBytes(6).toString("hex")}`;
    const res = await fetch(url, { method: "POST", body: BODY, headers: signedHeaders(webhook, id, BODY) });
    if (res.status !== 202) throw new Error(`hook ${i}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: HookId }).id;
  };
}

/** Dead rows listed in the DLQ, over every bucket. */
async function deadCount(redis: Redis, keys: Keys): Promise<number> {
  const pipe = redis.pipeline();
  for (const b of keys.buckets) pipe.zcard(keys.dlqIndex(b, "all"));
  const counts = (await pipe.exec()) ?? [];
  return counts.reduce((sum, [, n]) => sum + Number(n), 0);
}

export async function switchyardMemory(kind: "queued" | "dead", n: number): Promise<SwitchyardMemory> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const refuser = await listenReceiver(REFUSE);
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const roles = kind === "queued" ? (["api"] as const) : (["api", "dispatch"] as const);
  const gw = await startGateway(config(server.url, secret, `${refuser.url}/in`), {
    roles: [...roles],
    logger: silentLogger(),
    metrics: new Metrics(),
  });
  const keys = new Keys(PREFIX);
  const queueName = sinkQueueName(SINK);
  const queue = new Queue(queueName, { connection: redis, prefix: keys.queuePrefix(queueName) });
  const settled = async (dead: number): Promise<boolean> => {
    if ((await deadCount(redis, keys)) < dead) return false;
    const c = await queue.getJobCounts("wait", "active", "delayed", "prioritized");
    return Object.values(c).every((v) => v === 0);
  };
  const timeoutMs = Math.max(60_000, n * 20);
  try {
    const send = sender(gw, secret);
    await send(-1); // queues, scripts and meta keys exist before the baseline is taken
    if (kind === "dead") await until(() => settled(1), 30_000, "the first hook to be dead-lettered");
    const before = await footprint(redis);
    const last = await forEachConcurrently(n, CONCURRENCY, send);
    if (kind === "dead") await until(() => settled(n + 1), timeoutMs, `${n} dead-lettered hooks`);
    const growth = perItem(before, await footprint(redis), n);
    if (kind === "dead" || last === undefined) return growth;
    const usage = async (key: string): Promise<number> =>
      Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    const delivery = sinkDeliveryId(last, SINK);
    const own = {
      record: await usage(keys.hook(last)),
      row: await usage(keys.delivery(delivery)),
      job: await usage(`${keys.queuePrefix(queueName)}:${queueName}:${delivery}`),
    };
    return { ...growth, own };
  } finally {
    await gw.stop();
    await queue.close();
    await refuser.stop();
    redis.disconnect();
    await server.stop();
  }
}
