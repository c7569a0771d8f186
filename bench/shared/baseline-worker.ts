// The one bare BullMQ baseline worker of the benchmarks: a BullMQ Worker (the concurrency Switchyard is
// given, the same Redis) that hands each job's body on and fails the job when that fails, the least a
// BullMQ-based deliverer can do. It either POSTs the body with undici and throws on a non-2xx (a 422
// receiver makes every job fail: bench:memory's dead letters), or publishes it (persistent, mandatory) on
// one amqplib confirm channel and completes the job once the broker confirms it. bench:memory runs it
// in-process; bench:deliver, bench:fanout and bench:e2e run it as a process (baseline-worker-process.ts).
// Also the jobs it works off, added with Queue.addBulk as a bare producer would.
import amqp from "amqplib";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { Pool } from "undici";
import type { AmqpDestination } from "./receiver-handle.ts";

export interface BaselineWorkerOptions {
  readonly redisUrl: string;
  /** BullMQ prefix, hash-tagged like Switchyard's (`{prefix}`). */
  readonly prefix: string;
  readonly queue: string;
  readonly concurrency: number;
  /** POST each body to this URL, or (when set) publish it to `amqp` instead. */
  readonly url?: string;
  readonly amqp?: AmqpDestination;
}

export interface BaselineWorker {
  close(): Promise<void>;
}

/** Hand one body on; `close` once the worker has stopped. */
interface Deliverer {
  deliver(body: string): Promise<void>;
  close(): Promise<void>;
}

function httpDeliverer(url: string, connections: number): Deliverer {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections });
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

async function amqpDeliverer(to: AmqpDestination): Promise<Deliverer> {
  const connection = await amqp.connect(to.url);
  const channel = await connection.createConfirmChannel();
  return {
    deliver: (body) =>
      new Promise<void>((resolve, reject) => {
        const opts = { persistent: true, mandatory: true, contentType: "application/json" };
        channel.publish(to.exchange, to.routingKey, Buffer.from(body), opts, (err: unknown) =>
          err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
        );
      }),
    close: async () => void (await connection.close().catch(() => undefined)),
  };
}

export async function startBaselineWorker(o: BaselineWorkerOptions): Promise<BaselineWorker> {
  const out = o.amqp
    ? await amqpDeliverer(o.amqp)
    : httpDeliverer(o.url ?? "http://127.0.0.1:9/in", o.concurrency);
  const connection = new Redis(o.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
  const worker = new Worker<{ body: string }>(o.queue, (job) => out.deliver(job.data.body), {
    connection,
    prefix: `{${o.prefix}}`,
    concurrency: o.concurrency,
  });
  worker.on("error", (err) => process.stderr.write(`baseline worker error: ${err.message}\n`));
  return {
    async close() {
      await worker.close();
      await out.close();
      connection.disconnect();
    },
  };
}

/** Add `n` jobs carrying `body` to queue `queue` under `{prefix}`, 1,000 per Queue.addBulk. */
export async function addBaselineJobs(
  redis: Redis,
  o: { readonly prefix: string; readonly queue: string },
  n: number,
  body: string,
): Promise<void> {
  const queue = new Queue(o.queue, { connection: redis, prefix: `{${o.prefix}}` });
  const opts = { attempts: 25, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: false };
  try {
    for (let i = 0; i < n; i += 1000) {
      const size = Math.min(1000, n - i);
      await queue.addBulk(Array.from({ length: size }, () => ({ name: "deliver", data: { body }, opts })));
    }
  } finally {
    await queue.close();
  }
}
