// Switchyard's side of bench:memory, each on a private, empty redis-server with the gateway in this
// process: N signed 1 KiB Standard Webhooks hooks ingested through the HTTP API, then the growth of
// INFO used_memory divided by N.
//   queued  the api role alone: every record, delivery row and job stays queued
//   dead    api and dispatch roles, the one http sink refusing every delivery with a 422 and retries off
//           (max_attempts 1): measured once every hook's row is in the DLQ and its queue is idle
//   delivered  api and dispatch roles, the sink answering 200: measured once the receiver has every hook
//           and the queue is idle (what a delivered hook keeps until retention_s: record, row, history)
// `root` runs another checkout's gateway (its src/, with its own node_modules) in the same measurement, so
// a change is measured against the code before it (bench:memory --against DIR).
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import type * as SchemaModule from "../../../src/config/schema.ts";
import type * as HookModule from "../../../src/domain/hook.ts";
import type * as LoggerModule from "../../../src/observability/logger.ts";
import type * as MetricsModule from "../../../src/observability/metrics.ts";
import type * as JobModule from "../../../src/queue/delivery-job.ts";
import type * as GatewayModule from "../../../src/runtime/gateway.ts";
import type * as KeysModule from "../../../src/store/keys.ts";
import type { HookId } from "../../../src/domain/ids.ts";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import type { Gateway } from "../../../src/runtime/gateway.ts";
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

/** The modules of the checkout at `root` the measurement runs (this one by default). */
async function modulesOf(root: string) {
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(root, path)).href) as Promise<T>;
  return {
    ...(await load<typeof SchemaModule>("src/config/schema.ts")),
    ...(await load<typeof HookModule>("src/domain/hook.ts")),
    ...(await load<typeof LoggerModule>("src/observability/logger.ts")),
    ...(await load<typeof MetricsModule>("src/observability/metrics.ts")),
    ...(await load<typeof JobModule>("src/queue/delivery-job.ts")),
    ...(await load<typeof GatewayModule>("src/runtime/gateway.ts")),
    ...(await load<typeof KeysModule>("src/store/keys.ts")),
  };
}
type Modules = Awaited<ReturnType<typeof modulesOf>>;

const THIS_ROOT = new URL("../../../", import.meta.url).pathname;

function config(m: Modules, redisUrl: string, secret: string, sinkUrl: string): SchemaModule.Config {
  // The other checkout may predate the plugin registries, where the schema was a value, not a function.
  const schemaOf = m.configSchema as unknown as
    { parse(v: unknown): SchemaModule.Config } | (() => { parse(v: unknown): SchemaModule.Config });
  const schema = typeof schemaOf === "function" ? schemaOf() : schemaOf;
  return schema.parse({
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
async function deadCount(redis: Redis, keys: InstanceType<Modules["Keys"]>): Promise<number> {
  const pipe = redis.pipeline();
  for (const b of keys.buckets) pipe.zcard(keys.dlqIndex(b, "all"));
  const counts = (await pipe.exec()) ?? [];
  return counts.reduce((sum, [, n]) => sum + Number(n), 0);
}

export async function switchyardMemory(
  kind: "queued" | "dead" | "delivered",
  n: number,
  root: string = THIS_ROOT,
): Promise<SwitchyardMemory> {
  const m = await modulesOf(root);
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const rx = await listenReceiver(kind === "delivered" ? {} : REFUSE);
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const roles = kind === "queued" ? (["api"] as const) : (["api", "dispatch"] as const);
  const gw: Gateway = await m.startGateway(config(m, server.url, secret, `${rx.url}/in`), {
    roles: [...roles],
    logger: m.silentLogger(),
    metrics: new m.Metrics(),
  });
  const keys = new m.Keys(PREFIX);
  const queueName = m.sinkQueueName(SINK);
  const queue = new Queue(queueName, { connection: redis, prefix: keys.queuePrefix(queueName) });
  const settled = async (done: number): Promise<boolean> => {
    const finished = kind === "delivered" ? rx.count() : await deadCount(redis, keys);
    if (finished < done) return false;
    const c = await queue.getJobCounts("wait", "active", "delayed", "prioritized");
    return Object.values(c).every((v) => v === 0);
  };
  const timeoutMs = Math.max(60_000, n * 20);
  try {
    const send = sender(gw, secret);
    await send(-1); // queues, scripts and meta keys exist before the baseline is taken
    if (kind !== "queued") await until(() => settled(1), 30_000, "the first hook to be finished");
    const before = await footprint(redis);
    const last = await forEachConcurrently(n, CONCURRENCY, send);
    if (kind !== "queued") await until(() => settled(n + 1), timeoutMs, `${n} ${kind} hooks`);
    const growth = perItem(before, await footprint(redis), n);
    if (kind !== "queued" || last === undefined) return growth;
    const usage = async (key: string): Promise<number> =>
      Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    const delivery = m.sinkDeliveryId(last, SINK);
    const own = {
      record: await usage(keys.hook(last)),
      row: await usage(keys.delivery(delivery)),
      job: await usage(`${keys.queuePrefix(queueName)}:${queueName}:${delivery}`),
    };
    return { ...growth, own };
  } finally {
    await gw.stop();
    await queue.close();
    await rx.stop();
    redis.disconnect();
    await server.stop();
  }
}
