// The baselines of bench:deliver, each in its own process like the Switchyard dispatch process, and each
// started only on POST /start (deliver-control.ts):
//   bullmq <json>   a bare BullMQ Worker (same concurrency, same Redis) that POSTs each job's body with undici
//                   and throws on a non-2xx: the least a BullMQ-based HTTP deliverer can do.
//   amqplib <json>  a bare confirm-channel loop: N persistent+mandatory publishes, `inFlight` unconfirmed at a
//                   time, done when every confirm is back. Connecting counts, as the sink connects lazily too.
import amqp from "amqplib";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { serveControl } from "./deliver-control.ts";
import { postBody } from "./support.ts";

export interface BullmqBaseline {
  readonly redisUrl: string;
  /** BullMQ prefix, hash-tagged like Switchyard's (`{prefix}`). */
  readonly prefix: string;
  readonly queue: string;
  readonly concurrency: number;
  readonly url: string;
}

export interface AmqplibBaseline {
  readonly url: string;
  readonly exchange: string;
  readonly routingKey: string;
  readonly n: number;
  readonly inFlight: number;
  /** The message, base64, and the headers Switchyard's sink would attach to it. */
  readonly contentBase64: string;
  readonly headers: Record<string, string>;
}

function bullmq(opts: BullmqBaseline): void {
  const target = new URL(opts.url);
  let worker: Worker<{ body: string }> | undefined;
  let connection: Redis | undefined;
  let pool: Pool | undefined;
  serveControl(
    async () => {
      connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
      pool = new Pool(target.origin, { connections: opts.concurrency });
      const p = pool;
      worker = new Worker<{ body: string }>(
        opts.queue,
        (job) => postBody(p, target.pathname, job.data.body),
        { connection, prefix: `{${opts.prefix}}`, concurrency: opts.concurrency },
      );
      worker.on("error", (err) => process.stderr.write(`baseline worker error: ${err.message}\n`));
    },
    async () => {
      await worker?.close();
      await pool?.close();
      connection?.disconnect();
    },
  );
}

function amqplib(opts: AmqplibBaseline): void {
  const content = Buffer.from(opts.contentBase64, "base64");
  let model: amqp.ChannelModel | undefined;
  serveControl(
    async () => {
      const m = await amqp.connect(opts.url);
      model = m;
      const channel = await m.createConfirmChannel();
      let sent = 0;
      let confirmed = 0;
      const done = new Promise<void>((resolve, reject) => {
        const pump = (): void => {
          while (sent - confirmed < opts.inFlight && sent < opts.n) {
            const i = sent++;
            channel.publish(
              opts.exchange,
              opts.routingKey,
              content,
              {
                persistent: true,
                mandatory: true,
                contentType: "application/json",
                messageId: `base_${i}`,
                headers: opts.headers,
              },
              (err: unknown) => {
                if (err) return reject(err instanceof Error ? err : new Error(String(err)));
                confirmed++;
                if (confirmed === opts.n) resolve();
                else pump();
              },
            );
          }
        };
        pump();
      });
      done.catch((err: Error) => process.stderr.write(`baseline publish failed: ${err.message}\n`));
    },
    async () => {
      await model?.close().catch(() => undefined);
    },
  );
}

const [mode, json = "{}"] = process.argv.slice(2);
if (mode === "bullmq") bullmq(JSON.parse(json) as BullmqBaseline);
else if (mode === "amqplib") amqplib(JSON.parse(json) as AmqplibBaseline);
else throw new Error(`unknown mode ${mode}`);
