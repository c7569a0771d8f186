// The bare baseline of bench:memory, what bench:e2e's baseline keeps in Redis, on a private, empty
// redis-server: one BullMQ job per hook carrying its 1 KiB body (Queue.add, nothing else persisted).
//   queued  N jobs added, no worker
//   dead    a bare BullMQ Worker (concurrency 64) POSTing each body with undici to a receiver that
//           answers 422 and failing the job on it; attempts 1, failed jobs kept (BullMQ's default), so
//           each ends in the failed set: the bare path's dead letter. Measured once all N have failed.
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { startPrivateRedis } from "../src/runtime/dev-redis.ts";
import { BODY, footprint, forEachConcurrently, perItem, startRefuser, until } from "./memory-support.ts";
import { postBody } from "./support.ts";

const CONCURRENCY = 32;
const WORKER_CONCURRENCY = 64;
const PREFIX = "{bare}";

export async function baselineMemory(
  kind: "queued" | "dead",
  n: number,
): Promise<{ bytes: number; keys: number }> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const workerRedis = new Redis(server.url, { maxRetriesPerRequest: null, enableReadyCheck: false });
  const refuser = await startRefuser();
  const target = new URL(refuser.url);
  const pool = new Pool(target.origin, { connections: WORKER_CONCURRENCY });
  const queue = new Queue<{ body: string }>("deliver", { connection: redis, prefix: PREFIX });
  const worker =
    kind === "dead"
      ? new Worker<{ body: string }>("deliver", (job) => postBody(pool, target.pathname, job.data.body), {
          connection: workerRedis,
          prefix: PREFIX,
          concurrency: WORKER_CONCURRENCY,
        })
      : undefined;
  worker?.on("error", (err) => process.stderr.write(`baseline worker error: ${err.message}\n`));
  const failed = async (want: number): Promise<boolean> => {
    const c = await queue.getJobCounts("wait", "active", "failed");
    return c.failed === want && c.wait === 0 && c.active === 0;
  };
  const add = (): Promise<unknown> => queue.add("deliver", { body: BODY });
  try {
    await add(); // the queue's meta keys exist before the baseline is taken
    if (worker) await until(() => failed(1), 30_000, "the first baseline job to fail");
    const before = await footprint(redis);
    await forEachConcurrently(n, CONCURRENCY, add);
    if (worker) await until(() => failed(n + 1), Math.max(60_000, n * 20), `${n} failed baseline jobs`);
    return perItem(before, await footprint(redis), n);
  } finally {
    await worker?.close();
    await queue.close();
    await pool.close();
    await refuser.stop();
    redis.disconnect();
    workerRedis.disconnect();
    await server.stop();
  }
}
