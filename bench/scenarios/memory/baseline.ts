// The bare baseline of bench:memory, what bench:e2e's baseline keeps in Redis, on a private, empty
// redis-server: one BullMQ job per hook carrying its 1 KiB body (Queue.add, nothing else persisted).
//   queued  N jobs added, no worker
//   dead    the shared baseline worker (concurrency 64) POSTing each body to a receiver that answers 422,
//           so the job fails; attempts 1, failed jobs kept (BullMQ's default), so each ends in the
//           failed set: the bare path's dead letter. Measured once all N have failed.
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { startBaselineWorker } from "../../shared/baseline-worker.ts";
import { listenReceiver } from "../../shared/receiver.ts";
import { BODY, REFUSE, footprint, forEachConcurrently, perItem, until } from "./support.ts";

const CONCURRENCY = 32;
const WORKER_CONCURRENCY = 64;
const PREFIX = "bare";
const QUEUE = "deliver";

export async function baselineMemory(
  kind: "queued" | "dead",
  n: number,
): Promise<{ bytes: number; keys: number }> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const refuser = await listenReceiver(REFUSE);
  const queue = new Queue<{ body: string }>(QUEUE, { connection: redis, prefix: `{${PREFIX}}` });
  const worker =
    kind === "dead"
      ? await startBaselineWorker({
          redisUrl: server.url,
          prefix: PREFIX,
          queue: QUEUE,
          concurrency: WORKER_CONCURRENCY,
          url: `${refuser.url}/in`,
        })
      : undefined;
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
    await refuser.stop();
    redis.disconnect();
    await server.stop();
  }
}
